@_spi(Generated) import CachedClientValues
import Foundation

// The freshness rule (`Values/CacheRule+Freshness.swift`) applied to a stored entry: its date
// and what the server said of its freshness.
extension CacheRule {
    /// Seconds `entry` is fresh for.
    package func freshnessLifetime(of entry: CacheEntry) -> Double {
        freshnessLifetime(server: entry.freshness)
    }

    /// The entry's age as freshness counts it.
    package func currentAge(of entry: CacheEntry, at now: Date) -> Double {
        currentAge(storedAt: entry.date, server: entry.freshness, at: now)
    }

    /// Whether `cacheFirst` may answer with `entry` without the network.
    package func isFresh(_ entry: CacheEntry, at now: Date) -> Bool {
        isFresh(storedAt: entry.date, server: entry.freshness, at: now)
    }

    /// Whether `entry` may stand in for an answer the network failed to give.
    package func allowsFallback(to entry: CacheEntry, at now: Date) -> Bool {
        allowsFallback(storedAt: entry.date, server: entry.freshness, at: now)
    }

    /// Whether `cacheFirst` may answer with a stale `entry` at once and refresh it in the background.
    package func allowsBackgroundRevalidation(of entry: CacheEntry, at now: Date) -> Bool {
        allowsBackgroundRevalidation(storedAt: entry.date, server: entry.freshness, at: now)
    }

    /// Whether `entry` may be shown at all (within `maxStale`). An entry dated in the future
    /// (the clock was set back) is of unknown age: still shown, but never counted as fresh.
    package func allowsShowing(_ entry: CacheEntry, at now: Date) -> Bool {
        now.timeIntervalSince(entry.date) < maxStale
    }
}
