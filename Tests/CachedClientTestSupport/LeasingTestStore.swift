import FixtureServerSupport
import Foundation

@testable import CachedClientRuntime
@_spi(RuntimeLayers) import CachedClientValues

/// An in-process `CacheStoreLeasing` over a `MemoryCacheStore`, standing in for a store shared
/// by many processes (two `CachedClient`s on it act as two processes). Claims expire by the
/// clock it is given; it counts claims and releases, and can be made to fail claims.
package final class LeasingTestStore: CacheStoreLeasing, ForwardingStore {
    package let memory = MemoryCacheStore()
    package var inner: any CacheStore { memory }
    private let now: @Sendable () -> Date
    private let state = Locked(State())
    /// Fires on every release, so a test can wait for a holder to let go.
    private let releases = Locked<[CheckedContinuation<Void, Never>]>([])

    private struct State {
        package var claims: [String: (token: String, expires: Date)] = [:]
        package var lastToken = 0
        package var claimCount = 0
        package var grantedCount = 0
        package var releaseCount = 0
        package var failClaims = false
        package var releasedWithEntry: [Bool] = []
    }

    package init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    package func entry(for key: CacheKey) async throws -> CacheEntry? { memory.entry(for: key) }
    package func setEntry(_ entry: CacheEntry, for key: CacheKey) async throws { memory.setEntry(entry, for: key) }

    package func claim(_ key: CacheKey, for duration: TimeInterval) async throws -> CacheLease? {
        let now = self.now()
        return try state.withLock { state in
            state.claimCount += 1
            if state.failClaims { throw StoreFailure() }
            if let held = state.claims[key.text], held.expires > now { return nil }
            state.lastToken += 1
            state.grantedCount += 1
            let token = "t\(state.lastToken)"
            state.claims[key.text] = (token, now.addingTimeInterval(duration))
            return CacheLease(key: key, token: token)
        }
    }

    package func release(_ lease: CacheLease) async throws {
        let hasEntry = memory.entry(for: lease.key) != nil
        state.withLock { state in
            state.releasedWithEntry.append(hasEntry)
            state.releaseCount += 1
            if state.claims[lease.key.text]?.token == lease.token { state.claims[lease.key.text] = nil }
        }
        for waiter in releases.withLock({ waiters in defer { waiters = [] }; return waiters }) { waiter.resume() }
    }

    /// Claims tried, granted, and releases made so far.
    package var claimCount: Int { state.withLock { $0.claimCount } }
    package var grantedCount: Int { state.withLock { $0.grantedCount } }
    package var releaseCount: Int { state.withLock { $0.releaseCount } }
    /// For each release so far, whether the key had an entry when it came.
    package var releasedWithEntry: [Bool] { state.withLock { $0.releasedWithEntry } }
    /// Whether a live claim holds `key`.
    package func isClaimed(_ key: CacheKey) -> Bool {
        let now = self.now()
        return state.withLock { $0.claims[key.text].map { $0.expires > now } ?? false }
    }

    /// Makes later claims throw, or work again.
    package func setFailClaims(_ fail: Bool) { state.withLock { $0.failClaims = fail } }

    /// Returns once `releaseCount` has reached `count`.
    package func waitForReleases(_ count: Int) async {
        while releaseCount < count {
            await withCheckedContinuation { continuation in
                let done = releases.withLock { waiters -> Bool in
                    if releaseCount >= count { return true }
                    waiters.append(continuation)
                    return false
                }
                if done { continuation.resume() }
            }
        }
    }
}
