@_spi(Generated) import CachedClientValues
import Foundation

/// What one `removeAll…` of a `CacheStore` covered: everything, one partition, one endpoint,
/// or one endpoint's path; what a store reports through `CacheStore.removals(since:)`, so that
/// a client keeps the values and pending writes a removal did not cover.
///
/// A scope names its partition, endpoint or path by a 64-bit digest (XXH64 of its UTF-8
/// text), not by the text: a store shared between processes keeps each scope in a few fixed
/// bytes, and a digest never puts a user's name or a path into a file or a notification. Two
/// texts with the same digest make a removal cover both, never less than it removed: the cost
/// of a collision is a value read again, never a removed value served.
public struct RemovalScope: Hashable, Sendable, CustomStringConvertible {
    /// What kind of `removeAll…` made the scope.
    public enum Kind: UInt8, Sendable {
        /// `removeAll()`: every entry.
        case everything = 0
        /// `removeAll(partition:)`: one partition's entries; shared entries stay.
        case partition = 1
        /// `removeAll(endpoint:)`: one endpoint's entries in every partition.
        case endpoint = 2
        /// `removeAll(endpoint:path:)`: one endpoint's entries of one path in every partition.
        case path = 3
    }

    /// What kind of removal it was.
    public let kind: Kind
    /// The digest of what `kind` names (the partition, the endpoint, or the endpoint and the
    /// path); 0 for `.everything`.
    public let digest: UInt64

    /// A scope read back from a store's own storage, as `kind` and `digest` gave it.
    public init(kind: Kind, digest: UInt64) {
        self.kind = kind
        self.digest = kind == .everything ? 0 : digest
    }

    /// A removal of every entry.
    public static let everything = RemovalScope(kind: .everything, digest: 0)

    /// A removal of one partition's entries (`removeAll(partition:)`).
    public static func partition(_ partition: String) -> RemovalScope {
        RemovalScope(kind: .partition, digest: digest(of: partition))
    }

    /// A removal of one endpoint's entries (`removeAll(endpoint:)`).
    public static func endpoint(_ endpoint: String) -> RemovalScope {
        RemovalScope(kind: .endpoint, digest: digest(of: endpoint))
    }

    /// A removal of one endpoint's entries of one path (`removeAll(endpoint:path:)`).
    public static func path(_ path: String, endpoint: String) -> RemovalScope {
        RemovalScope(kind: .path, digest: digest(of: endpoint, path))
    }

    /// Whether the removal covered the entry stored under `key` (or may have: a digest
    /// collision covers more, never less).
    public func covers(_ key: CacheKey) -> Bool {
        switch kind {
        case .everything: true
        case .partition: key.partition.map { Self.digest(of: $0) == digest } ?? false
        case .endpoint: Self.digest(of: key.endpoint) == digest
        case .path: Self.digest(of: key.endpoint, key.path) == digest
        }
    }

    /// The kind and the digest, never the text: safe to log.
    public var description: String {
        kind == .everything ? "everything" : "\(kind) \(String(digest, radix: 16))"
    }

    /// XXH64 of the UTF-8 text.
    private static func digest(of text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { XXH64.hash(UnsafeRawBufferPointer($0)) }
    }

    /// XXH64 of the endpoint's UTF-8 text, a zero byte (which neither holds) and the path's.
    private static func digest(of endpoint: String, _ path: String) -> UInt64 {
        digest(of: endpoint + "\u{0}" + path)
    }
}
