import CacheGenReading

/// The keys of an object model other than its properties, kept in a dictionary property of
/// their own: OpenAPI's `additionalProperties` beside `properties`. Decoding fills it with
/// every key the properties do not name; encoding writes it back.
public struct AdditionalProperties: Sendable, Hashable {
    /// The Swift name of the dictionary property (`additionalProperties`, numbered when a
    /// property took it).
    public var name: String
    /// The type of each value; `json` when any value goes.
    public var type: TypeRef
    /// Where the `additionalProperties` schema is written.
    public var location: SourceLocation

    /// The memberwise initializer, for the package's other modules.
    package init(name: String, type: TypeRef, location: SourceLocation) {
        self.name = name
        self.type = type
        self.location = location
    }
}
