import CachedClientRuntime
import Foundation
import PostgresNIO
import Testing

@testable import PostgresCacheStore

/// Tables made on first use, migrated forward, and left alone when newer.
@Suite(
    .enabled(if: TestDatabase.enabled, "CACHEGEN_POSTGRES_URL is not set: run through Scripts/with-postgres.sh"),
    .timeLimit(.minutes(3)))
struct PostgresCacheSchemaTests {
    private func version(_ namespace: String) async throws -> Int {
        try await TestDatabase.withClient { client in
            try await TestDatabase.integer("SELECT version::bigint FROM \(unescaped: namespace)_schema", on: client)
        }
    }

    private func tableExists(_ name: String) async throws -> Bool {
        try await TestDatabase.withClient { client in
            try await TestDatabase.integer("SELECT count(*)::bigint FROM pg_tables WHERE tablename = \(name)", on: client) == 1
        }
    }

    /// A database at version 1 (before leases) is brought to the current version on first use,
    /// keeping its entries.
    @Test func anOlderLayoutIsMigratedAndKeepsItsEntries() async throws {
        let namespace = TestDatabase.namespace()
        let old = try await TestDatabase.store(namespace: namespace, schemaVersion: 1)
        try await old.setEntry(testEntry("kept"), for: testKey("a"))
        await old.shutdown()
        #expect(try await version(namespace) == 1)
        #expect(try await tableExists(namespace + "_leases") == false)

        try await TestDatabase.withStore(namespace: namespace) { store async throws in
            #expect(try await store.entry(for: testKey("a")) == testEntry("kept"))
            #expect(try await store.entryCount() == 1)
        }
        #expect(try await version(namespace) == PostgresCacheSchema.currentVersion)
        #expect(try await tableExists(namespace + "_leases"))
    }

    /// A database at version 2 (before the outbox) gains `<ns>_outbox` and its sequences on
    /// first use, keeping its entries, and queues mutations.
    @Test func aVersion2LayoutGainsTheOutbox() async throws {
        let namespace = TestDatabase.namespace()
        let old = try await TestDatabase.store(namespace: namespace, schemaVersion: 2)
        try await old.setEntry(testEntry("kept"), for: testKey("a"))
        await old.shutdown()
        #expect(try await tableExists(namespace + "_outbox") == false)

        try await TestDatabase.withStore(namespace: namespace) { store async throws in
            #expect(try await store.entry(for: testKey("a")) == testEntry("kept"))
            let queued = try await store.enqueueMutation(testMutation("a"))
            #expect(try await store.queuedMutations(partition: "user-1") == [queued])
        }
        #expect(try await version(namespace) == PostgresCacheSchema.currentVersion)
        #expect(try await tableExists(namespace + "_outbox"))
        #expect(try await tableExists(namespace + "_outbox_sequences"))
    }

    /// Tables of a newer build are refused, and not altered.
    @Test func aNewerLayoutIsRefusedAndLeftAlone() async throws {
        let namespace = TestDatabase.namespace()
        try await TestDatabase.withStore(namespace: namespace) { store async throws in
            try await store.setEntry(testEntry("theirs"), for: testKey("a"))
        }
        try await TestDatabase.execute("UPDATE \(unescaped: namespace)_schema SET version = 99")
        let store = try PostgresCacheStore(
            configuration: try PostgresCacheStore.configuration(url: try TestDatabase.requireURL()), namespace: namespace)
        await #expect(throws: PostgresCacheStoreError.newerSchema(found: 99, known: PostgresCacheSchema.currentVersion)) {
            try await store.entry(for: testKey("a"))
        }
        await store.shutdown()
        #expect(try await version(namespace) == 99)
        #expect(try await TestDatabase.withClient { client in
            try await TestDatabase.integer("SELECT count(*)::bigint FROM \(unescaped: namespace)_entries", on: client)
        } == 1)
    }

    /// Many stores opening one namespace at the same moment make the tables once.
    @Test func storesOpeningAtOnceMakeTheTablesOnce() async throws {
        let namespace = TestDatabase.namespace()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    try await TestDatabase.withStore(namespace: namespace) { store async throws in
                        try await store.setEntry(testEntry("\(index)"), for: testKey("\(index)"))
                    }
                }
            }
            try await group.waitForAll()
        }
        try await TestDatabase.withStore(namespace: namespace) { store async throws in
            #expect(try await store.entryCount() == 8)
        }
        #expect(try await version(namespace) == PostgresCacheSchema.currentVersion)
    }
}
