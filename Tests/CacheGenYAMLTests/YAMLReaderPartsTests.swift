import Foundation
import GeneratorTestSupport
import Testing

@testable import CacheGenReading
@testable import CacheGenYAML

/// A large document read in parts on all cores (`YAMLReader+Parts.swift`) gives exactly what
/// reading it whole gives: the same nodes at the same locations, or the same error.
@Suite struct YAMLReaderPartsTests {
    static let corpus = ThirdPartyFixtures.folder.appendingPathComponent("openapi-corpus")

    /// The document read both ways, and whether the parts were used.
    private static func readBothWays(_ text: String, file: String = "large.yaml") -> (
        parts: Result<JSONNode, Diagnostic>, whole: Result<JSONNode, Diagnostic>, usedParts: Bool
    ) {
        let bytes = Array(text.utf8)
        let parts = Result { () throws(Diagnostic) in try YAMLReader.parse(bytes: bytes, file: file) }
        let whole = Result { () throws(Diagnostic) in try YAMLReader.parse(bytes: bytes, file: file, inParts: false) }
        let padded = bytes + Array(repeating: 0, count: YAMLCursor.padding)
        let usedParts = YAMLReader.parseInParts(padded, count: bytes.count, file: file) != nil
        return (parts, whole, usedParts)
    }

    /// A document of `entries` top-level keys, each a mapping of about 20 KB (large enough in
    /// all to be read in parts), with `extra` text in the middle entry.
    private static func document(entries: Int = 40, header: String = "", middle extra: String = "") -> String {
        var text = header + "openapi: 3.1.0\n# a comment in column 0\n"
        for entry in 0..<entries {
            text += "entry\(entry):\n"
            if entry == entries / 2 { text += extra }
            for item in 0..<200 {
                text += "  key\(item): 'value \(entry) \(item), long enough to make the document large'\n"
                text += "  list\(item): [1, 2.5, null, true]\n"
                if item % 50 == 0 { text += "  text\(item): |\n    a block scalar\n\n    with an empty line\n\n" }
            }
            text += "  tags:\n  - one\n  - two\n"
        }
        return text
    }

    /// Whether the two results are the same value or the same error (compared apart from
    /// `#expect`, which would print both documents when they differ).
    private static func same(
        _ result: (parts: Result<JSONNode, Diagnostic>, whole: Result<JSONNode, Diagnostic>, usedParts: Bool)
    ) -> Bool {
        switch (result.parts, result.whole) {
        case (.success(let parts), .success(let whole)): parts == whole
        case (.failure(let parts), .failure(let whole)): parts.description == whole.description
        default: false
        }
    }

    @Test(arguments: ["openai/openapi.yaml", "twilio/twilio_api_v2010.yaml"])
    func corpusDocumentsReadTheSameInParts(_ name: String) throws {
        let text = try String(contentsOf: Self.corpus.appendingPathComponent(name), encoding: .utf8)
        let result = Self.readBothWays(text, file: name)
        let (usedParts, same) = (result.usedParts, Self.same(result))
        #expect(usedParts)
        #expect(same)
    }

    @Test func aLargeDocumentReadsTheSameInParts() throws {
        let result = Self.readBothWays(Self.document())
        let (usedParts, same) = (result.usedParts, Self.same(result))
        #expect(usedParts)
        #expect(same)
        let node = try result.parts.get()
        #expect(node.members?.count == 41)
        // Each entry is its key's line, 200 items of two lines, four block scalars of five
        // lines and three lines of tags.
        let line = try #require(node["entry38"]?.keyLocation.line)
        #expect(node["entry39"]?.keyLocation.line == line + 1 + 400 + 4 * 5 + 3)
        #expect(node["entry39"]?.value["tags"]?.value.elements?.count == 2)
    }

    @Test func anAliasToAnEarlierPartIsReadWhole() throws {
        // The anchor is in the first part, the alias at the end, in the last.
        let text = Self.document(header: "base: &base {a: 1}\n") + "last: *base\n"
        let result = Self.readBothWays(text)
        let (usedParts, same) = (result.usedParts, Self.same(result))
        #expect(!usedParts)
        #expect(same)
        #expect(try result.parts.get()["last"]?.value["a"]?.value.intValue == 1)
    }

    @Test func aKeyInTwoPartsIsTheWholeReadersError() {
        let result = Self.readBothWays(Self.document() + "entry3: again\n")
        let (usedParts, same) = (result.usedParts, Self.same(result))
        #expect(!usedParts)
        #expect(same)
        #expect(result.parts.errorDescription?.contains("duplicate key \"entry3\"") == true)
    }

    @Test func anErrorInAPartIsTheWholeReadersError() {
        let result = Self.readBothWays(Self.document(middle: "  broken: [1, 2\n"))
        let same = Self.same(result)
        #expect(result.parts.errorDescription != nil)
        #expect(same)
    }

    @Test(arguments: ["---\n", "%YAML 1.2\n---\n", "\u{FEFF}", "? explicit\n: key\n", "\"quoted\": key\n"])
    func documentsThatMayNotBeSplitAreReadWhole(_ header: String) {
        let result = Self.readBothWays(Self.document(header: header))
        let (usedParts, same) = (result.usedParts, Self.same(result))
        #expect(!usedParts)
        #expect(same)
    }

    @Test func aFileWithCarriageReturnsIsReadWhole() {
        let result = Self.readBothWays(Self.document().replacingOccurrences(of: "\n", with: "\r\n"))
        let (usedParts, same) = (result.usedParts, Self.same(result))
        #expect(!usedParts)
        #expect(same)
    }
}

extension Result where Failure == Diagnostic {
    /// The error's text, or `nil` for a value.
    fileprivate var errorDescription: String? {
        guard case .failure(let error) = self else { return nil }
        return error.description
    }
}
