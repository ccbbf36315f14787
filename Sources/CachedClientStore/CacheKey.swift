@_spi(Generated) import CachedClientValues
import Foundation

/// The identity of a cache entry, built in this one place from everything that makes
/// two answers different.
///
/// The canonical text holds the endpoint, method, base URL (so staging never serves
/// production data), resolved path, key query parameters sorted and percent-encoded,
/// key headers, the body digest when the body is in the key, the partition for
/// user-scoped entries and the response shape fingerprint. Stores keep the text with
/// the entry and compare it on read, so a hash collision can never serve a wrong entry.
public struct CacheKey: Hashable, Sendable, CustomStringConvertible {
    /// The canonical text; one `field value` pair per line.
    public var text: String { storage.text }
    /// The endpoint name, for `removeAll(endpoint:)` and events.
    public var endpoint: String { storage.endpoint }
    /// The partition of a user-scoped entry; `nil` for shared entries and for user-scoped
    /// entries made while signed out (whose key text says so, apart from any user's).
    public var partition: String? { storage.partition }
    /// The resolved path (`/accounts/42`, percent-encoded as sent), by which stores group
    /// entries so that an `Invalidation` of one resource removes a folder, not a scan.
    public var path: String { storage.path }
    /// Hex SHA-256 of `text`: a file name, and safe to log.
    public var digest: String { storage.digest }
    /// The digest, short enough for a log line.
    public var description: String { storage.shortDigest }

    /// The parts in one unchanging object: a key is copied into every step of a call, and
    /// this way a copy costs one retain rather than six.
    private let storage: Storage

    /// Recreates a key from its parts, as a store does when it lists entries.
    ///
    /// - Parameters:
    ///   - text: the full canonical key, as `text` returns it.
    ///   - endpoint: `Repository.method` of the entry.
    ///   - partition: as `partition` returns it: `nil` for shared entries and signed-out ones.
    ///   - path: the resolved path the entry was fetched from; stores group entries
    ///     by it for `removeAll(endpoint:path:)`.
    public init(text: String, endpoint: String, partition: String?, path: String) {
        storage = Storage(text: text, endpoint: endpoint, partition: partition, path: path)
    }

    /// Keys are equal when all their parts are; the digest follows from the text.
    public static func == (a: CacheKey, b: CacheKey) -> Bool {
        a.storage === b.storage
            || (a.text == b.text && a.endpoint == b.endpoint && a.partition == b.partition && a.path == b.path)
    }

    /// Hashes the text alone, which equal keys share.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
    }

    /// What a key is made of, shared by its copies.
    private final class Storage: Sendable {
        package let text: String
        package let endpoint: String
        package let partition: String?
        package let path: String
        package let digest: String
        /// The first 16 digits of `digest`, made once: every event of a call names its key.
        package let shortDigest: String

        package init(text: String, endpoint: String, partition: String?, path: String) {
            self.text = text
            self.endpoint = endpoint
            self.partition = partition
            self.path = path
            digest = SHA256.hex(of: text)
            shortDigest = String(decoding: digest.utf8.prefix(16), as: UTF8.self)
        }
    }
}
