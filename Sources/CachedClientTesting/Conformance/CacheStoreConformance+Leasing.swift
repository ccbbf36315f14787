import CachedClientRuntime
import Foundation

// The rules of `CacheStoreLeasing`: one holder per key at a time, claims that expire and
// releases that end only their own claim.
//
// Expiry is judged by the `Setup` clock, which the checks move; a store that judges it by
// another clock (a database server's) gets claims of a fifth of a second and is asked again,
// every 20 ms of real time for up to 10 s, until the claim has expired there too.
extension CacheStoreConformance {
    static let leasing: [Check] = [
        Check("claimIsExclusive", "While a claim lives, claiming the same key text returns nil; other keys claim freely.") { context in
            let store = try await context.makeLeasingStore()
            let key = Keys.key()
            let lease = try await store.claim(key, for: 60)
            try context.expect(lease != nil, "the first claim of a key returned nil")
            try context.expect(lease?.key == key, "the lease names another key than the one claimed")
            try context.expect(try await store.claim(key, for: 60) == nil, "a second claim of a held key succeeded")
            try context.expect(try await store.claim(Keys.key(suffix: "x"), for: 60) != nil, "a claim of a key one byte longer than a held one failed")
            try context.expect(try await store.claim(Keys.key(partition: "bob"), for: 60) != nil, "a claim of another partition's key failed")
        },
        Check("concurrentClaimsHaveOneWinner", "Of 32 tasks claiming one key at once, exactly one gets a lease.") { context in
            let store = try await context.makeLeasingStore()
            for round in 0..<4 {
                let key = Keys.key(query: "round=\(round)")
                let winners = try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<32 { group.addTask { try await store.claim(key, for: 60) == nil ? 0 : 1 } }
                    return try await group.reduce(0, +)
                }
                try context.expect(winners == 1, "\(winners) of 32 concurrent claims of one key succeeded (round \(round))")
            }
        },
        Check("releaseLetsTheNextClaim", "After release, the key can be claimed again, with a lease of another token.") { context in
            let store = try await context.makeLeasingStore()
            let key = Keys.key()
            guard let first = try await store.claim(key, for: 60) else { throw context.failure("the first claim of a key returned nil") }
            try await store.release(first)
            let second = try await store.claim(key, for: 60)
            try context.expect(second != nil, "a claim after release returned nil")
            try context.expect(second?.token != first.token, "two claims of a key got the same token \(first.token)")
            try await store.release(first)  // released twice: no error, and the second claim stays
            try context.expect(try await store.claim(key, for: 60) == nil, "releasing the first lease again ended the second claim")
        },
        Check("anExpiredClaimCanBeTaken", "A claim never released (its holder died) stops blocking others once its duration has passed.") { context in
            let store = try await context.makeLeasingStore()
            let key = Keys.key()
            try context.expect(try await store.claim(key, for: 0.2) != nil, "the first claim of a key returned nil")
            try context.expect(try await store.claim(key, for: 60) == nil, "a second claim of a held key succeeded")
            context.clock.advance(by: 1)
            try context.expect(try await claimAfterExpiry(store, key) != nil, "a claim 0.2 s long still blocked others after 10 s")
        },
        Check(
            "releasingAnExpiredLeaseKeepsTheNewHolder",
            "Releasing a lease whose claim expired and was taken by another holder leaves the new claim in place."
        ) { context in
            let store = try await context.makeLeasingStore()
            let key = Keys.key()
            guard let dead = try await store.claim(key, for: 0.2) else { throw context.failure("the first claim of a key returned nil") }
            context.clock.advance(by: 1)
            guard try await claimAfterExpiry(store, key) != nil else {
                throw context.failure("a claim 0.2 s long still blocked others after 10 s")
            }
            try await store.release(dead)
            try context.expect(try await store.claim(key, for: 60) == nil, "releasing an expired lease ended the claim that replaced it")
        },
        Check("claimsAreNotEntries", "A claim is not an entry: it is not read, counted or sized, and removals leave the store usable.") { context in
            let store = try await context.makeLeasingStore()
            let key = Keys.key()
            let lease = try await store.claim(key, for: 60)
            try context.expect(lease != nil, "the first claim of a key returned nil")
            try await context.expectEntry(store, key, nil, "a claimed key with no entry")
            try await context.expectCount(store, 0, "entryCount() with one claim and no entry")
            try await context.expectEmptySize(store, "totalSize() with one claim and no entry")
            let entry = Entries.entry("answer", date: context.clock.now)
            try await store.setEntry(entry, for: key)
            if let lease { try await store.release(lease) }
            try await context.expectEntry(store, key, entry, "the holder's answer after release")
            try await store.removeAll()
            try context.expect(try await store.claim(key, for: 60) != nil, "a released key could not be claimed after removeAll()")
        },
    ]

    /// Claims `key` once its earlier claim has expired: at once by the `Setup` clock, or by the
    /// store's own clock within 10 s of real time.
    static func claimAfterExpiry(_ store: any CacheStoreLeasing, _ key: CacheKey) async throws -> CacheLease? {
        let deadline = Date().addingTimeInterval(10)
        while true {
            if let lease = try await store.claim(key, for: 60) { return lease }
            guard Date() < deadline else { return nil }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
    }
}
