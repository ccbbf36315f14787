import Foundation
import Testing

@testable import CacheGenCore
@testable import CacheGenOpenAPI
@testable import CacheGenReading
@testable import CacheGenTranslation

/// The byte-level fast paths for text give exactly what the `Character`- and
/// Foundation-based forms they replaced give, on text made to trip them: combining marks,
/// CRLF (one character), Unicode white space and line breaks, control characters and a sign
/// canonically equal to an ASCII letter.
@Suite struct TextFastPathTests {
    static let pieces = [
        "a", "B", " ", "\n", "\r", "\r\n", "\t", "\"", "~", "/", "%", "#", "é", "e\u{301}", "\u{301}", "\u{A0}",
        "\u{2028}", "\u{85}", "\u{3000}", "\u{1}", "\u{7F}", "0", "#/components/schemas/", "\u{212A}", "😀", "~1",
        "\u{FEFF}", "\u{200B}",
    ]

    /// Texts of up to `length` pieces, the same every run.
    static func texts(count: Int, length: Int) -> [String] {
        var random = SplitMix64(state: 26)
        return (0..<count).map { _ in
            (0..<Int(random.next() % UInt64(length + 1))).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }
                .joined()
        }
    }

    @Test func trimmingIsFoundations() {
        for text in Self.texts(count: 20_000, length: 8) {
            #expect(text.trimmingWhitespaceAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
            let part = text.split(separator: ";").first ?? ""
            #expect(part.trimmingWhitespace() == part.trimmingCharacters(in: .whitespaces))
        }
    }

    @Test func commentLinesSplitAtLineFeedsButNotInsideCRLF() {
        #expect(SwiftLiteral.commentLines("one\r\ntwo\nthree  \n") == ["onetwo", "three", ""])
        #expect(SwiftLiteral.commentLines("é \u{1}x \n\u{301}y") == ["é x", "\u{301}y"])
        for text in Self.texts(count: 20_000, length: 8) {
            let expected = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                var kept = String(decoding: line.utf8.filter { $0 >= 0x20 && $0 != 0x7F }, as: UTF8.self)
                while kept.last == " " { kept.removeLast() }
                return kept
            }
            #expect(SwiftLiteral.commentLines(text) == expected, "\(text.debugDescription)")
        }
    }

    @Test func referencePathsAndPointersSplitAsByCharacter() {
        for text in Self.texts(count: 20_000, length: 8) {
            for omitting in [true, false] {
                #expect(OpenAPIReferences.pathParts(text, omittingEmpty: omitting) == text.split(separator: "/", omittingEmptySubsequences: omitting))
            }
            let hash = text.firstIndex(of: "#")
            let parts = OpenAPIReferences.parts(of: text)
            #expect(parts.file == String(hash.map { text[..<$0] } ?? text[...]))
            #expect(parts.pointer == (hash.map { String(text[text.index(after: $0)...]) } ?? ""))
        }
    }

    @Test func quotedIsUnchanged() {
        #expect(quoted("name") == "\"name\"")
        #expect(quoted("a\"b") == #""a\"b""#)
        #expect(quoted(String(repeating: "x", count: 61)) == "\"" + String(repeating: "x", count: 57) + "…\"")
        #expect(quoted("tab\there") == #""tab\there""#)
    }
}
