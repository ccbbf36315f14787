import CachedClientTestSupport
import FixtureServerSupport
import Foundation
import StoreTestSupport
import Testing

@_spi(Generated) @testable import CachedClientRuntime

/// A removal through the store, another client or another process hides only what it covers:
/// a pending write or a value held in memory outside its scope stays readable, and the write
/// lands; inside its scope the removal still wins (issue 25, item 2).
@Suite("A removal hides only what it covers")
struct ScopedRemovalTests {
    /// The two built-in stores, each fresh in its own folder or memory.
    enum StoreKind: String, CaseIterable, Sendable {
        case file, memory

        func make() throws -> (store: any CacheStore, directory: URL?) {
            switch self {
            case .file:
                let directory = FileManager.default.temporaryDirectory.appending(path: "cachegen-scoped-\(UUID().uuidString)")
                return (try FileCacheStore(directory: directory), directory)
            case .memory:
                return (MemoryCacheStore(), nil)
            }
        }
    }

    /// Where the removal of alice's partition comes from.
    enum Remover: String, CaseIterable, Sendable {
        case theStore, anotherClient, anotherProcess
    }

    static func removeAlice(_ remover: Remover, store: any CacheStore, directory: URL?) async throws {
        switch remover {
        case .theStore:
            try await store.removeAll(partition: "alice")
        case .anotherClient:
            try await Harness(store: store, partition: "alice").client.removeAll(partition: "alice")
        case .anotherProcess:
            let directory = try #require(directory, "another process needs a store folder")
            let child = try await runStoreWriter(["remove-partition", directory.path, "alice"])
            #expect(child.status == 0, "\(child.errors)")
        }
    }

    static let notCached = CachedClientError.notCached(endpoint: Fixtures.endpoint().name)

    /// The user's case: alice and bob share one store, each with a write still on its way; the
    /// app signs alice out through the store. Bob's answer stays readable (from memory and,
    /// with no memory, from his pending write) and lands; alice's does neither.
    @Test(arguments: StoreKind.allCases, [100, 0])
    func aSignOutOfAliceLeavesBobsPendingWriteReadable(_ kind: StoreKind, memoryCacheLimit: Int) async throws {
        let (inner, directory) = try kind.make()
        defer { directory.map { try? FileManager.default.removeItem(at: $0) } }
        try await Self.signOutWithBothWritesPending(inner, memoryCacheLimit: memoryCacheLimit) {
            try await Self.removeAlice(.theStore, store: inner, directory: directory)
        }
    }

    /// The same, with alice signed out of the folder by another process (`StoreWriter`).
    @Test(arguments: [100, 0])
    func aSignOutOfAliceInAnotherProcessLeavesBobsPendingWriteReadable(memoryCacheLimit: Int) async throws {
        let (inner, directory) = try StoreKind.file.make()
        defer { directory.map { try? FileManager.default.removeItem(at: $0) } }
        try await Self.signOutWithBothWritesPending(inner, memoryCacheLimit: memoryCacheLimit) {
            try await Self.removeAlice(.anotherProcess, store: inner, directory: directory)
        }
    }

    static func signOutWithBothWritesPending(
        _ inner: any CacheStore, memoryCacheLimit: Int, signOutAlice: () async throws -> Void
    ) async throws {
        let store = GatedStore(wrapping: inner)
        let alice = Harness(store: store, partition: "alice", memoryCacheLimit: memoryCacheLimit)
        let bob = Harness(store: store, partition: "bob", memoryCacheLimit: memoryCacheLimit)
        let aliceWrite = store.holdNextWrite()
        _ = try await alice.value(flushing: false)
        await aliceWrite.started.wait()
        let bobWrite = store.holdNextWrite()
        _ = try await bob.value(flushing: false)
        // Alice's write holds the key chain of her key only: bob's reaches the store too.
        await bobWrite.started.wait()

        try await signOutAlice()

        #expect(try await bob.value(policy: .cacheOnly, flushing: false).value == Fixtures.alice)
        await #expect(throws: Self.notCached) { try await alice.value(policy: .cacheOnly, flushing: false) }
        aliceWrite.gate.open()
        bobWrite.gate.open()
        await alice.client.flush()
        await bob.client.flush()
        #expect(try await inner.entry(for: bob.key()) != nil, "bob's write did not land")
        #expect(try await inner.entry(for: alice.key()) == nil, "alice's write landed after her sign-out")
        #expect(try await bob.value(policy: .cacheOnly).isCached)
    }

    /// Bob's value held in memory is served from memory (no store read) after alice's
    /// partition is removed, by the store, another client or another process.
    @Test(arguments: StoreKind.allCases, Remover.allCases)
    func aValueOfAnotherPartitionStaysInMemory(_ kind: StoreKind, remover: Remover) async throws {
        guard kind == .file || remover != .anotherProcess else { return }
        let (inner, directory) = try kind.make()
        defer { directory.map { try? FileManager.default.removeItem(at: $0) } }
        let store = GatedStore(wrapping: inner)
        let bob = Harness(store: store, partition: "bob")
        _ = try await bob.value()
        #expect(bob.client.memory.count == 1)
        let reads = store.reads

        try await Self.removeAlice(remover, store: inner, directory: directory)

        #expect(try await bob.value(policy: .cacheOnly).isCached)
        #expect(store.reads == reads, "bob's value was read again from the store")
        #expect(bob.client.memory.count == 1)
    }

    /// An endpoint's path removed through the store takes that path's values from memory and
    /// keeps the endpoint's other paths and other endpoints; an endpoint removed takes that
    /// endpoint's and keeps the others.
    @Test(arguments: StoreKind.allCases)
    func endpointAndPathRemovalsKeepWhatTheyDoNotName(_ kind: StoreKind) async throws {
        let (inner, directory) = try kind.make()
        defer { directory.map { try? FileManager.default.removeItem(at: $0) } }
        let store = GatedStore(wrapping: inner)
        let bob = Harness(store: store, partition: "bob")
        let accounts = Fixtures.endpoint()
        let balances = Fixtures.endpoint("AccountRepository.getBalance")
        func read(_ endpoint: Endpoint, id: String, policy: CachePolicy? = nil) async throws -> CachedValue<Account> {
            try await bob.client.settledAccount(id: id, endpoint: endpoint, policy: policy)
        }
        for (endpoint, id) in [(accounts, "1"), (accounts, "2"), (balances, "1")] { _ = try await read(endpoint, id: id) }
        #expect(bob.client.memory.count == 3)
        var reads = store.reads

        let path = bob.key(accounts, Fixtures.request(id: "1")).path
        try await inner.removeAll(endpoint: accounts.name, path: path)

        await #expect(throws: Self.notCached) { try await read(accounts, id: "1", policy: .cacheOnly) }
        reads = store.reads
        #expect(try await read(accounts, id: "2", policy: .cacheOnly).isCached)
        #expect(try await read(balances, id: "1", policy: .cacheOnly).isCached)
        #expect(store.reads == reads, "another path's or endpoint's value was read again from the store")

        try await inner.removeAll(endpoint: balances.name)

        await #expect(throws: CachedClientError.notCached(endpoint: balances.name)) {
            try await read(balances, id: "1", policy: .cacheOnly)
        }
        reads = store.reads
        #expect(try await read(accounts, id: "2", policy: .cacheOnly).isCached)
        #expect(store.reads == reads, "another endpoint's value was read again from the store")
    }

    /// A removal the store's log no longer holds counts as a removal of everything: bob's
    /// pending write, readable after one removal of alice's partition, is hidden once so many
    /// more were made that the log has overflowed, and does not land.
    @Test(arguments: StoreKind.allCases)
    func removalsPastTheLogCountAsEverything(_ kind: StoreKind) async throws {
        let (inner, directory) = try kind.make()
        defer { directory.map { try? FileManager.default.removeItem(at: $0) } }
        let store = GatedStore(wrapping: inner)
        let bob = Harness(store: store, partition: "bob", memoryCacheLimit: 0)
        let write = store.holdNextWrite()
        _ = try await bob.value(flushing: false)
        await write.started.wait()

        try await inner.removeAll(partition: "alice")
        #expect(try await bob.value(policy: .cacheOnly, flushing: false).isCached)

        // Both logs hold 64 removals at least and 127 moves of the count at most.
        for _ in 0..<130 { try await inner.removeAll(partition: "alice") }
        #expect(inner.removals(since: 0) == nil)
        await #expect(throws: Self.notCached) { try await bob.value(policy: .cacheOnly, flushing: false) }
        write.gate.open()
        await bob.client.flush()
        #expect(try await inner.entry(for: bob.key()) == nil, "a write staged before the log's oldest removal landed")
    }

    /// A store that says nothing about its removals (`removals(since:)` left to the default)
    /// keeps today's rule: any removal hides every pending write and held value.
    @Test func aStoreThatCannotSayKeepsTheRuleForEverything() async throws {
        let inner = SilentStore()
        let store = GatedStore(wrapping: inner)
        let bob = Harness(store: store, partition: "bob")
        let write = store.holdNextWrite()
        _ = try await bob.value(flushing: false)
        await write.started.wait()

        try await inner.removeAll(partition: "alice")

        await #expect(throws: Self.notCached) { try await bob.value(policy: .cacheOnly, flushing: false) }
        #expect(bob.client.memory.count == 0)
        write.gate.open()
        await bob.client.flush()
        #expect(try await inner.entry(for: bob.key()) == nil)
    }
}

/// A `MemoryCacheStore` behind the default `removals(since:)`: it cannot say what it removed.
final class SilentStore: ForwardingStore {
    let memory = MemoryCacheStore()
    var inner: any CacheStore { memory }
    func entry(for key: CacheKey) async throws -> CacheEntry? { memory.entry(for: key) }
    func setEntry(_ entry: CacheEntry, for key: CacheKey) async throws { memory.setEntry(entry, for: key) }
    func removals(since count: UInt64) -> [RemovalScope]? { nil }
}
