import CachedClientTestSupport
import FixtureServerSupport
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

/// Write-behind: a call returns before its entry is written; the client reads its own
/// pending writes, lands a key's writes in order, lets no removal be undone by a write that
/// lands late, and reports a failed write. The store's writes wait at gates the tests open,
/// so every interleaving below is forced, not hoped for; a regression that made calls wait
/// for their writes again would hang on a closed gate, which the time limit turns into a
/// failure.
@Suite("CachedClient write-behind", .timeLimit(.minutes(1)))
struct CachedClientWriteBehindTests {
    @Test func aCallReturnsBeforeItsWriteLandsAndFlushWaitsForIt() async throws {
        let store = GatedStore()
        let harness = Harness(store: store, memoryCacheLimit: 0)
        let write = store.holdNextWrite()

        #expect(try await harness.client.value(for: Fixtures.request(), endpoint: Fixtures.endpoint()) == .fresh(value: Fixtures.alice))

        await write.started.wait()  // under way, held at the gate: the call did not wait for it
        #expect(try await store.innerEntry(for: harness.key()) == nil)
        #expect(harness.client.writes.pendingCount == 1)
        #expect(harness.events.kinds.isEmpty)  // `.store` is reported when the entry has landed

        write.gate.open()
        await harness.client.flush()

        #expect(try await store.innerEntry(for: harness.key()) == CacheEntry(body: Fixtures.body(Fixtures.alice), date: Fixtures.start))
        #expect(harness.client.writes.pendingCount == 0)
        #expect(harness.client.writes.isIdle)
        #expect(harness.events.kinds == [.store])
    }

    @Test func everyReadOfTheClientSeesAPendingWriteWithTheMemoryLayerOff() async throws {
        let store = GatedStore()
        let harness = Harness(store: store, memoryCacheLimit: 0)
        let write = store.holdNextWrite()
        let endpoint = Fixtures.endpoint()
        func value(_ policy: CachePolicy) async throws -> CachedValue<Account> {
            try await harness.client.value(for: Fixtures.request(), endpoint: endpoint, policy: policy)
        }
        let stored = CachedValue<Account>.cached(value: Fixtures.alice, date: Fixtures.start)

        _ = try await value(.networkFirst)
        await write.started.wait()
        let readsBefore = store.reads
        harness.transport.fail()

        #expect(try await value(.cacheOnly) == stored)
        #expect(try await value(.cacheFirst) == stored)
        #expect(try await value(.networkFirst) == stored)  // offline: falls back on the pending entry
        #expect(try await value(.staleWhileRevalidate) == stored)
        await harness.client.waitForBackgroundRefreshes(flushing: false)
        var streamed: [CachedValue<Account>] = []
        for try await update in harness.client.updates(for: Fixtures.request(), endpoint: endpoint, as: Account.self) {
            streamed.append(update)
        }
        #expect(streamed == [stored])
        #expect(store.reads == readsBefore)  // none of them asked the store
        #expect(try await store.innerEntry(for: harness.key()) == nil)  // still on its way

        write.gate.open()
        await harness.client.flush()
        #expect(harness.client.writes.pendingCount == 0)
        #expect(try await value(.cacheOnly) == stored)  // now from the store
        #expect(store.reads == readsBefore + 1)
    }

    @Test func twoWritesOfOneKeyLandInTheOrderTheyWereMade() async throws {
        let store = GatedStore()
        let harness = Harness(store: store, memoryCacheLimit: 0)
        let first = store.holdNextWrite()  // the first write is slow; the second is not

        _ = try await harness.client.value(for: Fixtures.request(), endpoint: Fixtures.endpoint(), as: Account.self)
        await first.started.wait()
        harness.clock.advance(by: 5)
        harness.transport.respond(status: 200, body: Fixtures.body(Fixtures.aliceLater))
        #expect(
            try await harness.client.value(for: Fixtures.request(), endpoint: Fixtures.endpoint(), as: Account.self)
                == .fresh(value: Fixtures.aliceLater))
        let later = CachedValue<Account>.cached(value: Fixtures.aliceLater, date: Fixtures.start.addingTimeInterval(5))
        #expect(try await harness.value(policy: .cacheOnly, flushing: false) == later)  // the newer pending write answers
        #expect(store.writes == 1)  // the second waits for the first

        first.gate.open()
        await harness.client.flush()

        #expect(try await store.innerEntry(for: harness.key())?.body == Fixtures.body(Fixtures.aliceLater))
        #expect(store.writes == 2)
        #expect(harness.events.kinds == [.hit, .store, .store])
        #expect(try await harness.value(policy: .cacheOnly) == later)
    }

    @Test func aWriteThatANewerAnswerReplacedBeforeItsTurnIsSkipped() async throws {
        let store = GatedStore()
        let harness = Harness(store: store, memoryCacheLimit: 0)
        let first = store.holdNextWrite()
        _ = try await harness.value(policy: nil, flushing: false)
        await first.started.wait()
        for (seconds, balance) in [(5.0, 20.0), (10.0, 30.0)] {  // both wait behind the first
            harness.clock.advance(by: 5)
            harness.transport.respond(status: 200, body: Fixtures.body(Account(id: "1", balance: balance)))
            _ = try await harness.value(policy: nil, flushing: false)
            #expect(harness.clock.now == Fixtures.start.addingTimeInterval(seconds))
        }

        first.gate.open()
        await harness.client.flush()

        #expect(store.writes == 2)  // the first, then the newest; the middle one was replaced before its turn
        #expect(try await store.innerEntry(for: harness.key())?.body == Fixtures.body(Account(id: "1", balance: 30)))
        #expect(harness.events.kinds == [.store, .store])
        #expect(harness.client.writes.pendingCount == 0)
    }

    /// With the in-memory layer on, a pending write is still what every read sees: once its
    /// value was pushed out of memory by another key's answer, and when an older entry read
    /// from the store tries to go back in front of it. (A `cacheFirst` hit answers from the
    /// snapshot taken when the call started, so that snapshot must never be older than a
    /// pending write.)
    @Test func withTheMemoryLayerOnAPendingWriteStillAnswersOnceItsValueIsPushedOut() async throws {
        let store = GatedStore()
        let harness = Harness(store: store, memoryCacheLimit: 1)
        let memory = harness.client.memory
        let older = CacheEntry(body: Fixtures.body(Fixtures.alice), date: Fixtures.start)
        try await store.inner.setEntry(older, for: harness.key())
        harness.clock.advance(by: 5)
        harness.transport.respond(status: 200, body: Fixtures.body(Fixtures.aliceLater))
        let write = store.holdNextWrite()

        #expect(try await harness.value(policy: .networkFirst, flushing: false) == .fresh(value: Fixtures.aliceLater))
        await write.started.wait()
        let later = CachedValue<Account>.cached(value: Fixtures.aliceLater, date: Fixtures.start.addingTimeInterval(5))
        #expect(try await harness.value(policy: .cacheFirst, flushing: false) == later)  // from the held snapshot

        // Another key's answer pushes the value out of the one-entry layer; its write lands.
        harness.transport.respond(status: 200, body: Fixtures.body(Account(id: "2", balance: 1)))
        _ = try await harness.client.value(for: Fixtures.request(id: "2"), endpoint: Fixtures.endpoint(), as: Account.self)
        #expect(memory.lookup(harness.key().text, removals: harness.store.removalCount) == nil)

        // The store's older entry may not go back in front of the pending write.
        harness.client.writer.holdStored(
            older, value: Fixtures.alice, for: harness.key(), since: harness.client.writes.generation,
            removals: harness.store.removalCount)
        #expect(memory.lookup(harness.key().text, removals: harness.store.removalCount) == nil)

        let readsBefore = store.reads
        harness.transport.fail()
        #expect(try await harness.value(policy: .cacheFirst, flushing: false) == later)
        #expect(memory.lookup(harness.key().text, removals: harness.store.removalCount)?.entry.date == Fixtures.start.addingTimeInterval(5))
        #expect(try await harness.value(policy: .cacheOnly, flushing: false) == later)
        #expect(store.reads == readsBefore)  // neither asked the store

        write.gate.open()
        await harness.client.flush()
        #expect(harness.client.writes.pendingCount == 0)
        #expect(try await store.innerEntry(for: harness.key())?.body == Fixtures.body(Fixtures.aliceLater))
        #expect(try await harness.value(policy: .cacheFirst) == later)
    }

    enum Removal: String, CaseIterable, Sendable {
        case everything, partition, endpoint, invalidation
    }

    /// One write of the key is under way (held at the gate) and a second waits behind it
    /// when the removal starts; neither may be left in the store afterwards. A mutation's
    /// invalidation is checked the same way with the mutation layer (`MutationCallTests`).
    @Test(arguments: Removal.allCases)
    func aRemovalWhileWritesArePendingLeavesNothingBehind(_ removal: Removal) async throws {
        try await PendingWriteRemoval.check { harness in
            switch removal {
            case .everything: try await harness.client.removeAll()
            case .partition: try await harness.client.removeAll(partition: "user-1")
            case .endpoint: try await harness.client.removeAll(endpoint: "AccountRepository.getAccount")
            case .invalidation: try await harness.client.invalidate([Invalidation(Fixtures.endpoint())])
            }
        }
    }

    @Test func aNoStoreAnswerIsNotUndoneByAnEarlierWriteLandingLate() async throws {
        let store = GatedStore()
        let harness = Harness(store: store, memoryCacheLimit: 0)
        let first = store.holdNextWrite()
        _ = try await harness.value(policy: nil, flushing: false)
        await first.started.wait()
        harness.transport.respond(status: 200, body: Fixtures.body(Fixtures.aliceLater), headers: ["Cache-Control": "no-store"])

        let call = Task { try await harness.value(policy: nil, flushing: false) }
        while harness.client.writes.pendingCount > 0 { await Task.yield() }  // forgotten; the write under way is waited for
        first.gate.open()

        #expect(try await call.value == .fresh(value: Fixtures.aliceLater))
        await harness.client.flush()
        #expect(try await store.innerEntry(for: harness.key()) == nil)
        #expect(harness.events.kinds == [.store, .evict])  // the earlier entry landed, then was removed
    }

    @Test func aFailedBackgroundWriteIsReportedAndDropsTheValueButTheCallWasFresh() async throws {
        let store = GatedStore()
        let harness = Harness(store: store)
        let write = store.holdNextWrite(failing: true)

        #expect(try await harness.client.value(for: Fixtures.request(), endpoint: Fixtures.endpoint()) == .fresh(value: Fixtures.alice))
        #expect(harness.client.memory.count == 1)
        write.gate.open()
        await harness.client.flush()

        #expect(harness.events.kinds == [.error])
        #expect(harness.events.all.first?.message == "write failed: CachedClientTestSupport.StoreFailure 1")
        #expect(harness.client.memory.count == 0)
        #expect(harness.client.writes.pendingCount == 0)
        await #expect(throws: CachedClientError.notCached(endpoint: "AccountRepository.getAccount")) {
            try await harness.value(policy: .cacheOnly)
        }
    }

    @Test func aWriteMadeBeforeTheUserChangedStillLands() async throws {
        let store = GatedStore()
        let harness = Harness(store: store)
        let write = store.holdNextWrite()
        let key = harness.key()
        _ = try await harness.value(policy: nil, flushing: false)
        await write.started.wait()

        harness.client.setPartition("user-2")  // the answer was given before: stored, as before write-behind
        write.gate.open()
        await harness.client.flush()
        #expect(try await store.innerEntry(for: key) != nil)

        try await harness.client.removeAll(partition: "user-1")  // sign-out removes it as usual
        #expect(try await store.inner.entryCount() == 0)
    }

    /// Over the real fixture server on 127.0.0.1 and a `FileCacheStore`: the call returns
    /// while its file is not written yet, the client answers from the pending write, and a
    /// second client on the same folder finds the file after `flush()`.
    @Test func overTheNetworkASecondClientFindsTheFileAfterFlush() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "cachegen-write-behind-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await FixtureServer.shared
        let prefix = "/test-\(UUID().uuidString.lowercased())"
        try await server.setRoute(prefix + "/v1/accounts/1", json: Fixtures.alice)
        let clock = TestClock()
        let baseURL = URL(string: server.baseURL.absoluteString + prefix + "/v1")!
        func client(_ store: any CacheStore) -> CachedClient {
            CachedClient(
                baseURL: baseURL, store: store, transport: URLSessionTransport(timeout: 10), partition: "user-1",
                now: clock.function, memoryCacheLimit: 0)
        }
        let store = GatedStore(wrapping: try FileCacheStore(directory: directory, now: clock.function))
        let write = store.holdNextWrite()
        let writer = client(store)
        let reader = client(try FileCacheStore(directory: directory, now: clock.function))
        func account(_ client: CachedClient, _ policy: CachePolicy) async throws -> CachedValue<Account> {
            try await client.value(for: Fixtures.request(), endpoint: Fixtures.endpoint(), policy: policy)
        }

        #expect(try await account(writer, .networkFirst) == .fresh(value: Fixtures.alice))
        await write.started.wait()
        #expect(try await account(writer, .cacheOnly) == .cached(value: Fixtures.alice, date: Fixtures.start))
        await #expect(throws: CachedClientError.notCached(endpoint: "AccountRepository.getAccount")) {
            try await account(reader, .cacheOnly)  // not on disk yet
        }

        write.gate.open()
        await writer.flush()
        #expect(try await account(reader, .cacheOnly) == .cached(value: Fixtures.alice, date: Fixtures.start))
    }
}

