import Foundation

/// A value sent or received as one part of a multipart body, with the part's header fields:
/// text, a number, a date or a JSON object, where the OpenAPI document describes header
/// fields for the part (`encoding.<part>.headers`).
///
/// Models of multipart bodies hold one only for parts whose encoding declares header fields
/// (a file part, `MultipartFile`, has its own `headers`); the property's documentation names
/// the fields declared. Neither side checks the declared fields: a part sent or received
/// without one of them is still sent or read. Outside a multipart body (in JSON) it is written
/// as its value alone, and read from it with no header fields.
public struct MultipartValue<Value> {
    /// The part's value.
    public var value: Value
    /// The part's header fields besides `Content-Disposition`, `Content-Type` and
    /// `Content-Length`, names as written: read them with `header(_:)`, which ignores case.
    /// Sent sorted by name; a line break in a value is sent as a space.
    public var headers: [String: String]

    /// A part of this value and these header fields.
    public init(_ value: Value, headers: [String: String] = [:]) {
        self.value = value
        self.headers = headers
    }

    /// The value of a header field, by a name in any case; `nil` without one.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

extension MultipartValue: Sendable where Value: Sendable {}
extension MultipartValue: Equatable where Value: Equatable {}
extension MultipartValue: Hashable where Value: Hashable {}

extension MultipartValue: Decodable where Value: Decodable {
    /// Reads the value alone (JSON has no place for a part's header fields).
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(Value.self))
    }
}

extension MultipartValue: Encodable where Value: Encodable {
    /// Writes the value alone; a multipart body's writer also writes `headers`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
