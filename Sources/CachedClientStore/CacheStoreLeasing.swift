import Foundation

/// A `CacheStore` shared by many processes that lets them collapse identical requests: before
/// a client fetches a key from the network it claims the key in the store, so that of N
/// processes asking at the same moment one fetches and the others wait for its stored answer.
///
/// `CachedClient` uses it when its store adopts this protocol (see `RequestCollapsing` for
/// what the client does while it waits). A store that does not adopt it collapses nothing
/// across processes; within one client concurrent identical calls share one request anyway.
///
/// Rules every implementation keeps:
/// - `claim(_:for:)` is atomic across every client and process on the store: of any number of
///   concurrent claims of one key text while no live claim exists, exactly one returns a lease.
///   Claims are per exact `key.text`, like entries.
/// - A claim lives until `release(_:)` or until `duration` has passed (by the store's clock),
///   whichever comes first. An expired claim counts as absent, so a holder that died (a
///   process killed with `kill -9`, a machine gone) blocks others for at most `duration`.
/// - `release(_:)` ends only the claim that returned that lease: a claim that expired and was
///   taken by another holder is left alone. Releasing twice, or a lease that expired, is not
///   an error.
/// - Claims are not entries: they never show in `entry(for:)`, `entryCount()` or
///   `totalSize()`, and no removal needs to end them.
/// - Errors are reported by the client as `.error` events and never fail a call: a claim that
///   throws makes the client fetch by itself.
///
/// `CacheStoreConformance.leasingChecks` in `CachedClientTesting` proves these rules.
public protocol CacheStoreLeasing: CacheStore {
    /// Claims `key` for at most `duration` seconds; `nil` when another live claim holds it.
    func claim(_ key: CacheKey, for duration: TimeInterval) async throws -> CacheLease?
    /// Ends the claim `lease` came from, unless it expired and another holder claimed the key since.
    func release(_ lease: CacheLease) async throws
}

/// A claim on one key, returned by `CacheStoreLeasing.claim(_:for:)`; the token tells this
/// holder's claim from a later one of the same key.
public struct CacheLease: Sendable, Hashable {
    /// The key claimed.
    public var key: CacheKey
    /// Identifies this claim among all claims of the key, past and future; chosen by the store.
    public var token: String

    /// Creates a lease; stores make these when a claim succeeds.
    public init(key: CacheKey, token: String) {
        self.key = key
        self.token = token
    }
}
