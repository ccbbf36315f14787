/// Texts made to trip the byte-level fast paths for text, the same every run: a fast path
/// must give what the `Character`- and Foundation-based form it replaced gives on each.
package enum TextPieces {
    /// Pieces of text that trip byte-level fast paths: combining marks, CRLF (one
    /// character), Unicode white space and line breaks, control characters and a sign
    /// canonically equal to an ASCII letter.
    package static let pieces = [
        "a", "B", " ", "\n", "\r", "\r\n", "\t", "\"", "~", "/", "%", "#", "é", "e\u{301}", "\u{301}", "\u{A0}",
        "\u{2028}", "\u{85}", "\u{3000}", "\u{1}", "\u{7F}", "0", "#/components/schemas/", "\u{212A}", "😀", "~1",
        "\u{FEFF}", "\u{200B}",
    ]

    /// Texts of up to `length` pieces, the same every run.
    package static func texts(count: Int, length: Int) -> [String] {
        var random = SplitMix64(state: 26)
        return (0..<count).map { _ in
            (0..<Int(random.next() % UInt64(length + 1))).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }
                .joined()
        }
    }
}
