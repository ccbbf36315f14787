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
