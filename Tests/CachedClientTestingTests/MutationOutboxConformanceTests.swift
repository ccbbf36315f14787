import CachedClientTestSupport
import CachedClientTesting
import Foundation
import Testing

@testable import CachedClientRuntime

/// Both built-in stores run `CacheStoreConformance.outboxChecks`, one test per check (the
/// PostgreSQL store runs them in its own package); a store without an outbox fails them.
@Suite("MutationOutbox conformance")
struct MutationOutboxConformanceTests {
    @Test(arguments: CacheStoreConformance.outboxChecks)
    func fileCacheStore(_ check: CacheStoreConformance.Check) async throws {
        let parent = FileManager.default.temporaryDirectory.appending(path: "cachegen-outbox-conformance-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        let outcome = try await check.run { setup in
            try FileCacheStore(directory: parent.appending(path: UUID().uuidString), now: setup.now)
        }
        #expect(outcome == .passed)
    }

    @Test(arguments: CacheStoreConformance.outboxChecks)
    func memoryCacheStore(_ check: CacheStoreConformance.Check) async throws {
        #expect(try await check.run { _ in MemoryCacheStore() } == .passed)
    }

    @Test func checkNamesAreUniqueAndTheCountIsKnown() {
        let ids = (CacheStoreConformance.checks + CacheStoreConformance.leasingChecks + CacheStoreConformance.outboxChecks).map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(CacheStoreConformance.outboxChecks.count == 9)
    }

    /// A store that does not adopt `MutationOutbox` fails every check, saying so.
    @Test func aStoreWithoutAnOutboxFailsSayingSo() async throws {
        let check = try #require(CacheStoreConformance.outboxChecks.first)
        await #expect {
            try await check.run { setup in LeasingTestStore(now: setup.now) }
        } throws: { error in
            (error as? CacheStoreConformance.Failure)?.message == "LeasingTestStore does not adopt MutationOutbox"
        }
    }
}
