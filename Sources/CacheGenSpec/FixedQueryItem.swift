/// A query item a path sends with every call, name and value decoded.
public struct FixedQueryItem: Sendable, Hashable {
    /// The item's name.
    public var name: String
    /// The item's value; empty for `?flag`.
    public var value: String

    /// The memberwise initializer, for the package's other modules.
    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
