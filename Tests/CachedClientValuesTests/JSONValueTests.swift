import Foundation
import Testing

@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// Any JSON: every kind of value read, numbers kept to the digit, and written back meaning
/// the same.
@Suite("JSONValue")
struct JSONValueTests {
    private func decode(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    private func encode(_ value: JSONValue) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func readsEveryKindOfValue() throws {
        let value = try decode(#"{"a": null, "b": true, "c": -3, "d": 2.5, "e": "text", "f": [1, "x"], "g": {"h": false}}"#)
        #expect(
            value == .object([
                "a": .null, "b": .bool(true), "c": .integer(-3), "d": .number(2.5), "e": .string("text"),
                "f": .array([.integer(1), .string("x")]), "g": .object(["h": .bool(false)]),
            ]))
    }

    @Test(arguments: [
        "9223372036854775807", "-9223372036854775808", "18446744073709551615", "0", "-17", "0.1", "3.141592653589793",
    ])
    func numbersSurviveARoundTripUnchanged(text: String) throws {
        let value = try decode(text)
        #expect(try encode(value) == text)
    }

    @Test(arguments: ["-2.5e-7", "1e300", "123456789012345678901234567890", "1.7976931348623157e308"])
    func numbersWithExponentsKeepTheirValue(text: String) throws {
        let value = try decode(text)
        #expect(value.doubleValue == Double(text))
        #expect(try decode(try encode(value)) == value)
    }

    @Test func wholeNumbersKeepTheirRange() throws {
        #expect(try decode("9223372036854775807") == .integer(.max))
        #expect(try decode("-9223372036854775808") == .integer(.min))
        #expect(try decode("18446744073709551615") == .unsignedInteger(.max))
        #expect(try decode("0.5") == .number(0.5))
    }

    @Test func writesBackWhatItRead() throws {
        let text = #"{"list":[1,2.5,null,"a",{"deep":[true]}],"name":"x","zero":0}"#
        #expect(try encode(try decode(text)) == text)
    }

    @Test func literalsBuildValues() {
        let value: JSONValue = ["name": "pro", "seats": 5, "ratio": 0.5, "on": true, "none": nil, "tags": ["a", "b"]]
        #expect(
            value == .object([
                "name": .string("pro"), "seats": .integer(5), "ratio": .number(0.5), "on": .bool(true), "none": .null,
                "tags": .array([.string("a"), .string("b")]),
            ]))
    }

    @Test func accessorsAnswerOnlyForTheirKind() {
        let value: JSONValue = ["name": "pro", "seats": 5, "ratio": 0.5, "on": true, "none": nil, "tags": ["a", "b"]]
        #expect(value["name"]?.stringValue == "pro")
        #expect(value["seats"]?.intValue == 5)
        #expect(value["seats"]?.doubleValue == 5)
        #expect(value["ratio"]?.doubleValue == 0.5)
        #expect(value["ratio"]?.intValue == nil)
        #expect(value["on"]?.boolValue == true)
        #expect(value["none"]?.isNull == true)
        #expect(value["tags"]?[1] == "b")
        #expect(value["tags"]?[2] == nil)
        #expect(value["tags"]?.arrayValue?.count == 2)
        #expect(value.objectValue?.count == 6)
        #expect(value["missing"] == nil)
        #expect(value[0] == nil)
        #expect(value["name"]?["x"] == nil)
        #expect(value["name"]?.intValue == nil)
    }

    @Test func aNestedValueInsideAModelDecodes() throws {
        struct Holder: Codable, Equatable {
            var metadata: JSONValue
            var extra: JSONValue?
        }
        let holder = try JSONDecoder().decode(Holder.self, from: Data(#"{"metadata": {"k": [1]}, "extra": null}"#.utf8))
        #expect(holder == Holder(metadata: ["k": [1]], extra: nil))
    }
}
