import Foundation

/// Trimming white space from descriptions and media types, with the same result as
/// Foundation's `trimmingCharacters(in: .whitespacesAndNewlines)` and `(in: .whitespaces)`.
///
/// Implementation note: on Linux, Foundation's `trimmingCharacters` bridges every string to
/// `NSString` and walks it in UTF-16, about 40,000 instructions for a description; a 3 MB
/// document has thousands of them, which made trimming a seventh of a whole run. Here only
/// the scalars at either end are looked at: ASCII ones by value, others (rare: a no-break
/// space, an ideographic space) through the same `CharacterSet`, so the result is
/// Foundation's exactly. Foundation trims Unicode scalars, not `Character`s, and so does
/// this: a combining mark after a leading space stays.
extension StringProtocol {
    /// The text without white space and line breaks at either end, as
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` gives it.
    package func trimmingWhitespaceAndNewlines() -> String {
        trimming(newlines: true)
    }

    /// The text without spaces and tabs at either end, as
    /// `trimmingCharacters(in: .whitespaces)` gives it.
    package func trimmingWhitespace() -> String {
        trimming(newlines: false)
    }

    private func trimming(newlines: Bool) -> String {
        let scalars = Substring(self).unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, Self.isTrimmed(scalars[start], newlines: newlines) { start = scalars.index(after: start) }
        while start < end {
            let last = scalars.index(before: end)
            guard Self.isTrimmed(scalars[last], newlines: newlines) else { break }
            end = last
        }
        return String(Substring(scalars[start..<end]))
    }

    /// Whether `scalar` is in `CharacterSet.whitespacesAndNewlines` (`newlines`) or
    /// `CharacterSet.whitespaces`.
    private static func isTrimmed(_ scalar: Unicode.Scalar, newlines: Bool) -> Bool {
        switch scalar.value {
        case 0x20, 0x09: return true
        case 0x0A...0x0D: return newlines
        case 0..<0x80: return false
        default: return newlines ? CharacterSet.whitespacesAndNewlines.contains(scalar) : CharacterSet.whitespaces.contains(scalar)
        }
    }
}
