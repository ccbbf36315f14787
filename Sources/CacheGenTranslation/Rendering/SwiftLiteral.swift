import CacheGenReading

/// Swift literal syntax, in one place, so user text can never break generated code.
package enum SwiftLiteral {
    /// A double-quoted string literal with `\`, `"`, control characters and
    /// interpolation-looking text escaped.
    package static func string(_ text: String) -> String {
        if needsNoEscaping(text) { return "\"" + text + "\"" }
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// Whether `text` is written between the quotes as it is: printable ASCII without `\`
    /// or `"`, the common case.
    package static func needsNoEscaping(_ text: String) -> Bool {
        let isPlain = { (byte: UInt8) in byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\\") && byte != UInt8(ascii: "\"") }
        return text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(isPlain) } ?? text.utf8.allSatisfy(isPlain)
    }

    /// One comment line with any line break or control character written as `\u{…}`,
    /// so spec text (a path, a name) can never end the comment early.
    package static func commentSafe(_ line: String) -> String {
        guard !isPrintableASCII(line), line.unicodeScalars.contains(where: isBreaking) else { return line }
        var result = ""
        for scalar in line.unicodeScalars {
            if isBreaking(scalar) {
                result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether every byte is printable ASCII: the common case, checked without decoding.
    private static func isPrintableASCII(_ text: String) -> Bool {
        let printable = text.utf8.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
        return printable ?? text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    private static func isBreaking(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x85 || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    /// Text safe inside a `///` or `//` comment: one line, no control characters.
    package static func commentLines(_ text: String) -> [String] {
        if isPrintableASCII(text) { return [text.trimmingTrailingSpaces()] }
        let bytes = Array(text.utf8)
        return lineRanges(bytes).map { range in
            // Control characters are single ASCII bytes, so dropping those bytes from the UTF-8
            // form drops exactly those scalars and never splits another character. (Filtering the
            // scalar view appended scalar by scalar and cost more than all the rest of a run.)
            let line = bytes[range]
            let keep: (UInt8) -> Bool = { $0 >= 0x20 && $0 != 0x7F }
            let kept = line.allSatisfy(keep) ? line : ArraySlice(line.filter(keep))
            // Trailing spaces are trimmed on bytes when the line is ASCII (each byte a
            // character); other lines go through `Character`s, as before.
            guard kept.allSatisfy({ $0 < 0x80 }) else { return String(decoding: kept, as: UTF8.self).trimmingTrailingSpaces() }
            var end = kept.endIndex
            while end > kept.startIndex, kept[end - 1] == UInt8(ascii: " ") { end -= 1 }
            return String(decoding: kept[..<end], as: UTF8.self)
        }
    }

    /// The lines of a text as `text.split(separator: "\n", omittingEmptySubsequences: false)`
    /// finds them, on bytes: a line feed is always a character of its own except right after
    /// a carriage return, where the two are one character (`"\r\n"`), which is no `"\n"`.
    ///
    /// Implementation note: splitting the `String` by `Character` walked grapheme boundaries
    /// through the whole of every description, about a twentieth of a run on a large document.
    private static func lineRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        for index in bytes.indices where bytes[index] == ASCII.lineFeed {
            if index > 0, bytes[index - 1] == ASCII.carriageReturn { continue }
            ranges.append(start..<index)
            start = index + 1
        }
        ranges.append(start..<bytes.count)
        return ranges
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
