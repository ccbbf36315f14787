import GeneratorTestSupport
import Testing

@testable import CacheGenTranslation

/// `SwiftLiteral`'s byte-level fast path for doc-comment lines gives what the `Character`-based
/// form it replaced gives, on text made to trip it (`TextPieces`).
@Suite struct SwiftLiteralTests {
    @Test func commentLinesSplitAtLineFeedsButNotInsideCRLF() {
        #expect(SwiftLiteral.commentLines("one\r\ntwo\nthree  \n") == ["onetwo", "three", ""])
        #expect(SwiftLiteral.commentLines("é \u{1}x \n\u{301}y") == ["é x", "\u{301}y"])
        for text in TextPieces.texts(count: 20_000, length: 8) {
            let expected = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                var kept = String(decoding: line.utf8.filter { $0 >= 0x20 && $0 != 0x7F }, as: UTF8.self)
                while kept.last == " " { kept.removeLast() }
                return kept
            }
            #expect(SwiftLiteral.commentLines(text) == expected, "\(text.debugDescription)")
        }
    }
}
