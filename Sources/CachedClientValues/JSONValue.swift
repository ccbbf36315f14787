import Foundation

/// Any JSON value, as the server sent it: what the spec's `json` type and an OpenAPI schema
/// without a fixed shape (a free-form object, a schema with no type, a `oneOf` variant the
/// document does not list) decode as.
///
/// Whole numbers keep every digit of the `Int64` and `UInt64` ranges, and other numbers
/// keep their `Double` value, so a value decoded and encoded again means the same.
/// Objects do not keep the order of their keys.
///
/// ```swift
/// let metadata: JSONValue = ["plan": "pro", "seats": 5, "tags": ["a", "b"], "trial": nil]
/// metadata["plan"]?.stringValue   // "pro"
/// metadata["tags"]?[1]            // .string("b")
/// ```
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number in the range of `Int64`.
    case integer(Int64)
    /// A whole number above `Int64.max`, in the range of `UInt64`.
    case unsignedInteger(UInt64)
    /// Any other number: a fraction, an exponent, or a whole number past `UInt64`.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])
}

extension JSONValue {
    /// The member named `key` of an object; `nil` for other values or a missing key.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The element at `index` of an array; `nil` for other values or an index out of range.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The text of a string; `nil` for other values.
    public var stringValue: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// A boolean's value; `nil` for other values.
    public var boolValue: Bool? {
        guard case .bool(let value) = self else { return nil }
        return value
    }

    /// A whole number that fits `Int`; `nil` for other values.
    public var intValue: Int? {
        switch self {
        case .integer(let value): Int(exactly: value)
        case .unsignedInteger(let value): Int(exactly: value)
        case .number(let value): Int(exactly: value)
        default: nil
        }
    }

    /// Any number as a `Double` (the nearest one for large whole numbers); `nil` for other values.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .unsignedInteger(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }

    /// An array's elements; `nil` for other values.
    public var arrayValue: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }

    /// An object's members; `nil` for other values.
    public var objectValue: [String: JSONValue]? {
        guard case .object(let members) = self else { return nil }
        return members
    }

    /// Whether the value is `null`.
    public var isNull: Bool { self == .null }
}

extension JSONValue: Codable {
    /// Reads any JSON value; whole numbers are tried as `Int64`, then `UInt64`, then `Double`.
    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            if let count = array.count { elements.reserveCapacity(count) }
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: JSONValue] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(JSONValue.self, forKey: key) }
            self = .object(members)
            return
        }
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
        } else if let bool = try? value.decode(Bool.self) {
            self = .bool(bool)
        } else if let integer = try? value.decode(Int64.self) {
            self = .integer(integer)
        } else if let integer = try? value.decode(UInt64.self) {
            self = .unsignedInteger(integer)
        } else if let number = try? value.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try value.decode(String.self))
        }
    }

    /// Writes the value as it was read.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .array(let elements):
            var array = encoder.unkeyedContainer()
            for element in elements { try array.encode(element) }
        case .object(let members):
            var object = encoder.container(keyedBy: AnyKey.self)
            for (key, value) in members { try object.encode(value, forKey: AnyKey(stringValue: key)) }
        default:
            var value = encoder.singleValueContainer()
            switch self {
            case .null: try value.encodeNil()
            case .bool(let bool): try value.encode(bool)
            case .integer(let integer): try value.encode(integer)
            case .unsignedInteger(let integer): try value.encode(integer)
            case .number(let number): try value.encode(number)
            case .string(let text): try value.encode(text)
            case .array, .object: break
            }
        }
    }

    /// Any key of an object.
    private struct AnyKey: CodingKey {
        package var stringValue: String
        package var intValue: Int? { nil }

        package init(stringValue: String) { self.stringValue = stringValue }
        package init?(intValue: Int) { nil }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
    /// A boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A whole number.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// A number.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object; a key written twice keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
