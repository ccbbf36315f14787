import Foundation

// The one freshness rule: calls (`cacheFirst`, fallbacks, background revalidation) and live
// queries (`CachedQuery.isStale`) decide fresh or stale here, server freshness included.
extension CacheRule {
    /// Seconds an answer is fresh for: the server's lifetime under `ttlFromServer` (0 for
    /// `no-cache`, the rule's `ttl` when the server stated none), else the rule's `ttl`.
    package func freshnessLifetime(server: ServerFreshness?) -> Double {
        guard ttlFromServer, let server else { return ttl }
        return server.noCache ? 0 : server.lifetime ?? ttl
    }

    /// An answer's age as freshness counts it: under `ttlFromServer` the age it arrived with
    /// plus the time since it was stored, else the time since it was stored.
    package func currentAge(storedAt date: Date, server: ServerFreshness?, at now: Date) -> Double {
        let resident = now.timeIntervalSince(date)
        guard ttlFromServer, let server else { return resident }
        return server.initialAge + resident
    }

    /// Whether an answer stored at `date`, with what the server said of its freshness, is
    /// fresh at `now`. Never past `maxStale`, and never for an answer dated in the future (the
    /// clock was set back), whose age is unknown.
    package func isFresh(storedAt date: Date, server: ServerFreshness?, at now: Date) -> Bool {
        let resident = now.timeIntervalSince(date)
        guard resident >= 0, resident < maxStale else { return false }
        return currentAge(storedAt: date, server: server, at: now) < freshnessLifetime(server: server)
    }

    /// Whether an answer stored at `date` may stand in for one the network failed to give (a
    /// transport failure or a 5xx): within `maxStale`, and, under `ttlFromServer`, not
    /// forbidden by `must-revalidate` or `no-cache` once stale unless `stale-if-error` covers it.
    package func allowsFallback(storedAt date: Date, server: ServerFreshness?, at now: Date) -> Bool {
        guard now.timeIntervalSince(date) < maxStale else { return false }
        guard ttlFromServer, let server, server.noCache || server.mustRevalidate else { return true }
        if isFresh(storedAt: date, server: server, at: now) { return true }
        guard let allowed = server.staleIfError else { return false }
        return currentAge(storedAt: date, server: server, at: now) - freshnessLifetime(server: server) <= allowed
    }

    /// Whether `cacheFirst` may answer with a stale answer stored at `date` at once and
    /// refresh it in the background: within the server's `stale-while-revalidate` window and
    /// `maxStale`.
    package func allowsBackgroundRevalidation(storedAt date: Date, server: ServerFreshness?, at now: Date) -> Bool {
        guard ttlFromServer, let server, let window = server.staleWhileRevalidate, !server.noCache, !server.mustRevalidate
        else { return false }
        let resident = now.timeIntervalSince(date)
        guard resident >= 0, resident < maxStale else { return false }
        return currentAge(storedAt: date, server: server, at: now) <= freshnessLifetime(server: server) + window
    }
}
