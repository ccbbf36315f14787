import Foundation

/// What a response said about its own freshness, stored with its entry so that an app
/// relaunched a week later judges the entry the way the server asked.
///
/// Recorded for every response that carries `Cache-Control`, `Expires` or `Age`, but
/// consulted only for endpoints whose rule has `ttlFromServer` (`ttl: "server"` in the
/// spec); for every other endpoint the spec's `ttl` governs and these values are ignored.
/// Durations are in seconds. Only these derived numbers are kept, never the raw header
/// fields, so nothing a server sends besides them and the validators reaches disk.
///
/// What each directive does under `ttlFromServer` (the rule's `maxStale` caps everything):
/// - `max-age`, else `Expires` − `Date`: how long `cacheFirst` answers without the network.
///   When the server states neither, the rule's `ttl` stands in.
/// - `no-cache`: a lifetime of 0, so every use asks the server first (cheap with a 304),
///   and, like `must-revalidate`, no fallback on errors unless `stale-if-error` allows it.
/// - `must-revalidate`: once stale, the entry is never shown in place of an answer the
///   network failed to give, unless `stale-if-error` allows it.
/// - `stale-if-error=N`: a transport failure or a 5xx may be answered with the entry while it
///   is at most N seconds stale, even under `must-revalidate` or `no-cache` (RFC 5861).
///   It only ever widens what may be shown: without these two directives the client's own
///   fallback already covers every entry within `maxStale`, so it changes nothing there.
///   `networkOnly` never falls back, whatever the server says: the caller asked for the
///   network's answer or an error.
/// - `stale-while-revalidate=N`: up to N seconds past its lifetime, `cacheFirst` answers
///   with the entry at once and refreshes it in the background (not with `no-cache` or
///   `must-revalidate`, which demand confirmation before use).
/// - `no-store` is never recorded: such a response is not stored at all, for every
///   endpoint, and any earlier entry for its key is removed (see `CachedClient`).
///
/// The `staleWhileRevalidate` and `cacheOnly` policies and the first value of a stream are
/// the caller asking for the stored value by name, labelled with its date; they follow
/// `maxStale` alone.
public struct ServerFreshness: Sendable, Hashable {
    /// The response's freshness lifetime: `max-age`, else `Expires` minus `Date` (0 for an
    /// invalid `Expires` or `max-age`, which RFC 9111 treats as already expired); `nil`
    /// when the server stated neither, so the rule's `ttl` applies.
    public var lifetime: Double?
    /// How old the response already was when it arrived (RFC 9111 §4.2.3, the corrected
    /// initial age): the larger of `Age` plus the time in transit and how far the
    /// response's `Date` lay behind the client's clock. The entry's current age is this
    /// plus the time since `CacheEntry.date`.
    public var initialAge: Double
    /// `no-cache`: never used without the server's confirmation.
    public var noCache: Bool
    /// `must-revalidate`: once stale, never used without the server's confirmation.
    public var mustRevalidate: Bool
    /// `stale-if-error`: how many seconds past its lifetime the entry may still answer a
    /// call whose network request failed (transport failure or 5xx).
    public var staleIfError: Double?
    /// `stale-while-revalidate`: how many seconds past its lifetime `cacheFirst` may answer
    /// with the entry at once while it is refreshed in the background.
    public var staleWhileRevalidate: Double?

    /// Creates the record; `CachedClient` derives it from the response's header fields.
    public init(
        lifetime: Double? = nil, initialAge: Double = 0, noCache: Bool = false, mustRevalidate: Bool = false,
        staleIfError: Double? = nil, staleWhileRevalidate: Double? = nil
    ) {
        self.lifetime = lifetime
        self.initialAge = initialAge
        self.noCache = noCache
        self.mustRevalidate = mustRevalidate
        self.staleIfError = staleIfError
        self.staleWhileRevalidate = staleWhileRevalidate
    }
}
