/// A JSON value with where it starts in the file.
///
/// The spec parser reads these instead of Foundation's untyped results so every
/// diagnostic it reports can point at the exact key or value the user wrote.
public struct JSONNode: Sendable, Hashable {
    /// What a JSON value holds; object members keep the order they had in the file.
    public enum Value: Sendable, Hashable {
        /// An object, with its members in file order so generated code follows the spec.
        case object([JSONMember])
        /// An array, in file order.
        case array([JSONNode])
        /// A string, with escapes already decoded.
        case string(String)
        /// A number as a `Double`, plus the literal as written (`"600"`, `"1.5e3"`) so
        /// messages can quote it and integer checks need not trust binary rounding.
        case number(Double, text: String)
        /// `true` or `false`.
        case bool(Bool)
        /// `null`.
        case null
    }

    /// The value.
    public var value: Value
    /// Where the value's first character is.
    public var location: SourceLocation

    /// Creates a node; tests and tools use it to build trees without parsing.
    public init(value: Value, location: SourceLocation) {
        self.value = value
        self.location = location
    }
}
