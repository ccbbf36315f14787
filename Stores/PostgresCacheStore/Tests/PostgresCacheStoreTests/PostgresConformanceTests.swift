import CachedClientRuntime
import CachedClientTesting
import Foundation
import Synchronization
import Testing

@testable import PostgresCacheStore

/// `CacheStoreConformance` from CachedClientTesting, every check, each on fresh stores (a
/// namespace of their own) on the real server.
@Suite(.enabled(if: TestDatabase.enabled, "CACHEGEN_POSTGRES_URL is not set: run through Scripts/with-postgres.sh"))
struct PostgresConformanceTests {
    @Test(arguments: CacheStoreConformance.checks)
    func keepsTheCacheStoreContract(_ check: CacheStoreConformance.Check) async throws {
        #expect(try await run(check) == .passed)
    }

    @Test(arguments: CacheStoreConformance.leasingChecks)
    func keepsTheLeasingContract(_ check: CacheStoreConformance.Check) async throws {
        #expect(try await run(check) == .passed)
    }

    /// Runs a check with both limits supported, shutting down every store it made.
    private func run(_ check: CacheStoreConformance.Check) async throws -> CacheStoreConformance.Outcome {
        let made = Mutex<[PostgresCacheStore]>([])
        defer {
            let stores = made.withLock { $0 }
            Task { for store in stores { await store.shutdown() } }
        }
        return try await check.run(
            limits: [.maxAge, .maxBytes],
            makeStore: { setup in
                let store = try await TestDatabase.store(maxBytes: setup.maxBytes, maxAge: setup.maxAge, now: setup.now)
                made.withLock { $0.append(store) }
                return store
            },
            trim: { try await $0.trim() })
    }
}
