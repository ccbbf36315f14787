import Foundation
import Testing

@testable import CacheGenReading
@testable import CacheGenYAML
import GeneratorTestSupport

/// Swift Testing has its own `SourceLocation`; these tests mean the spec's.
private typealias SourceLocation = CacheGenReading.SourceLocation

private let fileName = "api.yaml"

private func parse(_ text: String) throws(Diagnostic) -> JSONNode {
    try YAMLReader.parse(Data(text.utf8), file: fileName)
}

/// The value as compact JSON, so expectations read like the document's meaning.
private func json(_ text: String) throws -> String {
    YAMLTestSuiteTests.render(try parse(text))
}

private func location(_ line: Int, _ column: Int) -> SourceLocation {
    SourceLocation(file: fileName, line: line, column: column)
}

/// One input outside the reader's subset, or invalid, with the exact error it must produce:
/// the same shape as the JSON reader's cases.
typealias YAMLErrorCase = SyntaxErrorCase

@Suite struct YAMLReaderTests {
    // MARK: - Values

    @Test func blockAndFlowCollections() throws {
        let text = """
            # An API description
            openapi: 3.0.3
            info: {title: "Pets", version: '1.0'}
            tags:
              - name: pets
              - {name: store}
            required: [id, name]
            empty: []
            none:
            """
        let value = try json(text)
        #expect(
            value
                == #"{"openapi": "3.0.3", "info": {"title": "Pets", "version": "1.0"}, "tags": [{"name": "pets"}, "#
                + #"{"name": "store"}], "required": ["id", "name"], "empty": [], "none": null}"#)
    }

    /// Twilio's shape: a long key written as `? key`, its value after `: ` on the next line,
    /// a mapping that starts on that line; and explicit keys in flow collections.
    @Test func explicitKeys() throws {
        let text = """
            schemas:
              plain:
                type: string
              ? api.v2010.account.incoming_phone_number.incoming_phone_number_assigned_add_on
              : type: object
                properties:
                  sid:
                    type: string
              ? no.value
              ? "quoted key"
              :
                - a
              after: 1
            flow: { ? a : b, ? c, d: e }
            pairs: [ ? f : g ]
            """
        let value = try json(text)
        #expect(
            value
                == #"{"schemas": {"plain": {"type": "string"}, "api.v2010.account.incoming_phone_number.incoming_phone_number_assigned_add_on": "#
                + #"{"type": "object", "properties": {"sid": {"type": "string"}}}, "no.value": null, "quoted key": ["a"], "after": 1}, "#
                + #""flow": {"a": "b", "c": null, "d": "e"}, "pairs": [{"f": "g"}]}"#)
        let root = try parse(text)
        let key = try #require(root["schemas"]?.value.members?[1])
        #expect(key.keyLocation == location(4, 5))
        #expect(key.value.location == location(5, 5))
    }

    @Test func indentlessSequenceAsAValue() throws {
        #expect(try json("a:\n- 1\n- 2\nb: x") == #"{"a": [1, 2], "b": "x"}"#)
    }

    @Test func coreSchemaResolvesPlainScalarsOnly() throws {
        let text = """
            - null
            - ~
            - true
            - False
            - 42
            - -17
            - +12
            - 0o17
            - 0x1F
            - 1.5
            - .5
            - 1e3
            - yes
            - 2024-01-01
            - '42'
            - "true"
            - !!str 42
            - !!float 7
            - 012
            """
        let value = try json(text)
        #expect(
            value
                == #"[null, null, true, false, 42, -17, 12, 15, 31, 1.5, 0.5, 1e3, "yes", "2024-01-01", "42", "#
                + #""true", "42", 7, 12]"#)
    }

    @Test func numbersKeepJSONStyleLiterals() throws {
        let node = try parse("[0x1F, +.5, 1., -0, 1E+3, 007]")
        let texts = (node.elements ?? []).compactMap(\.numberText)
        #expect(texts == ["31", "0.5", "1.0", "0", "1e+3", "7"])
    }

    @Test func quotedScalarsAndEscapes() throws {
        let text = #"""
            a: "tab\tnew\nline \u00e9 \x41 \U0001F600 \"q\" \\ \/ \_"
            b: 'it''s # not a comment'
            c: "folded
              line

              para"
            d: "joined\
              here"
            """#
        let value = try json(text)
        #expect(
            value
                == #"{"a": "tab\tnew\nline é A 😀 \"q\" \\ / \#u{A0}", "b": "it's # not a comment", "#
                + #""c": "folded line\npara", "d": "joinedhere"}"#)
    }

    @Test func plainScalarsFoldAndStopAtComments() throws {
        let text = """
            description: This text
              continues here

              and here # a comment
            url: http://example.com/a#b
            """
        let value = try json(text)
        #expect(value == #"{"description": "This text continues here\nand here", "url": "http://example.com/a#b"}"#)
    }

    @Test func blockScalarsWithChompingAndIndentation() throws {
        let text = """
            literal: |
              line 1
                indented

            folded: >
              one
              two

              three
            strip: |-
              text

            keep: |+
              text

            explicit: |2
                four spaces
            last: end
            """
        let value = try json(text)
        #expect(
            value
                == #"{"literal": "line 1\n  indented\n", "folded": "one two\nthree\n", "strip": "text", "#
                + #""keep": "text\n\n", "explicit": "  four spaces\n", "last": "end"}"#)
    }

    @Test func anchorsAliasesAndMergeKeys() throws {
        let text = """
            base: &base
              type: object
              nullable: true
            copy: *base
            merged:
              <<: *base
              type: string
            both:
              <<: [*base, {extra: 1}]
            """
        let value = try json(text)
        #expect(
            value
                == #"{"base": {"type": "object", "nullable": true}, "copy": {"type": "object", "nullable": true}, "#
                + #""merged": {"nullable": true, "type": "string"}, "#
                + #""both": {"type": "object", "nullable": true, "extra": 1}}"#)
    }

    @Test func documentMarkersAndDirective() throws {
        #expect(try json("%YAML 1.2\n---\na: 1\n...\n# trailing comment\n") == #"{"a": 1}"#)
        #expect(try json("--- |\n  text\n") == #""text\n""#)
        #expect(try json("---\n") == "null")
    }

    @Test func numericAndBooleanKeysBecomeText() throws {
        let node = try parse("responses:\n  200: {description: OK}\n  0x10: hex\n  true: yes")
        #expect(node["responses"]?.value.members?.map(\.key) == ["200", "16", "true"])
    }

    @Test func keysAndValuesAreLocated() throws {
        let node = try parse("# comment\nรัก:\n  - \"é\"\n  - {a: [1, *x]}\n".replacingOccurrences(of: ", *x", with: ""))
        let member = try #require(node.members?.first)
        #expect(member.keyLocation == location(2, 1))
        #expect(member.value.location == location(3, 3))
        let items = member.value.elements ?? []
        #expect(items.map(\.location) == [location(3, 5), location(4, 5)])
        let inner = try #require(items[1]["a"])
        #expect(inner.keyLocation == location(4, 6))
        #expect(inner.value.location == location(4, 9))
        #expect(inner.value.elements?.first?.location == location(4, 10))
    }

    @Test func byteOrderMarkAndCRLF() throws {
        let node = try YAMLReader.parse(Data([0xEF, 0xBB, 0xBF] + Array("a: 1\r\nb: |\r\n  x\r\n".utf8)), file: fileName)
        #expect(YAMLTestSuiteTests.render(node) == #"{"a": 1, "b": "x\n"}"#)
        #expect(node["b"]?.keyLocation == location(2, 1))
    }

    // MARK: - Errors

    static let errorCases: [YAMLErrorCase] = [
        YAMLErrorCase(
            "duplicate key", "a: 1\nb: 2\na: 3\n", 3, 1, #"duplicate key "a"; it was first used at 1:1"#),
        YAMLErrorCase(
            "duplicate key in a flow mapping", "{a: 1, a: 2}", 1, 8, #"duplicate key "a"; it was first used at 1:2"#),
        YAMLErrorCase("tab indentation", "a:\n\tb: 1\n", 2, 1, "a tab indents this line; indent with spaces"),
        YAMLErrorCase(
            "unsupported tag", "a: !custom x\n", 1, 4,
            "the tag '!custom' is not supported; only !!str, !!int, !!float, !!bool, !!null, !!map, !!seq and ! are"),
        YAMLErrorCase(
            "tag that does not fit", "a: !!int abc\n", 1, 10,
            #""abc" is not a valid !!int value; fix the value or remove the tag"#),
        YAMLErrorCase(
            "value without a key", "a: 1\n: b\n", 2, 1,
            "':' with no key before it on the same line; write 'key: value' on one line"),
        YAMLErrorCase(
            "explicit key after a value on its line", "a: ? b\n", 1, 4,
            "an explicit key ('? ') is not allowed here; start it on a new line"),
        YAMLErrorCase("explicit null key", "?\n: b\n", 1, 1, "a key cannot be null (empty, '~' or 'null'); write a key, or quote it to use it as text"),
        YAMLErrorCase(
            "second document", "a: 1\n---\nb: 2\n", 2, 1,
            "a second document starts here; a file may hold only one YAML document"),
        YAMLErrorCase(
            "content after the document end", "a: 1\n...\nb: 2\n", 3, 1,
            "content after the end of the document ('...'); a file may hold only one YAML document"),
        YAMLErrorCase(
            "infinity", "a: .inf\n", 1, 4,
            #"".inf" is not a number JSON can hold (infinity or NaN); quote it to use it as text"#),
        YAMLErrorCase(
            "unknown alias", "a: *base\n", 1, 4, "unknown alias '*base'; define the anchor '&base' before using it"),
        YAMLErrorCase(
            "missing colon", "a: 1\nb\n", 2, 1,
            "expected ': ' after this key; a line at the indentation of a mapping must be 'key: value'"),
        YAMLErrorCase(
            "collection as a key", "[a, b]: c\n", 1, 1,
            "a mapping or sequence cannot be a key; keys must be scalars such as text or numbers"),
        YAMLErrorCase(
            "null key", "~: a\n", 1, 1,
            "a key cannot be null (empty, '~' or 'null'); write a key, or quote it to use it as text"),
        YAMLErrorCase(
            "colon inside a plain value", "a: b: c\n", 1, 5,
            "':' is not allowed here; quote the value if it contains ': '"),
        YAMLErrorCase(
            "wrong indentation", "a:\n    b: 1\n  c: 2\n", 3, 3,
            "expected a key of the mapping that starts at 1:1, found a key; check the indentation"),
        YAMLErrorCase(
            "sequence item at the wrong column", "key:\n  - a\n - b\n", 3, 2,
            "expected a key of the mapping that starts at 1:1, found '- '; check the indentation"),
        YAMLErrorCase("unterminated string", "a: \"abc\n", 1, 4, #"unterminated string; add the closing '"'"#),
        YAMLErrorCase(
            "invalid escape", #"a: "x\qy""#, 1, 6,
            #"invalid escape '\q' in a double-quoted string; valid escapes are \0 \a \b \t \n \v \f \r \e \" \/ \\ \N \_ \L \P \xXX \uXXXX \UXXXXXXXX"#
        ),
        YAMLErrorCase("empty file", "# nothing\n", 2, 1, "the file holds no YAML document; expected a value"),
        YAMLErrorCase(
            "flow sequence not closed", "a: [1, 2\n", 2, 1,
            "expected ',' or ']' after an item of the sequence that starts at 1:4, found the end of the file"),
        YAMLErrorCase(
            "comment without a space", "a: \"x\"# note\n", 1, 7,
            "a comment must be separated from what comes before it by a space"),
        YAMLErrorCase(
            "tab in a block scalar's indentation", "a: |\n\tx\n", 2, 1,
            "a tab in the indentation of a block scalar; indent with spaces"),
        YAMLErrorCase(
            "column counts characters", "\"ééé\": *x\n", 1, 8, "unknown alias '*x'; define the anchor '&x' before using it"),
        YAMLErrorCase(
            "invalid UTF-8", bytes: Array("a: ".utf8) + [0xFF], 1, 4, "invalid UTF-8 byte 0xFF; save the file as UTF-8"),
        YAMLErrorCase(
            "control character", bytes: Array("a: x".utf8) + [0x01], 1, 5,
            #"control character U+0001 in the file; YAML allows only tabs and line breaks (write others as escapes such as \x01 in "…")"#
        ),
        YAMLErrorCase("UTF-16", bytes: [0xFF, 0xFE, 0x61, 0x00], 1, 1, "the file is UTF-16 encoded; save it as UTF-8"),
    ]

    @Test(arguments: errorCases)
    func rejectsWithExactMessage(_ errorCase: YAMLErrorCase) {
        do {
            let node = try YAMLReader.parse(Data(errorCase.bytes), file: fileName)
            Issue.record("\(errorCase.name): read as \(YAMLTestSuiteTests.render(node))")
        } catch {
            #expect(error.message == errorCase.message, "\(errorCase.name)")
            #expect(error.location == location(errorCase.line, errorCase.column), "\(errorCase.name)")
            #expect(error.severity == .error)
            #expect(error.description.hasPrefix("\(fileName):\(errorCase.line):\(errorCase.column): error: "))
        }
    }

    @Test func aliasBombIsALocatedError() {
        var lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        for level in 1...9 {
            let previous = "*a\(level - 1)"
            let items = Array(repeating: previous, count: 10).joined(separator: ", ")
            lines.append("a\(level): &a\(level) [\(items)]")
        }
        #expect {
            try parse(lines.joined(separator: "\n"))
        } throws: { error in
            guard let diagnostic = error as? Diagnostic else { return false }
            return diagnostic.message
                == "aliases expand to more than 1000000 values; the document repeats itself too much to read safely"
                && diagnostic.location == location(6, 45)
        }
    }

    @Test(arguments: [
        (String(repeating: "[", count: 600), 1, 513),
        (String(repeating: "{a: ", count: 600), 1, 2049),
        ((0..<600).map { String(repeating: " ", count: $0) + "k:" }.joined(separator: "\n"), 513, 513),
        (String(repeating: "- ", count: 600) + "x", 1, 1025),
    ])
    func deepNestingIsALocatedError(text: String, line: Int, column: Int) {
        do {
            _ = try parse(text)
            Issue.record("deep input was accepted")
        } catch {
            #expect(error.message == "nesting is too deep; mappings and sequences may nest at most 512 levels")
            #expect(error.location == location(line, column))
        }
    }

    @Test func deepNestingUpToTheLimitReads() throws {
        let text = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        var node = try parse(text)
        var depth = 1
        while let first = node.elements?.first {
            node = first
            depth += 1
        }
        #expect(depth == 512)
    }
}
