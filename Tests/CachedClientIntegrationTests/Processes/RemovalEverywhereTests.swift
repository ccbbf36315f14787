import CachedClientTestSupport
import Foundation
import StoreTestSupport
import Testing

@_spi(Generated) @testable import CachedClientRuntime

/// A removal through another client on the same store, or through the store itself, is
/// honoured by every client's next read, from memory too, and by every write on its way.
@Suite("Removal is seen by every client")
struct RemovalEverywhereTests {
    enum Path: String, CaseIterable, Sendable {
        case anotherClient, theStoreItself
    }

    static func remove(_ path: Path, from store: any CacheStore, other: CachedClient) async throws {
        switch path {
        case .anotherClient: try await other.removeAll(partition: "user-1")
        case .theStoreItself: try await store.removeAll(partition: "user-1")
        }
    }

    @Test(arguments: Path.allCases)
    func aValueHeldInMemoryIsNotServedAfterARemovalElsewhere(_ path: Path) async throws {
        let store = MemoryCacheStore()
        let harness = Harness(store: store)
        let other = Harness(store: store).client
        _ = try await harness.value()
        #expect(try await harness.value(policy: .cacheOnly).isCached)  // held in memory
        #expect(harness.client.memory.count == 1)

        try await Self.remove(path, from: store, other: other)

        await #expect(throws: CachedClientError.notCached(endpoint: Fixtures.endpoint().name)) {
            try await harness.value(policy: .cacheOnly)
        }
        #expect(harness.client.memory.count == 0)
    }

    @Test(arguments: Path.allCases)
    func aWriteOnItsWayDoesNotPutBackWhatWasRemovedElsewhere(_ path: Path) async throws {
        let store = GatedStore()
        let harness = Harness(store: store)
        let other = Harness(store: store.inner).client
        let write = store.holdNextWrite()
        _ = try await harness.value(flushing: false)
        await write.started.wait()  // the write is under way, held at the gate

        try await Self.remove(path, from: store.inner, other: other)
        write.gate.open()
        await harness.client.flush()

        #expect(try await store.inner.entryCount() == 0)
        await #expect(throws: CachedClientError.notCached(endpoint: Fixtures.endpoint().name)) {
            try await harness.value(policy: .cacheOnly)
        }
    }

    @Test(arguments: Path.allCases)
    func aWriteWaitingItsTurnIsDroppedAfterARemovalElsewhere(_ path: Path) async throws {
        let store = GatedStore()
        let harness = Harness(store: store, memoryCacheLimit: 0)
        let other = Harness(store: store.inner).client
        let first = store.holdNextWrite()
        _ = try await harness.value(flushing: false)
        await first.started.wait()
        harness.transport.respond(status: 200, body: Fixtures.body(Fixtures.aliceLater))
        _ = try await harness.value(flushing: false)  // its write waits behind the first

        try await Self.remove(path, from: store.inner, other: other)
        // The pending write is not read once the store has seen a removal.
        await #expect(throws: CachedClientError.notCached(endpoint: Fixtures.endpoint().name)) {
            try await harness.value(policy: .cacheOnly, flushing: false)
        }
        first.gate.open()
        await harness.client.flush()

        #expect(try await store.inner.entryCount() == 0)
    }

    /// Another process signs the user out of the same folder (a real child process): the
    /// value this client holds in memory is not served afterwards.
    @Test func aSignOutInAnotherProcessIsHonouredByTheNextReadFromMemory() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "cachegen-removal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let harness = Harness(store: try FileCacheStore(directory: directory))
        _ = try await harness.value()
        #expect(try await harness.value(policy: .cacheOnly).isCached)
        #expect(harness.client.memory.count == 1)

        let child = try await runStoreWriter(["remove-partition", directory.path, "user-1"])

        #expect(child.status == 0, "\(child.errors)")
        await #expect(throws: CachedClientError.notCached(endpoint: Fixtures.endpoint().name)) {
            try await harness.value(policy: .cacheOnly)
        }
        #expect(harness.client.memory.count == 0)
    }
}
