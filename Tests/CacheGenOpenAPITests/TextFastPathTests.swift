import Foundation
import Testing

@testable import CacheGenOpenAPI
@testable import CacheGenReading
import GeneratorTestSupport

/// The byte-level fast paths for text give exactly what the `Character`- and
/// Foundation-based forms they replaced give, on text made to trip them (`TextPieces`):
/// trimming, `$ref` paths and pointers, quoting. (Comment lines are `SwiftLiteralTests`'s.)
@Suite struct TextFastPathTests {
    @Test func trimmingIsFoundations() {
        for text in TextPieces.texts(count: 20_000, length: 8) {
            #expect(text.trimmingWhitespaceAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
            let part = text.split(separator: ";").first ?? ""
            #expect(part.trimmingWhitespace() == part.trimmingCharacters(in: .whitespaces))
        }
    }

    @Test func referencePathsAndPointersSplitAsByCharacter() {
        for text in TextPieces.texts(count: 20_000, length: 8) {
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
