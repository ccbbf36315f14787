/// One `"key": value` pair of a JSON object, keeping where the key was written so
/// "unknown key" style messages can point at the key rather than its value.
public struct JSONMember: Sendable, Hashable {
    /// The key, with escapes decoded.
    public var key: String
    /// Where the opening quote of the key is.
    public var keyLocation: SourceLocation
    /// The member's value.
    public var value: JSONNode

    /// Creates a member; tests and tools use it to build trees without parsing.
    public init(key: String, keyLocation: SourceLocation, value: JSONNode) {
        self.key = key
        self.keyLocation = keyLocation
        self.value = value
    }
}
