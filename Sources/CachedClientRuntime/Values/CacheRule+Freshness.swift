import Foundation

// The one freshness rule: calls (`cacheFirst`, fallbacks, background revalidation) and live
// queries (`CachedQuery.isStale`) decide fresh or stale here, server freshness included.
extension CacheRule {
    /// Seconds an answer is fresh for: the server's lifetime under `ttlFromServer` (0 for
    /// `no-cache`, the rule's `ttl` when the server stated none), else the rule's `ttl`.
    func freshnessLifetime(server: ServerFreshness?) -> Double {
        guard ttlFromServer, let server else { return ttl }
        return server.noCache ? 0 : server.lifetime ?? ttl
    }

    /// An answer's age as freshness counts it: under `ttlFromServer` the age it arrived with
    /// plus the time since it was stored, else the time since it was stored.
    func currentAge(storedAt date: Date, server: ServerFreshness?, at now: Date) -> Double {
        let resident = now.timeIntervalSince(date)
        guard ttlFromServer, let server else { return resident }
        return server.initialAge + resident
    }

    /// Whether an answer stored at `date`, with what the server said of its freshness, is
    /// fresh at `now`. Never past `maxStale`, and never for an answer dated in the future (the
    /// clock was set back), whose age is unknown.
    func isFresh(storedAt date: Date, server: ServerFreshness?, at now: Date) -> Bool {
        let resident = now.timeIntervalSince(date)
        guard resident >= 0, resident < maxStale else { return false }
        return currentAge(storedAt: date, server: server, at: now) < freshnessLifetime(server: server)
    }

    /// Seconds `entry` is fresh for.
    func freshnessLifetime(of entry: CacheEntry) -> Double {
        freshnessLifetime(server: entry.freshness)
    }

    /// The entry's age as freshness counts it.
    func currentAge(of entry: CacheEntry, at now: Date) -> Double {
        currentAge(storedAt: entry.date, server: entry.freshness, at: now)
    }

    /// Whether `cacheFirst` may answer with `entry` without the network.
    func isFresh(_ entry: CacheEntry, at now: Date) -> Bool {
        isFresh(storedAt: entry.date, server: entry.freshness, at: now)
    }

    /// Whether `entry` may stand in for an answer the network failed to give (a transport
    /// failure or a 5xx): within `maxStale`, and, under `ttlFromServer`, not forbidden by
    /// `must-revalidate` or `no-cache` once stale unless `stale-if-error` covers it.
    func allowsFallback(to entry: CacheEntry, at now: Date) -> Bool {
        guard now.timeIntervalSince(entry.date) < maxStale else { return false }
        guard ttlFromServer, let server = entry.freshness, server.noCache || server.mustRevalidate else { return true }
        if isFresh(entry, at: now) { return true }
        guard let allowed = server.staleIfError else { return false }
        return currentAge(of: entry, at: now) - freshnessLifetime(of: entry) <= allowed
    }

    /// Whether `cacheFirst` may answer with a stale `entry` at once and refresh it in the
    /// background: within the server's `stale-while-revalidate` window and `maxStale`.
    func allowsBackgroundRevalidation(of entry: CacheEntry, at now: Date) -> Bool {
        guard ttlFromServer, let server = entry.freshness, let window = server.staleWhileRevalidate,
            !server.noCache, !server.mustRevalidate
        else { return false }
        let resident = now.timeIntervalSince(entry.date)
        guard resident >= 0, resident < maxStale else { return false }
        return currentAge(of: entry, at: now) <= freshnessLifetime(of: entry) + window
    }
}
