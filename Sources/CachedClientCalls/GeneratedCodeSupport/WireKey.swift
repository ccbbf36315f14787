/// The coding key of every generated model: the property's name on the wire.
///
/// Generated models code themselves through this one key type instead of a synthesised
/// `CodingKeys` enum per model: the compiler then makes one set of `CodingKey` witnesses
/// for a whole client instead of one per model, which is most of what a model costs to
/// build. The wire format is the same.
@_spi(Generated)
public struct WireKey: CodingKey, Sendable {
    /// The name on the wire.
    public let stringValue: String

    /// A key for the wire name `name`.
    @inlinable
    public init(_ name: String) {
        stringValue = name
    }

    /// A key for the wire name `stringValue`; never fails.
    public init?(stringValue: String) {
        self.stringValue = stringValue
    }

    /// Models are JSON objects: keys are never integers.
    public var intValue: Int? { nil }

    /// Models are JSON objects: integer keys are refused.
    public init?(intValue: Int) {
        nil
    }
}
