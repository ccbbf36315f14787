
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
    @_spi(Generated)
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
