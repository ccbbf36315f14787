import CachedClientTestSupport
import Foundation
import Testing

@_spi(Generated) import CachedClientCalls
import CachedClientFileStore
import CachedClientHTTP
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The in-memory layer of decoded values in front of the store: repeated hits read no
/// store and decode nothing, and it never answers what the store would not.
@Suite("CachedClient in-memory layer")
struct CachedClientMemoryLayerTests {
    @Test func aRepeatedHitReadsTheStoreOnceAndDecodesOnce() async throws {
        let store = FlakyStore()
        let harness = Harness(store: store)
        let decodes = CountedAccount.decodes.withLock { $0 }

        let first: CachedValue<CountedAccount> = try await harness.client.value(
            for: Fixtures.request(), endpoint: Fixtures.endpoint())
        await harness.client.flush()  // the `.store` event comes when the entry has landed
        let readsAfterFetch = store.reads
        for _ in 0..<10 {
            let hit: CachedValue<CountedAccount> = try await harness.client.value(
                for: Fixtures.request(), endpoint: Fixtures.endpoint(), policy: .cacheFirst)
            #expect(hit == .cached(value: CountedAccount(id: "1", balance: 10), date: Fixtures.start))
        }

        #expect(first == .fresh(value: CountedAccount(id: "1", balance: 10)))
        #expect(store.reads == readsAfterFetch)
        #expect(store.writes == 1)
        #expect(CountedAccount.decodes.withLock { $0 } == decodes + 1)
        #expect(harness.transport.requestCount == 1)
        #expect(harness.events.kinds == [.store] + Array(repeating: .hit, count: 10))
    }

    @Test func anEntryReadFromDiskIsDecodedOnceThenServedFromMemory() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "cachegen-memory-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = TestClock()
        let writer = Harness(store: try FileCacheStore(directory: directory, now: clock.function))
        _ = try await writer.value()

        // A relaunch: a new client over the same folder; the first hit reads the file.
        let store = FlakyStore(wrapping: try FileCacheStore(directory: directory, now: clock.function))
        let client = CachedClient(
            baseURL: Fixtures.baseURL, store: store, transport: StubTransport(json: Fixtures.aliceLater),
            partition: "user-1", now: clock.function)
        for _ in 0..<5 {
            let value: CachedValue<Account> = try await client.value(
                for: Fixtures.request(), endpoint: Fixtures.endpoint(), policy: .cacheOnly)
            #expect(value == .cached(value: Fixtures.alice, date: Fixtures.start))
        }
        #expect(store.reads == 1)
    }

    @Test func heldEntriesKeepTheStoredDateSoTTLAndMaxStaleHoldExactly() async throws {
        let harness = Harness()
        _ = try await harness.value()

        harness.clock.advance(by: Fixtures.ttl - 1)
        #expect(try await harness.value(policy: .cacheFirst) == .cached(value: Fixtures.alice, date: Fixtures.start))
        #expect(harness.transport.requestCount == 1)

        harness.clock.advance(by: 1)  // at ttl: cacheFirst asks the network, which is gone
        harness.transport.fail()
        #expect(try await harness.value(policy: .cacheFirst) == .cached(value: Fixtures.alice, date: Fixtures.start))
        #expect(harness.transport.requestCount == 2)

        harness.clock.advance(by: Fixtures.maxStale - Fixtures.ttl - 1)  // just within maxStale
        #expect(try await harness.value(policy: .cacheOnly).isCached)
        harness.clock.advance(by: 1)  // at maxStale: never shown
        await #expect(throws: CachedClientError.notCached(endpoint: "AccountRepository.getAccount")) {
            try await harness.value(policy: .cacheOnly)
        }
        await #expect(throws: URLError(.notConnectedToInternet)) { try await harness.value() }
        #expect(harness.events.kinds == [.store, .hit, .miss, .fallback, .stale, .miss, .miss])
    }

    @Test func anotherPartitionNeverSeesAHeldValueAndOtherUsersLeaveMemory() async throws {
        let harness = Harness()
        let shared = Fixtures.endpoint("CatalogRepository.getItem", scope: .shared)
        _ = try await harness.value()
        _ = try await harness.client.value(for: Fixtures.request(), endpoint: shared, as: Account.self)
        #expect(harness.client.memory.count == 2)

        harness.client.setPartition("user-2")

        #expect(harness.client.memory.count == 1)  // user-1's account left memory; the shared item stays
        await #expect(throws: CachedClientError.notCached(endpoint: "AccountRepository.getAccount")) {
            try await harness.value(policy: .cacheOnly)
        }
        harness.transport.fail()
        await #expect(throws: URLError(.notConnectedToInternet)) { try await harness.value() }
        #expect(try await harness.client.value(for: Fixtures.request(), endpoint: shared, policy: .cacheOnly, as: Account.self).isCached)

        harness.client.setPartition("user-1")  // back: user-1's entry is still on "disk"
        #expect(try await harness.value(policy: .cacheOnly) == .cached(value: Fixtures.alice, date: Fixtures.start))
    }

    @Test func theLayerIsBoundedAndDropsTheLeastRecentlyUsedFirst() async throws {
        let store = FlakyStore()
        let harness = Harness(store: store, memoryCacheLimit: 3)
        func account(_ id: String, _ policy: CachePolicy) async throws -> CachedValue<Account> {
            try await harness.client.value(for: Fixtures.request(id: id), endpoint: Fixtures.endpoint(), policy: policy)
        }
        for id in ["1", "2", "3"] { _ = try await account(id, .networkFirst) }
        _ = try await account("1", .cacheOnly)  // 1 is now the most recent; 2 the least
        _ = try await account("4", .networkFirst)
        #expect(harness.client.memory.count == 3)
        await harness.client.flush()  // so that 2 comes from the store, not from the pending writes

        let reads = store.reads
        for id in ["1", "3", "4"] { _ = try await account(id, .cacheOnly) }
        #expect(store.reads == reads)
        #expect(try await account("2", .cacheOnly).isCached)  // from the store
        #expect(store.reads == reads + 1)
    }

    @Test func theByteLimitKeepsLargeValuesOutAndTrimsTheOldest() throws {
        let cache = MemoryLayer(limit: 100, byteLimit: 4_000)
        func key(_ id: Int) -> CacheKey {
            CacheKey(text: "k\(id)", endpoint: "E.get", partition: nil, path: "/\(id)")
        }
        func entry(_ size: Int) -> CacheEntry { CacheEntry(body: Data(count: size), date: Fixtures.start) }

        #expect(cache.hold(entry(1_100), value: 1, for: key(1), replacingNewer: true, removals: 0))
        #expect(cache.count == 0)  // over a quarter of the budget: never held
        for id in 2...6 { cache.hold(entry(700), value: id, for: key(id), replacingNewer: true, removals: 0) }
        #expect(cache.count == 4)  // 5 × (700 + overhead) is over 4,000 bytes: the oldest went
        #expect(cache.lookup("k2", removals: 0) == nil)
        let held = try #require(cache.lookup("k6", removals: 0))
        #expect(held.key == key(6))
        #expect(held.value(as: Int.self, decodedFrom: held.entry) == 6)
        #expect(held.value(as: String.self, decodedFrom: held.entry) == nil)
        // An entry that only looks the same (another read of the file) is decoded again.
        #expect(held.value(as: Int.self, decodedFrom: entry(700)) == nil)
        #expect(held.value(as: Int.self, decodedFrom: entry(701)) == nil)
    }

    @Test func aLimitOfZeroKeepsNothingInMemory() async throws {
        let store = FlakyStore()
        let harness = Harness(store: store, memoryCacheLimit: 0)
        _ = try await harness.value()
        let reads = store.reads
        for _ in 0..<3 { #expect(try await harness.value(policy: .cacheFirst).isCached) }
        #expect(store.reads == reads + 3)
        #expect(harness.client.memory.count == 0)
    }

    @Test func theFileStoresMaxAgeHoldsInMemoryToo() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "cachegen-memory-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = TestClock()
        let transport = StubTransport(json: Fixtures.alice)
        let client = CachedClient(
            baseURL: Fixtures.baseURL, store: try FileCacheStore(directory: directory, maxAge: 100, now: clock.function),
            transport: transport, partition: "user-1", retry: .none, now: clock.function)
        let _: CachedValue<Account> = try await client.value(for: Fixtures.request(), endpoint: Fixtures.endpoint())

        clock.advance(by: 101)  // within maxStale, but past the store's maxAge
        transport.fail()

        await #expect(throws: URLError(.notConnectedToInternet)) {
            let _: CachedValue<Account> = try await client.value(for: Fixtures.request(), endpoint: Fixtures.endpoint())
        }
        #expect(client.memory.count == 0)
    }

    enum Removal: String, CaseIterable, Sendable {
        case everything, partition, endpoint, invalidation
    }

    @Test(arguments: Removal.allCases)
    func removalsThroughTheClientClearTheLayer(_ removal: Removal) async throws {
        let harness = Harness()
        _ = try await harness.value()
        #expect(harness.client.memory.count == 1)

        switch removal {
        case .everything: try await harness.client.removeAll()
        case .partition: try await harness.client.removeAll(partition: "user-1")
        case .endpoint: try await harness.client.removeAll(endpoint: "AccountRepository.getAccount")
        case .invalidation: try await harness.client.invalidate([Invalidation(Fixtures.endpoint())])
        }

        #expect(harness.client.memory.count == 0)
        #expect(try await harness.store.entryCount() == 0)
        await #expect(throws: CachedClientError.notCached(endpoint: "AccountRepository.getAccount")) {
            try await harness.value(policy: .cacheOnly)
        }
    }

    @Test func aFailedWriteDropsTheHeldValueSoMemoryNeverGetsAheadOfTheStore() async throws {
        let store = FlakyStore()
        let harness = Harness(store: store)
        _ = try await harness.value()  // alice, stored and held
        store.setFailWrites(true)
        harness.clock.advance(by: 5)
        harness.transport.respond(status: 200, body: Fixtures.body(Fixtures.aliceLater))

        #expect(try await harness.value() == .fresh(value: Fixtures.aliceLater))

        #expect(harness.client.memory.count == 0)
        // What the store has, not the newer answer it failed to keep.
        #expect(try await harness.value(policy: .cacheOnly) == .cached(value: Fixtures.alice, date: Fixtures.start))
        #expect(harness.events.kinds == [.store, .error, .hit])
    }

    @Test func anAnswerInFlightDuringSignOutIsNeitherStoredNorHeld() async throws {
        let harness = Harness()
        let gate = Gate()
        harness.transport.hold(at: gate, thenAnswer: Fixtures.alice)

        let call = Task { try await harness.value() }
        await harness.transport.called.wait()
        try await harness.client.removeAll(partition: "user-1")  // the partition itself stays
        gate.open()

        #expect(try await call.value == .fresh(value: Fixtures.alice))
        #expect(try await harness.storedEntry() == nil)
        #expect(harness.client.memory.count == 0)
        #expect(!harness.events.kinds.contains(.store))

        _ = try await harness.value()  // a call started after the removal stores as usual
        #expect(try await harness.storedEntry() != nil)
    }

    @Test func valuesAreHeldPerTypeForOneStoredEntry() async throws {
        struct Summary: Codable, Sendable, Equatable { var id: String }
        let store = FlakyStore()
        let harness = Harness(store: store)
        _ = try await harness.value()
        let summary: CachedValue<Summary> = try await harness.client.value(
            for: Fixtures.request(), endpoint: Fixtures.endpoint(), policy: .cacheOnly)
        let reads = store.reads

        let again: CachedValue<Summary> = try await harness.client.value(
            for: Fixtures.request(), endpoint: Fixtures.endpoint(), policy: .cacheOnly)
        #expect(try await harness.value(policy: .cacheOnly) == .cached(value: Fixtures.alice, date: Fixtures.start))

        #expect(summary == .cached(value: Summary(id: "1"), date: Fixtures.start))
        #expect(again == summary)
        #expect(store.reads == reads)
        #expect(harness.client.memory.count == 1)
    }

    @Test func aBackgroundRefreshReplacesTheHeldValue() async throws {
        let harness = Harness()
        _ = try await harness.value()
        harness.clock.advance(by: Fixtures.ttl + 10)
        harness.transport.respond(status: 200, body: Fixtures.body(Fixtures.aliceLater))

        let stale = try await harness.value(policy: .staleWhileRevalidate)
        await harness.client.waitForBackgroundRefreshes()

        #expect(stale == .cached(value: Fixtures.alice, date: Fixtures.start))
        #expect(
            try await harness.value(policy: .cacheOnly)
                == .cached(value: Fixtures.aliceLater, date: Fixtures.start.addingTimeInterval(Fixtures.ttl + 10)))
    }
}

/// `Account`'s shape, counting how often it is decoded.
struct CountedAccount: Decodable, Sendable, Equatable {
    static let decodes = Locked(0)

    var id: String
    var balance: Double

    init(id: String, balance: Double) {
        self.id = id
        self.balance = balance
    }

    init(from decoder: any Decoder) throws {
        enum Keys: String, CodingKey { case id, balance }
        let container = try decoder.container(keyedBy: Keys.self)
        id = try container.decode(String.self, forKey: .id)
        balance = try container.decode(Double.self, forKey: .balance)
        Self.decodes.withLock { $0 += 1 }
    }
}
