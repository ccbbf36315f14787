@_spi(Generated) import CachedClientValues
import Foundation

/// A `Decoder` over the parts of a multipart body: the response type's properties are its
/// parts, by name. A part is read as its property's type says: `Data` as its bytes,
/// `MultipartFile` with its file name, type and other header fields, `MultipartValue` as its
/// value's type says with the part's other header fields, `String` as its text
/// (in its `charset`), an array as every part of that name, anything else as JSON (or, when
/// the part is not JSON, as its text taken for a JSON string: dates, enums, identifiers).
/// A property whose part is missing is `nil` when optional, else a `keyNotFound` error.
package struct MultipartDecoder: Decoder {
    /// The body's parts in order.
    package let parts: [MultipartPart]
    /// How dates are read in JSON parts.
    package let coding: JSONCoding
    package var codingPath: [any CodingKey] { [] }
    package var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// A decoder over these parts.
    package init(parts: [MultipartPart], coding: JSONCoding) {
        self.parts = parts
        self.coding = coding
    }

    package func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Parts<Key>(decoder: self))
    }

    package func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self, .init(codingPath: [], debugDescription: "a multipart body is read as an object of parts, not an array"))
    }

    package func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(
            Any.self, .init(codingPath: [], debugDescription: "a multipart body is read as an object of parts, not one value"))
    }

    /// The parts named `name`, in order.
    fileprivate func parts(named name: String) -> [MultipartPart] {
        parts.filter { $0.name == name }
    }

    /// One part as `type`, as the type says (see the type's documentation).
    package func decode<T: Decodable>(_ type: T.Type, from part: MultipartPart, at path: [any CodingKey]) throws -> T {
        if T.self == Data.self, let value = part.body as? T { return value }
        if T.self == MultipartFile.self {
            let file = MultipartFile(
                data: part.body, filename: part.filename ?? "", contentType: part.contentType ?? "application/octet-stream",
                headers: part.otherHeaders)
            if let value = file as? T { return value }
        }
        if let headed = T.self as? any MultipartValueDecoding.Type, let value = try headed.decodePart(part, by: self, at: path) as? T {
            return value
        }
        let isJSON = part.contentType.map(FormBody.isJSON) ?? false
        if T.self == String.self, !isJSON {
            let charset = Endpoint.charset(of: part.contentType) ?? "utf-8"
            guard let encoding = Endpoint.encoding(named: charset), let text = String(data: part.body, encoding: encoding) else {
                throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "the part is not text in \(charset)"))
            }
            if let value = text as? T { return value }
        }
        if let array = T.self as? any MultipartRepeated.Type, let value = try array.decodeElements(of: [part], by: self, at: path) as? T {
            return value
        }
        let decoder = coding.makeDecoder()
        do {
            return try decoder.decode(T.self, from: part.body)
        } catch {
            // A text part holds a date, an enum's raw value or an identifier as it is, unquoted.
            guard !isJSON, let text = String(data: part.body, encoding: .utf8),
                let value = try? decoder.decode(T.self, from: Data(FormValue.quoted(text).utf8))
            else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: path, debugDescription: "the part is not \(T.self): \(CallEvents.reason(error))", underlyingError: error))
            }
            return value
        }
    }

    /// Reads a property from the parts of its name.
    private struct Parts<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: MultipartDecoder
        var codingPath: [any CodingKey] { [] }

        var allKeys: [Key] {
            var seen: Set<String> = []
            return decoder.parts.compactMap { part in
                guard let name = part.name, seen.insert(name).inserted else { return nil }
                return Key(stringValue: name)
            }
        }

        func contains(_ key: Key) -> Bool { decoder.parts.contains { $0.name == key.stringValue } }

        /// A part is `null` only as JSON that says so.
        func decodeNil(forKey key: Key) throws -> Bool {
            guard let part = decoder.parts(named: key.stringValue).first else { return true }
            guard part.contentType.map(FormBody.isJSON) == true else { return false }
            return String(decoding: part.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "null"
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try value(type, forKey: key) }

        /// Every `decode` in one place: the overloads for each standard type call it.
        private func value<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            let found = decoder.parts(named: key.stringValue)
            if let array = T.self as? any MultipartRepeated.Type {
                if let value = try array.decodeElements(of: found, by: decoder, at: [key]) as? T { return value }
            }
            guard let part = found.first else {
                throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "the body has no part \"\(key.stringValue)\""))
            }
            return try decoder.decode(type, from: part, at: [key])
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value(type, forKey: key) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try value(type, forKey: key) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value(type, forKey: key) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try value(type, forKey: key) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try value(type, forKey: key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try value(type, forKey: key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try value(type, forKey: key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try value(type, forKey: key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try value(type, forKey: key) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try value(type, forKey: key) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try value(type, forKey: key) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try value(type, forKey: key) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try value(type, forKey: key) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try value(type, forKey: key) }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            throw DecodingError.typeMismatch(type, .init(codingPath: [key], debugDescription: "a part is read whole, not as a nested container"))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw DecodingError.typeMismatch([Any].self, .init(codingPath: [key], debugDescription: "a part is read whole, not as a nested container"))
        }

        func superDecoder() throws -> any Decoder { decoder }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            throw DecodingError.typeMismatch(Any.self, .init(codingPath: [key], debugDescription: "a part is read whole, not as a decoder"))
        }
    }
}

/// An array property: one element per part of its name, or, for a single JSON part that
/// holds an array, its elements (as `FormBody.multipart` writes an array of JSON type).
package protocol MultipartRepeated {
    /// The array the parts make.
    static func decodeElements(of parts: [MultipartPart], by decoder: MultipartDecoder, at path: [any CodingKey]) throws -> Any
}

extension Array: MultipartRepeated where Element: Decodable {
    package static func decodeElements(of parts: [MultipartPart], by decoder: MultipartDecoder, at path: [any CodingKey]) throws -> Any {
        if parts.count == 1, let part = parts.first, part.contentType.map(FormBody.isJSON) == true,
            part.body.first(where: { $0 != 32 && $0 != 9 && $0 != 10 && $0 != 13 }) == UInt8(ascii: "[")
        {
            return try decoder.coding.makeDecoder().decode([Element].self, from: part.body)
        }
        return try parts.enumerated().map { index, part in
            try decoder.decode(Element.self, from: part, at: path + [PartIndex(intValue: index)])
        }
    }
}

/// An element's place among the parts of one name, for an error's coding path.
private struct PartIndex: CodingKey {
    var intValue: Int?
    var stringValue: String { String(intValue ?? 0) }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}

/// A `MultipartValue` property: the part read as its value's type, with the part's header
/// fields other than `Content-Disposition`, `Content-Type` and `Content-Length`.
package protocol MultipartValueDecoding {
    /// The value one part makes.
    static func decodePart(_ part: MultipartPart, by decoder: MultipartDecoder, at path: [any CodingKey]) throws -> Any
}

extension MultipartValue: MultipartValueDecoding where Value: Decodable {
    package static func decodePart(_ part: MultipartPart, by decoder: MultipartDecoder, at path: [any CodingKey]) throws -> Any {
        MultipartValue(try decoder.decode(Value.self, from: part, at: path), headers: part.otherHeaders)
    }
}
