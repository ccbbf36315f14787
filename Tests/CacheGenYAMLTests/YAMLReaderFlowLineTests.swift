import Foundation
import Testing

@testable import CacheGenReading
@testable import CacheGenYAML

/// The one-line flow path (`key: {a: b, c: d}` and `key: [a, b]` read without tokens)
/// must give what the token path gives. A value of the first member of a mapping takes
/// the token path and a value after it the flow path where it can, so each case is read
/// twice: as the first member of its mapping, and after a member `first: 0`.
@Suite struct YAMLReaderFlowLineTests {
    private static func parse(_ text: String) throws(Diagnostic) -> JSONNode {
        try YAMLReader.parse(Data(text.utf8), file: "api.yaml")
    }

    /// A mapping past `DuplicateKeyIndex.scanLimit` members, whose keys take the node path.
    static let manyKeys = (0..<20).map { "k\($0): \($0)" }.joined(separator: "\n")

    /// Collections the flow path reads, and near misses it must leave to the tokens.
    static let values: [String] = [
        "b: {type: string, format: uuid}",
        "b: [id, name, created_at]",
        "b: {minimum: 1, maximum: 1e3, x: true, y: null, z: ~, w: 0x1F}",
        "b: [1, -2, 0x1F, false, Null]",
        "b: {a: x y  z, $ref: /p/q, _u: 2xx}",
        "b: {a: 1}   # comment\nc: [x]",
        "b: {a: b:c}",
        "b: {a:b}",
        "b: {a: 1, }",
        "b: [a, ]",
        "b: {a: 1,\n    c: 2}",
        "b: [a,\n  b]",
        "b: {a: folded\n  text}",
        "b: {a: [1, 2]}",
        "b: [{a: 1}]",
        "b: {a: 'q', c: \"d\"}",
        "b: {}",
        "b: []",
        "b: {a}",
        "b: {a, c: 1}",
        "b: [a: 1]",
        "b: {a:\t1}",
        "b: {a: #x\n  1}",
        "b: {a: 1}\nc:\n  d: {e: f}\n  g: [h]",
        "b: &x {a: 1}\nc: *x",
        "b: !!map {a: 1}",
        "b:   {  a:   1  ,  c:  2  }  ",
        "b: {é: ü, a: ∞}",
        "b:\n  {a: 1}",
        // Keys handed on without a node when they can only be text, and those that cannot.
        "nullable: 1\ntrue: 2\nnull_x: 3\nFalse: 4\nt: 5\nfalsey: 6\n2xx: 7\n/p: 9",
        "b: {nullable: 1, true: 2, f: 3, false: 4, 10: 5, $x: 6}",
        manyKeys,
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

    /// The locations of a collection read by the flow path, its keys and its values.
    @Test func locations() throws {
        let node = try Self.parse("first: 0\nb:  {type: string,  e: x}\nc: [p,  q]")
        let members = try #require(node.members)
        let mapping = try #require(members[1].value.members)
        #expect(members[1].value.location == CacheGenReading.SourceLocation(file: "api.yaml", line: 2, column: 5))
        #expect(mapping.map(\.keyLocation.column) == [6, 21])
        #expect(mapping.map(\.value.location.column) == [12, 24])
        #expect(mapping.map(\.value.location.line) == [2, 2])
        let items = try #require(members[2].value.elements)
        #expect(members[2].value.location == CacheGenReading.SourceLocation(file: "api.yaml", line: 3, column: 4))
        #expect(items.map(\.location.column) == [5, 9])
    }

    /// Errors in or after a collection in a member after the first.
    static let errors: [String] = [
        "b: {a: 1, a: 2}",
        "b: {a: 1, c: 2, a: 3}",
        "b: {a: 1}: c",
        "b: {a: 1}x",
        "b: [a]x",
        "b: {a: 1e999}",
        "b: [1e999]",
        "b: {null: 1}",
        "b: {a: 1}#c",
        "b: {a: 1\nc: 2",
        "b: [a, b",
        "b: {a: 1}}",
        "b: [a]]",
        "b: {a: 1} - x",
        "a: 1\ntrue: 2\ntrue: 3",
        "b: 1\nc: 2\nb: 3",
        manyKeys + "\nk3: again",
        "b: {true: 1, true: 2}",
        "b: 1\nNULL: 2",
    ]

    @Test(arguments: errors)
    func sameErrorAfterAFirstMember(_ text: String) throws {
        let alone = try #require(throws: Diagnostic.self) { try Self.parse(text) }
        let after = try #require(throws: Diagnostic.self) { try Self.parse("first: 0\n" + text) }
        // A place named in a message (`first used at 1:5`) may be a line further down or
        // not (the mapping both readings start at 1:1): compared apart, below and in
        // `duplicateKeyNamesTheFirstUse`.
        let placeless = { (message: String) in message.replacing(/\d+:\d+/, with: "L:C") }
        #expect(placeless(after.message) == placeless(alone.message))
        #expect(after.location.line == alone.location.line + 1)
        #expect(after.location.column == alone.location.column)
    }

    /// A key written twice in a collection read by the flow path names the first one.
    @Test func duplicateKeyNamesTheFirstUse() throws {
        let error = try #require(throws: Diagnostic.self) { try Self.parse("first: 0\nb: {a: 1, c: 2, a: 3}") }
        #expect(error.message == "duplicate key \"a\"; it was first used at 2:5")
        #expect(error.location == CacheGenReading.SourceLocation(file: "api.yaml", line: 2, column: 17))
    }
}
