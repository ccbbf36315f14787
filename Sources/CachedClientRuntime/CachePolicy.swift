/// How one call trades freshness against speed and availability.
///
/// Every generated cached method takes one; `nil` uses the endpoint's spec default.
public enum CachePolicy: String, Sendable, Hashable, CaseIterable {
    /// Fetch; on a transport failure or a 5xx, fall back to an entry younger than `maxStale`.
    /// A 4xx never falls back: the server answered, and the answer is "no". With
    /// `ttl: "server"`, a stale entry whose server said `must-revalidate` or `no-cache` does
    /// not fall back either, unless its `stale-if-error` allows it (see `ServerFreshness`).
    case networkFirst
    /// Return an entry younger than `ttl` (with `ttl: "server"`, within the server's
    /// lifetime or its `stale-while-revalidate` window, then refreshed in the background)
    /// without waiting for the network; otherwise `networkFirst`.
    case cacheFirst
    /// Return any entry younger than `maxStale` at once and refresh it in the background;
    /// otherwise `networkFirst`.
    case staleWhileRevalidate
    /// Return an entry younger than `maxStale`, or throw `CachedClientError.notCached`.
    case cacheOnly
    /// Always fetch, never fall back; a successful answer is still stored.
    case networkOnly
}

/// Whose entries these are: the signed-in user's, or everybody's.
public enum CacheScope: String, Sendable, Hashable {
    /// Entries belong to the client's current partition (its signed-in user).
    case user
    /// Entries are the same for every user, such as a public catalogue.
    case shared
}

/// The cache rule of one endpoint, as the spec states it.
public struct CacheRule: Sendable, Hashable {
    /// How long, in seconds, an entry counts as fresh (used by `cacheFirst`).
    public var ttl: Double
    /// The oldest age, in seconds, at which an entry is ever shown, offline included.
    public var maxStale: Double
    /// The policy a call uses when it passes none.
    public var policy: CachePolicy
    /// Whether entries belong to the current user or to everybody.
    public var scope: CacheScope
    /// `ttl: "server"` in the spec: freshness comes from the response's `Cache-Control`,
    /// `Expires` and `Age`, and `ttl` applies only when the server states none.
    public var ttlFromServer: Bool

    /// Creates a rule; generated code passes the spec's values.
    public init(
        ttl: Double, maxStale: Double, policy: CachePolicy = .networkFirst, scope: CacheScope = .user,
        ttlFromServer: Bool = false
    ) {
        self.ttl = ttl
        self.maxStale = max(ttl, maxStale)
        self.policy = policy
        self.scope = scope
        self.ttlFromServer = ttlFromServer
    }
}
