import CachedClientRuntime
import CachedClientTesting
import Foundation
import Synchronization
import Testing

@testable import PostgresCacheStore

/// `CacheStoreConformance` from CachedClientTesting, every check, each on fresh stores (a
/// namespace of their own) on the real server, one at a time: 33 checks at once would hold more
/// connections than every other suite together.
@Suite(
    .enabled(if: TestDatabase.enabled, "CACHEGEN_POSTGRES_URL is not set: run through Scripts/with-postgres.sh"),
    .timeLimit(.minutes(3)), .serialized)
struct PostgresConformanceTests {
    @Test(arguments: CacheStoreConformance.checks)
    func keepsTheCacheStoreContract(_ check: CacheStoreConformance.Check) async throws {
        #expect(try await run(check) == .passed)
    }

    @Test(arguments: CacheStoreConformance.leasingChecks)
    func keepsTheLeasingContract(_ check: CacheStoreConformance.Check) async throws {
        #expect(try await run(check) == .passed)
    }

    @Test(arguments: CacheStoreConformance.outboxChecks)
    func keepsTheOutboxContract(_ check: CacheStoreConformance.Check) async throws {
        #expect(try await run(check) == .passed)
    }

    /// Runs a check with both limits supported, then shuts down every store it made (so their
    /// connections are back before the next check needs some).
    private func run(_ check: CacheStoreConformance.Check) async throws -> CacheStoreConformance.Outcome {
        let made = Mutex<[PostgresCacheStore]>([])
        let outcome: Result<CacheStoreConformance.Outcome, any Error>
        do {
            outcome = .success(
                try await check.run(
                    limits: [.maxAge, .maxBytes],
                    makeStore: { setup in
                        let store = try await TestDatabase.store(maxBytes: setup.maxBytes, maxAge: setup.maxAge, now: setup.now)
                        made.withLock { $0.append(store) }
                        return store
                    },
                    trim: { try await $0.trim() }))
        } catch {
            outcome = .failure(error)
        }
        for store in made.withLock({ $0 }) { await store.shutdown() }
        return try outcome.get()
    }
}
