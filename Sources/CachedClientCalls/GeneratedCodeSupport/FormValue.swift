@_spi(Generated) import CachedClientValues
import Foundation

/// A request body's value as form and multipart bodies see it: what `JSONEncoder` would
/// write, as a tree that keeps the properties' order, with files apart.
package enum FormValue: Sendable {
    /// Text: a string, a date in the API's format, an enum's raw value.
    case text(String)
    /// A number or a Boolean, as JSON writes it.
    case literal(String)
    /// `nil` written explicitly; left out like a missing property.
    case null
    /// An array.
    case array([FormValue])
    /// An object's properties in the order the model encodes them.
    case object([(String, FormValue)])
    /// A file, for a multipart part.
    case file(MultipartFile)
    /// A multipart part's value with the part's header fields (`MultipartValue`).
    indirect case part(FormValue, headers: [String: String])

    /// `value` as a tree; dates written as `coding` writes them. The body's own properties
    /// keep the model's order; nested objects are sorted by key, as JSON bodies are, since
    /// a dictionary's order changes from run to run and the bytes may be a cache key.
    package static func of(_ value: some Encodable, coding: JSONCoding) throws -> FormValue {
        let encoder = FormValueEncoder(coding: coding, codingPath: [])
        try encoder.encodeValue(value)
        switch encoder.storage.value ?? .null {
        case .object(let members): return .object(members.map { ($0.0, $0.1.sorted) })
        case let other: return other.sorted
        }
    }

    /// The value with every object's members sorted by key, at every depth.
    package var sorted: FormValue {
        switch self {
        case .object(let members):
            return .object(members.map { ($0.0, $0.1.sorted) }.sorted { $0.0 < $1.0 })
        case .array(let elements):
            return .array(elements.map(\.sorted))
        case .part(let value, let headers):
            return .part(value.sorted, headers: headers)
        default:
            return self
        }
    }

    /// The value as JSON text, keys in order.
    package var json: String {
        switch self {
        case .text(let text): return Self.quoted(text)
        case .literal(let literal): return literal
        case .null: return "null"
        case .array(let elements): return "[" + elements.map(\.json).joined(separator: ",") + "]"
        case .object(let members): return "{" + members.map { Self.quoted($0.0) + ":" + $0.1.json }.joined(separator: ",") + "}"
        case .file(let file): return Self.quoted(file.data.base64EncodedString())
        case .part(let value, _): return value.json
        }
    }

    /// The value's text in a form field: text and literals as they are, others as JSON.
    package var fieldText: String {
        switch self {
        case .text(let text): text
        case .literal(let literal): literal
        case .part(let value, _): value.fieldText
        default: json
        }
    }

    /// A JSON string literal.
    package static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

/// Where one container writes: a box, so nested containers fill their parent in place.
package final class FormValueBox {
    /// What is written so far.
    package enum Content {
        /// Nothing yet.
        case none
        /// A finished value.
        case leaf(FormValue)
        /// An object whose members are still being written.
        case object([(String, FormValueBox)])
        /// An array whose elements are still being written.
        case array([FormValueBox])
    }

    package var content = Content.none

    /// The finished value.
    package var value: FormValue? {
        switch content {
        case .none: nil
        case .leaf(let value): value
        case .object(let members): .object(members.map { ($0.0, $0.1.value ?? .null) })
        case .array(let elements): .array(elements.map { $0.value ?? .null })
        }
    }
}

/// An `Encoder` that builds a `FormValue`.
package struct FormValueEncoder: Encoder {
    package let coding: JSONCoding
    package let codingPath: [any CodingKey]
    package var userInfo: [CodingUserInfoKey: Any] { [:] }
    package let storage: FormValueBox

    package init(coding: JSONCoding, codingPath: [any CodingKey], storage: FormValueBox = FormValueBox()) {
        self.coding = coding
        self.codingPath = codingPath
        self.storage = storage
    }

    /// Encodes `value`, writing dates, URLs, numbers and files as leaves.
    package func encodeValue(_ value: some Encodable) throws {
        if let leaf = try leaf(value) {
            storage.content = .leaf(leaf)
        } else {
            try value.encode(to: self)
        }
    }

    /// The leaf a value of a special type is written as; `nil` for others.
    private func leaf(_ value: some Encodable) throws -> FormValue? {
        switch value {
        case let text as String: return .text(text)
        case let flag as Bool: return .literal(flag ? "true" : "false")
        case let integer as any BinaryInteger: return .literal(String(describing: integer))
        case let number as Double: return .literal(Self.text(number))
        case let number as Float: return .literal(Self.text(Double(number)))
        case let file as MultipartFile: return .file(file)
        case let part as any MultipartValueEncoding:
            let encoder = FormValueEncoder(coding: coding, codingPath: codingPath)
            try encoder.encodeValue(part.partValue)
            return .part(encoder.storage.value ?? .null, headers: part.headers)
        case let url as URL: return .text(url.absoluteString)
        case let date as Date:
            switch coding.dates {
            case .iso8601: return .text(ISO8601.format(date))
            case .secondsSince1970, .millisecondsSince1970:
                return .literal(String(decoding: try coding.makeEncoder().encode(date), as: UTF8.self))
            }
        default: return nil
        }
    }

    package func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = storage.content {} else { storage.content = .object([]) }
        return KeyedEncodingContainer(Keyed<Key>(encoder: self))
    }

    package func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = storage.content {} else { storage.content = .array([]) }
        return Unkeyed(encoder: self)
    }

    package func singleValueContainer() -> any SingleValueEncodingContainer { Single(encoder: self) }

    /// A new member's encoder; a member written twice keeps its first place.
    fileprivate func member(_ key: any CodingKey) -> FormValueEncoder {
        guard case .object(var members) = storage.content else { return FormValueEncoder(coding: coding, codingPath: []) }
        let box = FormValueBox()
        if let index = members.firstIndex(where: { $0.0 == key.stringValue }) {
            members[index].1 = box
        } else {
            members.append((key.stringValue, box))
        }
        storage.content = .object(members)
        return FormValueEncoder(coding: coding, codingPath: codingPath + [key], storage: box)
    }

    /// A new element's encoder.
    fileprivate func element() -> FormValueEncoder {
        guard case .array(var elements) = storage.content else { return FormValueEncoder(coding: coding, codingPath: []) }
        let box = FormValueBox()
        let key = Index(intValue: elements.count)
        elements.append(box)
        storage.content = .array(elements)
        return FormValueEncoder(coding: coding, codingPath: codingPath + [key], storage: box)
    }

    fileprivate var count: Int {
        if case .array(let elements) = storage.content { elements.count } else { 0 }
    }

    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        package let encoder: FormValueEncoder
        package var codingPath: [any CodingKey] { encoder.codingPath }

        package mutating func encodeNil(forKey key: Key) throws { encoder.member(key).storage.content = .leaf(.null) }
        package mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try encoder.member(key).encodeValue(value) }

        package mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            encoder.member(key).container(keyedBy: keyType)
        }

        package mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            encoder.member(key).unkeyedContainer()
        }

        package mutating func superEncoder() -> any Encoder { encoder }
        package mutating func superEncoder(forKey key: Key) -> any Encoder { encoder.member(key) }
    }

    private struct Unkeyed: UnkeyedEncodingContainer {
        package let encoder: FormValueEncoder
        package var codingPath: [any CodingKey] { encoder.codingPath }
        package var count: Int { encoder.count }

        package mutating func encodeNil() throws { encoder.element().storage.content = .leaf(.null) }
        package mutating func encode<T: Encodable>(_ value: T) throws { try encoder.element().encodeValue(value) }

        package mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            encoder.element().container(keyedBy: keyType)
        }

        package mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            encoder.element().unkeyedContainer()
        }

        package mutating func superEncoder() -> any Encoder { encoder.element() }
    }

    private struct Single: SingleValueEncodingContainer {
        package let encoder: FormValueEncoder
        package var codingPath: [any CodingKey] { encoder.codingPath }

        package mutating func encodeNil() throws { encoder.storage.content = .leaf(.null) }
        package mutating func encode<T: Encodable>(_ value: T) throws { try encoder.encodeValue(value) }
    }

    /// An array index as a coding key.
    private struct Index: CodingKey {
        package var intValue: Int?
        package var stringValue: String { String(intValue ?? 0) }
        package init(intValue: Int) { self.intValue = intValue }
        package init?(stringValue: String) { nil }
    }

    /// A number as JSON writes it: integral values without a fraction.
    package static func text(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}

/// A `MultipartValue` seen by the encoder whatever its value's type.
package protocol MultipartValueEncoding {
    /// The part's value.
    var partValue: any Encodable { get }
    /// The part's header fields.
    var headers: [String: String] { get }
}

extension MultipartValue: MultipartValueEncoding where Value: Encodable {
    package var partValue: any Encodable { value }
}
