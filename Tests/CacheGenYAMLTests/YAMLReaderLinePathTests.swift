import Foundation
import Testing

@testable import CacheGenReading
@testable import CacheGenYAML

/// The line path (`key: value` lines of a block mapping read without tokens) must give
/// what the token path gives. The first key of a mapping always takes the token path and
/// the keys after it take the line path where they can, so each case is read twice: as
/// the first member of its mapping, and after a member `first: 0`.
@Suite struct YAMLReaderLinePathTests {
    private static func parse(_ text: String) throws(Diagnostic) -> JSONNode {
        try YAMLReader.parse(Data(text.utf8), file: "api.yaml")
    }

    static let values: [String] = [
        "b: plain text with  spaces",
        "b: 200\nc: -1.5e3\nd: 0x1F\ne: true\nf: ~\ng: null\nh: False",
        "b: 'single ''quoted'''\nc: \"double \\\"quoted\\\" \\u00e9\"",
        "b:\nc:   # nothing\nd: x",
        "b: folded\n  plain text\n\n  with an empty line\nc: 1",
        "b: 'folded   \n  quoted   \n\n  text'\nc: \"x \\\n  y\"",
        "b: x # a comment\nc: y#not a comment",
        "b:\n  nested: 1\n  deeper:\n    - 1\n    - two\nc: [1, {d: e}]",
        "b: &anchor v\nc: *anchor\nd: {e: 1}",
        "$ref: '#/components/x'\n/path/x: 1\n_u: 2\n2xx: 3",
        "b:\t x",
    ]

    @Test(arguments: values)
    func sameValueAfterAFirstMember(_ text: String) throws {
        let alone = try Self.parse(text)
        let after = try Self.parse("first: 0\n" + text)
        let members = try #require(after.members)
        #expect(members.first?.key == "first")
        #expect(YAMLTestSuiteTests.render(JSONNode(value: .object(Array(members.dropFirst())), location: alone.location))
            == YAMLTestSuiteTests.render(alone))
    }

    /// Errors in a member after the first, where both readings are inside the mapping.
    static let errors: [String] = [
        "b: 'x': y",
        "b: x: y",
        "b: \"unterminated",
        "b: .inf",
        "b: 1e999",
        "~: x",
        "null: x",
        "b: x\n---\nc: 1",
        "b: - x",
        "b: x\n\tc: 1",
        "b: |x\n  y",
    ]

    @Test(arguments: errors)
    func sameErrorAfterAFirstMember(_ text: String) throws {
        let alone = try #require(throws: Diagnostic.self) { try Self.parse(text) }
        let after = try #require(throws: Diagnostic.self) { try Self.parse("first: 0\n" + text) }
        #expect(after.message == alone.message)
        #expect(after.location.line == alone.location.line + 1)
        #expect(after.location.column == alone.location.column)
    }

    /// A key at the mapping's indentation with no `: ` on its line (or too far away to
    /// be a key) is left to the token path, which reports it where the key starts.
    @Test(arguments: ["b\nc: 1", "b c\n  d: 1", String(repeating: "k", count: 1030) + ": v"])
    func keyWithoutColonOnItsLine(_ text: String) throws {
        let error = try #require(throws: Diagnostic.self) { try Self.parse("first: 0\n" + text) }
        #expect(error.message == "expected ': ' after this key; a line at the indentation of a mapping must be 'key: value'")
        #expect(error.location == CacheGenReading.SourceLocation(file: "api.yaml", line: 2, column: 1))
    }
}
