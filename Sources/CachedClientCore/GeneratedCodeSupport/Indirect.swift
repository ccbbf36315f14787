/// Stores a property out of line, so a generated model can contain itself
/// (`Category.parent: Category?`) and keep value semantics.
///
/// Generated code uses it as `@Indirect public var parent: Category?`; callers read and
/// write the property as usual. It codes exactly like the wrapped value, and an optional
/// one that is absent or `null` in JSON decodes as `nil` and is left out when encoding.
@propertyWrapper
public struct Indirect<Value: Sendable>: Sendable {
    private final class Box: Sendable {
        package let value: Value

        package init(_ value: Value) {
            self.value = value
        }
    }

    private var box: Box

    /// Wraps a value.
    public init(wrappedValue: Value) {
        box = Box(wrappedValue)
    }

    /// The value; setting it replaces the box, so copies never share changes.
    public var wrappedValue: Value {
        get { box.value }
        set { box = Box(newValue) }
    }
}

extension Indirect: Equatable where Value: Equatable {
    /// Compares the wrapped values.
    public static func == (lhs: Indirect, rhs: Indirect) -> Bool { lhs.wrappedValue == rhs.wrappedValue }
}

extension Indirect: Hashable where Value: Hashable {
    /// Hashes the wrapped value.
    public func hash(into hasher: inout Hasher) { hasher.combine(wrappedValue) }
}

extension Indirect: Decodable where Value: Decodable {
    /// Decodes the wrapped value in place, adding no nesting to the JSON.
    public init(from decoder: any Decoder) throws {
        self.init(wrappedValue: try Value(from: decoder))
    }
}

extension Indirect: Encodable where Value: Encodable {
    /// Encodes the wrapped value in place, adding no nesting to the JSON.
    public func encode(to encoder: any Encoder) throws {
        try wrappedValue.encode(to: encoder)
    }
}

extension KeyedDecodingContainer {
    /// Lets an optional `@Indirect` property be absent, as an optional property may be.
    public func decode<Wrapped: Decodable & Sendable>(_: Indirect<Wrapped?>.Type, forKey key: Key) throws
        -> Indirect<Wrapped?>
    {
        Indirect(wrappedValue: try decodeIfPresent(Wrapped.self, forKey: key))
    }
}

extension KeyedEncodingContainer {
    /// Leaves an optional `@Indirect` property out when it is `nil`, as synthesized code does.
    public mutating func encode<Wrapped: Encodable & Sendable>(_ value: Indirect<Wrapped?>, forKey key: Key) throws {
        try encodeIfPresent(value.wrappedValue, forKey: key)
    }
}
