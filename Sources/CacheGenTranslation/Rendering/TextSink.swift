/// Where one-line text goes: the file being written, or a counter that measures a line
/// before it is written, so that the same code both measures and writes and the two
/// can never disagree.
package protocol TextSink {
    mutating func append(_ piece: String)
    /// Punctuation or a keyword: ASCII known when the code is compiled, so a sink can take
    /// it without looking at it.
    mutating func append(syntax: StaticString)
}

/// Measures a line as it would be written, in UTF-8 bytes or in characters (as
/// `String.count` counts them in each piece), up to a limit: past it, the exact length no
/// longer matters (the line does not fit), so the rest is not counted.
package struct LineLength: TextSink {
    package enum Unit {
        case bytes, characters
    }

    package let unit: Unit
    package let limit: Int
    /// Exact up to `limit`; above it, only known to be above.
    private(set) var total = 0

    package init(_ unit: Unit, limit: Int) {
        self.unit = unit
        self.limit = limit
    }

    package mutating func append(_ piece: String) {
        guard total <= limit else { return }
        total += unit == .bytes ? piece.utf8.count : piece.characterCount
    }

    package mutating func append(syntax: StaticString) { total += syntax.utf8CodeUnitCount }
}

/// Collects the text, for the few pieces needed as a `String`.
package struct TextBuffer: TextSink {
    package var text = ""
    package mutating func append(_ piece: String) { text += piece }
    package mutating func append(syntax: StaticString) { text += syntax.description }
}

extension String {
    /// `count`, without grapheme breaking when the text is ASCII (nearly always).
    package var characterCount: Int {
        let ascii = utf8.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 < 0x80 } }
        return ascii == true ? utf8.count : count
    }
}
