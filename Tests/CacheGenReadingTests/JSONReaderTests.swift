import Foundation
import Testing

@testable import CacheGenReading
import GeneratorTestSupport

/// Swift Testing has its own `SourceLocation`; these tests mean the spec's.
private typealias SourceLocation = CacheGenReading.SourceLocation

// MARK: - Helpers

private let fileName = "spec.json"

private func parse(_ text: String) throws(Diagnostic) -> JSONNode {
    try JSONReader.parse(Data(text.utf8), file: fileName)
}

private func parse(bytes: [UInt8]) throws(Diagnostic) -> JSONNode {
    try JSONReader.parse(Data(bytes), file: fileName)
}

/// The diagnostic parsing `bytes` throws, or `nil` when it parses.
private func diagnostic(_ bytes: [UInt8]) -> Diagnostic? {
    do {
        _ = try parse(bytes: bytes)
        return nil
    } catch {
        return error
    }
}

private func location(_ line: Int, _ column: Int) -> SourceLocation {
    SourceLocation(file: fileName, line: line, column: column)
}

/// A JSON case is checked against the JSON reader.
extension SyntaxErrorCase {
    /// Parses the bytes and expects exactly this error.
    func check() {
        guard let error = diagnostic(bytes) else {
            Issue.record("\(name): parsed without error")
            return
        }
        #expect(error.severity == .error, "\(name)")
        #expect(error.message == message, "\(name)")
        #expect(error.location == location(line, column), "\(name)")
    }
}

// MARK: - Valid input

@Suite("JSONReader: valid input")
struct JSONReaderValidTests {
    @Test func keepsKeyOrderAsWritten() throws {
        let root = try parse(#"{"zeta": 1, "alpha": 2, "mid": 3, "beta": {"y": 1, "x": 2}}"#)
        #expect(root.members?.map(\.key) == ["zeta", "alpha", "mid", "beta"])
        #expect(root["beta"]?.value.members?.map(\.key) == ["y", "x"])
    }

    @Test func keepsOrderInLargeObjects() throws {
        let keys = (0..<200).map { "key\(199 - $0)" }
        let text = "{" + keys.map { "\"\($0)\": 0" }.joined(separator: ", ") + "}"
        #expect(try parse(text).members?.map(\.key) == keys)
    }

    @Test func locatesKeysAndNestedValues() throws {
        let text = """
            {
              "name": "Accounts",
              "list": [1, {"deep": [true, null]}],
            \t"tab": false
            }
            """
        let root = try parse(text)
        #expect(root.location == location(1, 1))
        let name = try #require(root["name"])
        #expect(name.keyLocation == location(2, 3))
        #expect(name.value.location == location(2, 11))
        let list = try #require(root["list"])
        #expect(list.keyLocation == location(3, 3))
        #expect(list.value.location == location(3, 11))
        let elements = try #require(list.value.elements)
        #expect(elements[0].location == location(3, 12))
        #expect(elements[1].location == location(3, 15))
        let deep = try #require(elements[1]["deep"])
        #expect(deep.keyLocation == location(3, 16))
        #expect(deep.value.location == location(3, 24))
        #expect(deep.value.elements?.map(\.location) == [location(3, 25), location(3, 31)])
        let tab = try #require(root["tab"])
        #expect(tab.keyLocation == location(4, 2))
        #expect(tab.value.location == location(4, 9))
    }

    @Test func countsColumnsInUnicodeScalars() throws {
        // "é" is 2 bytes, "😀" 4 bytes; both are one column. A tab is one column.
        let root = try parse("{\"é😀\": \"ü\", \"b\":\t2}")
        #expect(root["é😀"]?.value.location == location(1, 8))
        #expect(root["b"]?.keyLocation == location(1, 13))
        #expect(root["b"]?.value.location == location(1, 18))
    }

    @Test func locatesValuesOnOneLongLine() throws {
        let count = 5_000
        let text = "[" + (0..<count).map { _ in "\"é\"" }.joined(separator: ",") + "]"
        let elements = try #require(try parse(text).elements)
        #expect(elements.count == count)
        // Each element is `"é",`: four columns.
        #expect(elements.last?.location == location(1, 2 + 4 * (count - 1)))
    }

    @Test func treatsCRLFAsOneLineEnd() throws {
        let root = try parse("{\r\n  \"a\": 1,\r\n\r\n  \"b\": [\r\n    true\r\n  ]\r\n}\r\n")
        #expect(root["a"]?.keyLocation == location(2, 3))
        #expect(root["b"]?.keyLocation == location(4, 3))
        #expect(root["b"]?.value.elements?.first?.location == location(5, 5))
    }

    @Test func skipsByteOrderMark() throws {
        let root = try parse(bytes: [0xEF, 0xBB, 0xBF] + Array(#"{"a": 1}"#.utf8))
        #expect(root.location == location(1, 1))
        #expect(root["a"]?.keyLocation == location(1, 2))
        #expect(root["a"]?.value.intValue == 1)
    }

    @Test func decodesEveryEscape() throws {
        let root = try parse(#"["\" \\ \/ \b \f \n \r \t", "\u00e9\u00C9\u0000\u001F", "plain \u2603 text"]"#)
        #expect(
            root.elements?.compactMap(\.stringValue) == [
                "\" \\ / \u{08} \u{0C} \n \r \t", "éÉ\u{0}\u{1F}", "plain ☃ text",
            ])
    }

    @Test func decodesSurrogatePairs() throws {
        let root = try parse(#"["\uD83D\uDE00", "a\ud83d\ude00b", "\uDBFF\uDFFF", "\uD800\uDC00"]"#)
        #expect(root.elements?.compactMap(\.stringValue) == ["😀", "a😀b", "\u{10FFFF}", "\u{10000}"])
    }

    @Test func keepsUnicodeTextAsWritten() throws {
        let root = try parse(#"{"naïve": "日本語 😀 e\u0301"}"#)
        #expect(root["naïve"]?.value.stringValue == "日本語 😀 e\u{301}")
    }

    @Test(arguments: [
        ("0", 0.0), ("-0", -0.0), ("600", 600), ("-42", -42), ("1.5", 1.5), ("1.5e3", 1500), ("1E-2", 0.01),
        ("2e+2", 200), ("-12.75", -12.75), ("0.1", 0.1), ("123456789012345678", Double(123_456_789_012_345_678 as Int)),
        ("123456789012345678901234567890", 1.2345678901234568e29), ("1e308", 1e308),
        ("5e-324", Double.leastNonzeroMagnitude),
        ("1e-400", 0),
    ])
    func readsNumbersAndKeepsTheirText(text: String, expected: Double) throws {
        let node = try parse(" \(text) ")
        guard case .number(let value, let literal) = node.value else {
            Issue.record("\(text) is \(node.kindName)")
            return
        }
        #expect(value == expected)
        #expect(value.sign == expected.sign)
        #expect(literal == text)
        #expect(node.location == location(1, 2))
    }

    @Test func roundsIntegersLikeTheStandardLibrary() throws {
        var random = SplitMix64(state: 42)
        for _ in 0..<2_000 {
            let digits = Int.random(in: 1...20, using: &random)
            var text = String(Int.random(in: 1...9, using: &random))
            for _ in 1..<digits { text += String(Int.random(in: 0...9, using: &random)) }
            if Bool.random(using: &random) { text = "-" + text }
            #expect(try parse(text).doubleValue == Double(text), "\(text)")
        }
    }

    @Test func readsScalarsAtTopLevel() throws {
        #expect(try parse("true").value == .bool(true))
        #expect(try parse(" false ").value == .bool(false))
        #expect(try parse("\nnull").value == .null)
        #expect(try parse("\nnull").location == location(2, 1))
        #expect(try parse(#""text""#).stringValue == "text")
        #expect(try parse("[]").value == .array([]))
        #expect(try parse("{ \n }").value == .object([]))
        #expect(try parse("[[], {}, [[]]]").elements?.count == 3)
    }

    @Test func acceptsTheMaximumDepth() throws {
        let depth = JSONReader.maximumDepth
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var node = try parse(text)
        var levels = 1
        while let child = node.elements?.first {
            node = child
            levels += 1
        }
        #expect(levels == depth)
    }

    @Test func accessorsAnswerForTheirKindOnly() throws {
        let root = try parse(#"{"s": "x", "n": 600, "f": 1.5, "e": 6e2, "b": true, "z": null, "a": [1], "o": {}}"#)
        #expect(root.kindName == "an object")
        #expect(root["s"]?.value.kindName == "a string")
        #expect(root["n"]?.value.kindName == "a number")
        #expect(root["b"]?.value.kindName == "true or false")
        #expect(root["z"]?.value.kindName == "null")
        #expect(root["a"]?.value.kindName == "an array")
        #expect(root["s"]?.value.stringValue == "x")
        #expect(root["n"]?.value.stringValue == nil)
        #expect(root["n"]?.value.intValue == 600)
        #expect(root["n"]?.value.numberText == "600")
        #expect(root["f"]?.value.intValue == nil)
        #expect(root["f"]?.value.doubleValue == 1.5)
        #expect(root["e"]?.value.intValue == 600)
        #expect(root["e"]?.value.numberText == "6e2")
        #expect(root["b"]?.value.boolValue == true)
        #expect(root["z"]?.value.isNull == true)
        #expect(root["a"]?.value.elements?.count == 1)
        #expect(root["o"]?.value.members?.isEmpty == true)
        #expect(root["missing"] == nil)
        #expect(root["a"]?.value["s"] == nil)
        #expect(root.elements == nil)
    }
}

// MARK: - Errors

@Suite("JSONReader: errors")
struct JSONReaderErrorTests {
    static let validEscapes = #"valid escapes are \" \\ \/ \b \f \n \r \t \uXXXX"#

    @Test(arguments: [
        SyntaxErrorCase("empty file", "", 1, 1, "the file is empty; expected a JSON value"),
        SyntaxErrorCase("only whitespace", " \n\t\r\n ", 1, 1, "the file is empty; expected a JSON value"),
        SyntaxErrorCase("only a BOM", bytes: [0xEF, 0xBB, 0xBF], 1, 1, "the file is empty; expected a JSON value"),
        SyntaxErrorCase(
            "UTF-16 file", bytes: [0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00], 1, 1,
            "the file is UTF-16 encoded; save it as UTF-8"),
    ])
    func emptyOrWronglyEncodedFile(_ testCase: SyntaxErrorCase) {
        testCase.check()
    }

    @Test(arguments: [
        SyntaxErrorCase("at end of file", "{\n  \"name\": \"Acc", 2, 11, #"unterminated string; add a closing '"'"#),
        SyntaxErrorCase("key at end of file", "{\"na", 1, 2, #"unterminated string; add a closing '"'"#),
        SyntaxErrorCase("after a backslash", #"["ab\"#, 1, 2, #"unterminated string; add a closing '"'"#),
        SyntaxErrorCase("inside \\u", #"["\u00"#, 1, 2, #"unterminated string; add a closing '"'"#),
        SyntaxErrorCase(
            "at end of line", "{\n  \"name\": \"Acc,\n  \"b\": 1\n}", 2, 11,
            #"unterminated string; add a closing '"' before the end of the line (write line breaks in strings as \n)"#
        ),
        SyntaxErrorCase(
            "at CRLF", "[\"abc\r\n\"]", 1, 2,
            #"unterminated string; add a closing '"' before the end of the line (write line breaks in strings as \n)"#
        ),
    ])
    func unterminatedString(_ testCase: SyntaxErrorCase) {
        testCase.check()
    }

    @Test(arguments: [
        SyntaxErrorCase("tab", "[\"a\tb\"]", 1, 4, #"control character U+0009 in string; write it as \t"#),
        SyntaxErrorCase("NUL", "[\"a\u{0}b\"]", 1, 4, #"control character U+0000 in string; write it as \u0000"#),
        SyntaxErrorCase(
            "unit separator", "{\"\u{1F}\": 1}", 1, 3, #"control character U+001F in string; write it as \u001F"#),
        SyntaxErrorCase("form feed", "[\"\u{0C}\"]", 1, 3, #"control character U+000C in string; write it as \f"#),
    ])
    func controlCharacterInString(_ testCase: SyntaxErrorCase) {
        testCase.check()
    }

    @Test(arguments: [
        SyntaxErrorCase("\\x", #"{"a": "1\x2"}"#, 1, 9, #"invalid escape '\x' in string; "# + validEscapes),
        SyntaxErrorCase("\\'", #"["it\'s"]"#, 1, 5, #"invalid escape '\'' in string; "# + validEscapes),
        SyntaxErrorCase("\\U", #"["\U0041"]"#, 1, 3, #"invalid escape '\U' in string; "# + validEscapes),
        SyntaxErrorCase("\\é", #"["\é"]"#, 1, 3, #"invalid escape '\é' in string; "# + validEscapes),
        SyntaxErrorCase(
            "backslash at line end", "[\"a\\\nb\"]", 1, 4,
            #"invalid escape '\' followed by U+000A in string; "# + validEscapes),
        SyntaxErrorCase(
            "short \\u", #"["\u12"]"#, 1, 3,
            #"invalid escape '\u12' in string; write \u followed by four hexadecimal digits, as in \u00E9"#),
        SyntaxErrorCase(
            "non-hex \\u", #"["ab\u12G4"]"#, 1, 5,
            #"invalid escape '\u12G4' in string; write \u followed by four hexadecimal digits, as in \u00E9"#),
    ])
    func invalidEscape(_ testCase: SyntaxErrorCase) {
        testCase.check()
    }

    @Test(arguments: [
        SyntaxErrorCase(
            "high alone", #"["x\uD83D"]"#, 1, 4,
            #"lone surrogate '\uD83D' in string; write a pair such as \uD83D\uDE00, or the character itself"#),
        SyntaxErrorCase(
            "high then text", #"["\ud83dxyzxyz"]"#, 1, 3,
            #"lone surrogate '\ud83d' in string; write a pair such as \uD83D\uDE00, or the character itself"#),
        SyntaxErrorCase(
            "high then non-low", #"["\uD83D\u0041"]"#, 1, 3,
            #"lone surrogate '\uD83D' in string; write a pair such as \uD83D\uDE00, or the character itself"#),
        SyntaxErrorCase(
            "two highs", #"["\uD83D\uD83D"]"#, 1, 3,
            #"lone surrogate '\uD83D' in string; write a pair such as \uD83D\uDE00, or the character itself"#),
        SyntaxErrorCase(
            "low alone", #"["\uDE00\uD83D"]"#, 1, 3,
            #"lone surrogate '\uDE00' in string; write a pair such as \uD83D\uDE00, or the character itself"#),
        SyntaxErrorCase(
            "high then bad escape", #"["\uD83D\uZZZZ"]"#, 1, 9,
            #"invalid escape '\uZZZZ' in string; write \u followed by four hexadecimal digits, as in \u00E9"#),
    ])
    func loneSurrogate(_ testCase: SyntaxErrorCase) {
        testCase.check()
    }

    @Test(arguments: [
        SyntaxErrorCase(
            "0xFF in string", bytes: [0x5B, 0x22, 0x61, 0xFF, 0x22, 0x5D], 1, 4,
            "invalid UTF-8 byte 0xFF; save the file as UTF-8"),
        SyntaxErrorCase(
            "Latin-1 é after a line", bytes: Array("{\n  \"caf".utf8) + [0xE9, 0x22, 0x3A, 0x31, 0x7D], 2, 7,
            "invalid UTF-8 byte 0xE9; save the file as UTF-8"),
        SyntaxErrorCase(
            "stray continuation after é", bytes: [0x22, 0xC3, 0xA9, 0x80, 0x22], 1, 3,
            "invalid UTF-8 byte 0x80; save the file as UTF-8"),
        SyntaxErrorCase(
            "overlong /", bytes: [0x22, 0xC0, 0xAF, 0x22], 1, 2, "invalid UTF-8 byte 0xC0; save the file as UTF-8"),
        SyntaxErrorCase(
            "encoded surrogate", bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], 1, 2,
            "invalid UTF-8 byte 0xED; save the file as UTF-8"),
        SyntaxErrorCase(
            "above U+10FFFF", bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1, 2,
            "invalid UTF-8 byte 0xF4; save the file as UTF-8"),
        SyntaxErrorCase(
            "truncated sequence at end of file", bytes: [0x22, 0x61, 0xE2, 0x82], 1, 3,
            "invalid UTF-8 byte 0xE2; save the file as UTF-8"),
        SyntaxErrorCase(
            "outside a string", bytes: [0x5B, 0x31, 0x2C, 0x20, 0xC3, 0x5D], 1, 5,
            "invalid UTF-8 byte 0xC3; save the file as UTF-8"),
        SyntaxErrorCase(
            "escaped", bytes: [0x22, 0x5C, 0xFE, 0x22], 1, 3, "invalid UTF-8 byte 0xFE; save the file as UTF-8"),
    ])
    func invalidUTF8(_ testCase: SyntaxErrorCase) {
        testCase.check()
    }

    @Test(arguments: [
        SyntaxErrorCase("object", "{\n  \"a\": 1,\n  \"b\": 2,\n}", 3, 9, "trailing comma before '}'; remove it"),
        SyntaxErrorCase("array", "[1, 2, ]", 1, 6, "trailing comma before ']'; remove it"),
        SyntaxErrorCase("nested array on next line", "{\"a\": [1,\n]}", 1, 9, "trailing comma before ']'; remove it"),
    ])
    func trailingComma(_ testCase: SyntaxErrorCase) {
        testCase.check()
    }

    @Test(arguments: [
        SyntaxErrorCase(
            "object, next line", "{\n  \"a\": 1\n  \"b\": 2\n}", 3, 3, "expected ',' or '}' after object member"),
        SyntaxErrorCase("object, same line", #"{"a": {} "b": 2}"#, 1, 10, "expected ',' or '}' after object member"),
        SyntaxErrorCase("array", "[1 2]", 1, 4, "expected ',' or ']' after array element"),
        SyntaxErrorCase("array of objects", "[{}\n {}]", 2, 2, "expected ',' or ']' after array element"),
        SyntaxErrorCase(
            "semicolon", #"{"a": 1; "b": 2}"#, 1, 8, "unexpected character ';'; expected ',' or '}' after object member"
        ),
    ])
    func missingComma(_ testCase: SyntaxErrorCase) {
        testCase.check()
    }

    @Test(arguments: [
        SyntaxErrorCase("value instead", #"{"a" 1}"#, 1, 6, #"expected ':' after key "a""#),
        SyntaxErrorCase("equals sign", #"{"a" = 1}"#, 1, 6, #"unexpected character '='; expected ':' after key "a""#),
        SyntaxErrorCase("key quoted in message", #"{"say \"hi\"" 1}"#, 1, 15, #"expected ':' after key "say \"hi\"""#),
    ])
    func missingColon(_ testCase: SyntaxErrorCase) {
        testCase.check()
    }

    @Test(arguments: [
        SyntaxErrorCase(
            "first key", "{name: \"x\"}", 1, 2,
            #"unquoted key 'name'; object keys must be in double quotes, as in "name""#),
        SyntaxErrorCase(
            "later key", "{\"a\": 1,\n  ttl_2: 5}", 2, 3,
            #"unquoted key 'ttl_2'; object keys must be in double quotes, as in "ttl_2""#),
        SyntaxErrorCase(
            "hyphenated key", "{\"a\": 1, per-page: 5}", 1, 10,
            #"unquoted key 'per-page'; object keys must be in double quotes, as in "per-page""#),
        SyntaxErrorCase("comma instead of key", "{,}", 1, 2, "expected a key in double quotes or '}'"),
        SyntaxErrorCase("number after comma", #"{"a": 1, [}"#, 1, 10, "expected a key in double quotes"),
    ])
    func unquotedOrMissingKey(_ testCase: SyntaxErrorCase) {
        testCase.check()
    }

    @Test(arguments: [
        SyntaxErrorCase("key", "{'a': 1}", 1, 2, "single-quoted strings are not allowed in JSON; use double quotes"),
        SyntaxErrorCase(
            "value", "{\"a\": 'x'}", 1, 7, "single-quoted strings are not allowed in JSON; use double quotes"),
        SyntaxErrorCase(
            "element", "[1, 'x']", 1, 5, "single-quoted strings are not allowed in JSON; use double quotes"),
        SyntaxErrorCase(
            "curly quotes", "{“a”: 1}", 1, 2, #"curly quotes are not allowed in JSON; use straight double quotes (")"#),
        SyntaxErrorCase(
            "curly single quote value", "[‘a’]", 1, 2,
            #"curly quotes are not allowed in JSON; use straight double quotes (")"#),
    ])
    func wrongQuotes(_ testCase: SyntaxErrorCase) {
        testCase.check()
    }

    @Test(arguments: [
        SyntaxErrorCase(
            "line comment", "{\n  // the version\n  \"v\": 1\n}", 2, 3,
            "comments are not allowed in JSON; remove the comment"),
        SyntaxErrorCase(
            "block comment", "[1, /* two */ 2]", 1, 5, "comments are not allowed in JSON; remove the comment"),
        SyntaxErrorCase(
            "after a member", "{\"a\": 1 // note\n}", 1, 9, "comments are not allowed in JSON; remove the comment"),
        SyntaxErrorCase("after the value", "{}\n// end", 2, 1, "comments are not allowed in JSON; remove the comment"),
        SyntaxErrorCase(
            "before the value", "/* spec */ {}", 1, 1, "comments are not allowed in JSON; remove the comment"),
        SyntaxErrorCase(
            "before a colon", "{\"a\" /* x */ : 1}", 1, 6, "comments are not allowed in JSON; remove the comment"),
    ])
    func comments(_ testCase: SyntaxErrorCase) {
        testCase.check()
    }

    @Test(arguments: [
        SyntaxErrorCase(
            "open array", "{\"a\": [1, 2", 1, 12,
            "unexpected end of file; expected ']' to close the array that starts at 1:7"),
        SyntaxErrorCase(
            "open object", "{\n  \"a\": {\"b\": 1}\n", 3, 1,
            "unexpected end of file; expected '}' to close the object that starts at 1:1"),
        SyntaxErrorCase("after {", "{", 1, 2, "unexpected end of file; expected a key in double quotes or '}'"),
        SyntaxErrorCase(
            "after comma in object", "{\"a\": 1,", 1, 9, "unexpected end of file; expected a key in double quotes"),
        SyntaxErrorCase("after key", "{\"a\"", 1, 5, #"unexpected end of file; expected ':' after key "a""#),
        SyntaxErrorCase("after colon", "{\"a\":\n", 2, 1, #"unexpected end of file; expected a value for key "a""#),
        SyntaxErrorCase("after [", "[", 1, 2, "unexpected end of file; expected a value or ']'"),
        SyntaxErrorCase("after comma in array", "[1,", 1, 4, "unexpected end of file; expected a value"),
        SyntaxErrorCase("in true", "[tr", 1, 2, "unexpected end of file; expected 'true'"),
        SyntaxErrorCase("in null", "{\"a\": n", 1, 7, "unexpected end of file; expected 'null'"),
    ])
    func truncatedFile(_ testCase: SyntaxErrorCase) {
        testCase.check()
    }

    @Test(arguments: [
        SyntaxErrorCase(
            "small object", "{\n  \"ttl\": 1,\n  \"ttl\": 2\n}", 3, 3, #"duplicate key "ttl"; it was first used at 2:3"#
        ),
        SyntaxErrorCase(
            "nested object", #"{"a": {"x": 1, "y": 2, "x": 3}}"#, 1, 24, #"duplicate key "x"; it was first used at 1:8"#
        ),
        SyntaxErrorCase(
            "same key in sibling objects is fine, then a duplicate", #"[{"x": 1}, {"x": 1, "x": 2}]"#, 1, 21,
            #"duplicate key "x"; it was first used at 1:13"#),
        SyntaxErrorCase(
            "escaped spelling of the same key", #"{"é": 1, "\u00e9": 2}"#, 1, 10,
            #"duplicate key "é"; it was first used at 1:2"#),
        SyntaxErrorCase(
            "large object",
            "{" + (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ",\n") + ",\n\"k7\": 0}", 41, 1,
            #"duplicate key "k7"; it was first used at 8:1"#),
    ])
    func duplicateKey(_ testCase: SyntaxErrorCase) {
        testCase.check()
    }

    @Test(arguments: [
        SyntaxErrorCase("second value", "{}\n{}", 2, 1, "extra content after the top-level value; remove it"),
        SyntaxErrorCase("extra brace", "{\"a\": {}}}", 1, 10, "extra content after the top-level value; remove it"),
        SyntaxErrorCase("word", "[] x", 1, 4, "extra content after the top-level value; remove it"),
    ])
    func extraContent(_ testCase: SyntaxErrorCase) {
        testCase.check()
    }

    @Test(arguments: [
        SyntaxErrorCase("leading zero", #"{"ttl": 0600}"#, 1, 9, "invalid number '0600'; remove the leading zero"),
        SyntaxErrorCase("negative leading zero", "[-01]", 1, 2, "invalid number '-01'; remove the leading zero"),
        SyntaxErrorCase("plus sign", "[+1]", 1, 2, "invalid number '+1'; remove the '+' sign"),
        SyntaxErrorCase("no integer part", "[.5]", 1, 2, "invalid number '.5'; write a 0 before the decimal point"),
        SyntaxErrorCase(
            "no fraction digits", "[1.]", 1, 2, "invalid number '1.'; write at least one digit after the decimal point"),
        SyntaxErrorCase(
            "no exponent digits", "[1e]", 1, 2, "invalid number '1e'; write at least one digit in the exponent"),
        SyntaxErrorCase(
            "signed exponent without digits", "[2E-]", 1, 2,
            "invalid number '2E-'; write at least one digit in the exponent"),
        SyntaxErrorCase("lone minus", "[-]", 1, 2, "invalid number '-'; write a digit after the minus sign"),
        SyntaxErrorCase("minus letter", "[-x]", 1, 2, "invalid number '-x'; write a digit after the minus sign"),
        SyntaxErrorCase(
            "two dots", "[1.5.3]", 1, 2, "invalid number '1.5.3'; JSON numbers look like 42, -0.5 or 1.5e3"),
        SyntaxErrorCase("hex", "[0x1F]", 1, 2, "invalid number '0x1F'; JSON numbers look like 42, -0.5 or 1.5e3"),
        SyntaxErrorCase(
            "unit suffix", "{\"ttl\": 10m}", 1, 9, "invalid number '10m'; JSON numbers look like 42, -0.5 or 1.5e3"),
        SyntaxErrorCase(
            "NaN", "[NaN]", 1, 2, "invalid number 'NaN'; JSON has no NaN or Infinity, use null or a string instead"),
        SyntaxErrorCase(
            "Infinity", "[Infinity]", 1, 2,
            "invalid number 'Infinity'; JSON has no NaN or Infinity, use null or a string instead"),
        SyntaxErrorCase(
            "-Infinity", "[-Infinity]", 1, 2,
            "invalid number '-Infinity'; JSON has no NaN or Infinity, use null or a string instead"),
        SyntaxErrorCase(
            "too large", "[1e400]", 1, 2,
            "number '1e400' is too large for a 64-bit floating-point value; use a smaller number"),
        SyntaxErrorCase(
            "too small", "[-1e400]", 1, 2,
            "number '-1e400' is too large for a 64-bit floating-point value; use a smaller number"),
    ])
    func invalidNumber(_ testCase: SyntaxErrorCase) {
        testCase.check()
    }

    @Test(arguments: [
        SyntaxErrorCase(
            "capitalized", "{\"a\": True}", 1, 7,
            "invalid literal 'True'; JSON's literals are true, false and null, in lowercase"),
        SyntaxErrorCase(
            "nil", "[nil]", 1, 2, "invalid literal 'nil'; JSON's literals are true, false and null, in lowercase"),
        SyntaxErrorCase(
            "misspelt", "[fals]", 1, 2, "invalid literal 'fals'; JSON's literals are true, false and null, in lowercase"
        ),
        SyntaxErrorCase(
            "unquoted string", "{\"method\": GET}", 1, 12,
            #"unquoted string 'GET'; strings must be in double quotes, as in "GET""#),
        SyntaxErrorCase(
            "literal run into a word", "[trueish]", 1, 2,
            #"unquoted string 'trueish'; strings must be in double quotes, as in "trueish""#),
    ])
    func invalidWord(_ testCase: SyntaxErrorCase) {
        testCase.check()
    }

    @Test(arguments: [
        SyntaxErrorCase("missing value", "{\"a\": }", 1, 7, #"expected a value for key "a""#),
        SyntaxErrorCase("leading comma", "[,1]", 1, 2, "expected a value or ']'"),
        SyntaxErrorCase("double comma", "[1,,2]", 1, 4, "expected a value"),
        SyntaxErrorCase("stray closer", "]", 1, 1, "expected a JSON value"),
        SyntaxErrorCase("symbol", "@", 1, 1, "unexpected character '@'; expected a JSON value"),
        SyntaxErrorCase("no-break space", "[\u{A0}1]", 1, 2, "unexpected character U+00A0; expected a value or ']'"),
        SyntaxErrorCase("NUL outside string", "[1,\u{0}]", 1, 4, "unexpected character U+0000; expected a value"),
        SyntaxErrorCase("emoji", "{\"a\": 😀}", 1, 7, #"unexpected character '😀'; expected a value for key "a""#),
        SyntaxErrorCase(
            "object closed by ]", "{\"a\": 1]", 1, 8,
            "mismatched ']'; close the object that starts at 1:1 with '}' first"),
        SyntaxErrorCase(
            "array closed by }", "{\"a\": [1}", 1, 9,
            "mismatched '}'; close the array that starts at 1:7 with ']' first"),
    ])
    func unexpectedToken(_ testCase: SyntaxErrorCase) {
        testCase.check()
    }

    @Test func nestingDeeperThanTheLimit() {
        let depth = JSONReader.maximumDepth
        SyntaxErrorCase(
            "arrays", String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1), 1, depth + 1,
            "nesting is too deep; objects and arrays may nest at most 512 levels"
        ).check()
        SyntaxErrorCase(
            "objects", String(repeating: "{\"a\":", count: depth + 1), 1, 5 * depth + 1,
            "nesting is too deep; objects and arrays may nest at most 512 levels"
        ).check()
    }

    @Test func veryDeepInputFailsWithoutExhaustingTheStack() {
        let error = diagnostic(Array(repeating: UInt8(ascii: "["), count: 1_000_000))
        #expect(error?.location == location(1, JSONReader.maximumDepth + 1))
    }

    @Test func descriptionIsCompilerStyle() {
        let error = diagnostic(Array("{\n  \"a\": 1,\n}".utf8))
        #expect(error?.description == "spec.json:2:9: error: trailing comma before '}'; remove it")
    }
}

// MARK: - Robustness

@Suite("JSONReader: robustness")
struct JSONReaderRobustnessTests {
    static let document = """
        {
          "version": 1,
          "baseURL": "https://api.example.com/v1",
          "defaults": { "cache": { "ttl": "5m", "policy": "networkFirst", "maxStale": "7d" } },
          "models": {
            "Account": {
              "description": "A bank account \\"of\\" the user: é ☃ 😀 \\u00e9 \\uD83D\\uDE00\\n",
              "properties": { "id": "string", "balance": -1.5e3, "limits": [0, 0.25, 1E+2, true, false, null] }
            }
          },
          "repositories": { "AccountRepository": { "endpoints": {
            "getAccount": { "path": "/accounts/{id}", "response": "Account", "cache": { "ttl": 600 } },
            "list": [ [], {}, [[{"deep": [null]}]] ]
          } } }
        }
        """

    /// Bytes that most often turn valid JSON into interesting invalid JSON.
    static let interestingBytes: [UInt8] =
        Array("{}[]\":,\\/*'0123456789-+.eEtfnu \n\r\tax".utf8)
        + [0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC0, 0xC3, 0xE2, 0xED, 0xF0, 0xF4, 0xFE, 0xFF]

    static func mutate(_ input: [UInt8], using random: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let index = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            let byte =
                Bool.random(using: &random)
                ? interestingBytes.randomElement(using: &random) ?? 0 : UInt8.random(in: 0...255, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0 where !bytes.isEmpty: bytes.remove(at: index)
            case 1: bytes.insert(byte, at: index)
            case 2 where !bytes.isEmpty: bytes[index] = byte
            case 3 where !bytes.isEmpty:
                let end = min(bytes.count, index + Int.random(in: 1...40, using: &random))
                bytes.insert(contentsOf: bytes[index..<end], at: Int.random(in: 0...bytes.count, using: &random))
            case 4: bytes.removeSubrange(index...)
            case 5 where !bytes.isEmpty: bytes.swapAt(index, Int.random(in: 0..<bytes.count, using: &random))
            default: bytes.append(byte)
            }
        }
        return bytes
    }

    /// The number of columns of each line, as the reader counts them.
    static func lineWidths(_ bytes: [UInt8]) -> [Int] {
        let content = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        return content.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            line.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        }
    }

    /// The byte offset of `location`, counted the way the reader counts columns.
    fileprivate static func offset(of location: SourceLocation, in bytes: [UInt8]) -> Int? {
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        for _ in 1..<location.line {
            guard let lineEnd = bytes[index...].firstIndex(of: 0x0A) else { return nil }
            index = lineEnd + 1
        }
        var column = 1
        while column < location.column, index < bytes.count {
            index += 1
            while index < bytes.count, bytes[index] & 0xC0 == 0x80 { index += 1 }
            column += 1
        }
        return index
    }

    /// Checks that every node's location points at the byte that starts it.
    fileprivate static func checkLocations(_ node: JSONNode, in bytes: [UInt8]) {
        guard let start = offset(of: node.location, in: bytes), start < bytes.count else {
            Issue.record("location \(node.location) is outside the input")
            return
        }
        let first = bytes[start]
        switch node.value {
        case .object(let members):
            #expect(first == UInt8(ascii: "{"))
            for member in members {
                #expect(offset(of: member.keyLocation, in: bytes).map { bytes[$0] } == UInt8(ascii: "\""))
                checkLocations(member.value, in: bytes)
            }
        case .array(let elements):
            #expect(first == UInt8(ascii: "["))
            for element in elements { checkLocations(element, in: bytes) }
        case .string: #expect(first == UInt8(ascii: "\""))
        case .number(_, let text): #expect(Array(bytes[start...].prefix(text.utf8.count)) == Array(text.utf8))
        case .bool(let flag): #expect(first == UInt8(ascii: flag ? "t" : "f"))
        case .null: #expect(first == UInt8(ascii: "n"))
        }
    }

    @Test func theDocumentParsesAndEveryLocationPointsAtItsValue() throws {
        let bytes = Array(Self.document.utf8)
        let root = try parse(bytes: bytes)
        Self.checkLocations(root, in: bytes)
        let description = root["models"]?.value["Account"]?.value["description"]?.value.stringValue
        #expect(description == "A bank account \"of\" the user: é ☃ 😀 é 😀\n")
    }

    @Test func randomMutationsNeverCrashAndErrorsPointInsideTheFile() {
        let original = Array(Self.document.utf8)
        var random = SplitMix64(state: 0x5EED_CAC4_E6E4)
        var failures = 0
        var successes = 0
        for round in 0..<4_000 {
            let bytes = Self.mutate(original, using: &random)
            do {
                let root = try parse(bytes: bytes)
                successes += 1
                Self.checkLocations(root, in: bytes)
            } catch {
                failures += 1
                let widths = Self.lineWidths(bytes)
                let line = error.location.line
                #expect(error.severity == .error, "round \(round)")
                #expect(error.location.file == fileName, "round \(round)")
                #expect(!error.message.isEmpty, "round \(round)")
                guard (1...widths.count).contains(line) else {
                    Issue.record("round \(round): line \(line) outside 1...\(widths.count): \(error)")
                    continue
                }
                #expect((1...(widths[line - 1] + 1)).contains(error.location.column), "round \(round): \(error)")
            }
        }
        // Make sure the mutations exercise both outcomes.
        #expect(failures > 1_000)
        #expect(successes > 100)
    }
}
