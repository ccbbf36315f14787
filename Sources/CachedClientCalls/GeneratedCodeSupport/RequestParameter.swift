import Foundation

/// One named request value and whether it identifies the cache entry.
@_spi(Generated)
public struct RequestParameter: Sendable, Hashable {
    /// The wire name.
    public var name: String
    /// The canonical text, not yet percent-encoded.
    public var value: String
    /// Whether the value is part of the cache key.
    public var isKey: Bool

    /// Creates a parameter.
    public init(name: String, value: String, isKey: Bool) {
        self.name = name
        self.value = value
        self.isKey = isKey
    }
}
