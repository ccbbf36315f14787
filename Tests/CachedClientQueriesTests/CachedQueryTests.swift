import CachedClientTestSupport
import FixtureServerSupport
import Foundation
import Observation
import Testing

@_spi(Generated) import CachedClientCalls
import CachedClientFileStore
import CachedClientHTTP
@_spi(Generated) import CachedClientMutations
import CachedClientQueries
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// `CachedQuery` over `CachedClient`, `URLSessionTransport` and the fixture server on
/// 127.0.0.1, observed with `withObservationTracking` as SwiftUI would; nothing sleeps:
/// time is a `TestClock` for ages and a `ManualClock` for polling.
@Suite("Live queries over the fixture server", .timeLimit(.minutes(1)))
@MainActor
struct CachedQueryTests {
    static let bob = Account(id: "1", balance: 99)
    static let other = Account(id: "2", balance: 7)

    /// A client on the shared fixture server, apart from other tests by a path prefix.
    struct Setup {
        let server: FixtureServer
        let prefix = "/query-\(UUID().uuidString.lowercased())"
        let clock = TestClock()
        let store: any CacheStore
        let client: CachedClient

        init(store: any CacheStore = MemoryCacheStore()) async throws {
            server = try await FixtureServer.shared
            self.store = store
            client = Self.client(URL(string: server.baseURL.absoluteString + prefix + "/v1")!, store, clock)
        }

        static func client(_ baseURL: URL, _ store: any CacheStore, _ clock: TestClock) -> CachedClient {
            CachedClient(
                baseURL: baseURL, store: store, transport: URLSessionTransport(timeout: 10), partition: "user-1",
                now: clock.function)
        }

        /// Another client as an app makes one, on this setup's store.
        func makeClient() -> CachedClient {
            Self.client(client.baseURL, store, clock)
        }

        /// A query over `GET /accounts/{id}`, as a generated factory makes it.
        func query(_ id: String = "1", endpoint: Endpoint = Fixtures.endpoint(), client: CachedClient? = nil)
            -> CachedQuery<Account>
        {
            let client = client ?? self.client
            return CachedQuery { policy in
                try await client.value(for: Fixtures.request(id: id), endpoint: endpoint, policy: policy)
            }
        }

        func setRoute(
            _ path: String, method: String = "GET", status: Int = 200, headers: [String: String] = [:],
            json value: some Encodable, delay: Int = 0
        ) async throws {
            try await server.setRoute(
                prefix + path, method: method, status: status, headers: headers, json: value, delayMilliseconds: delay)
        }

        func setRoute(_ path: String, status: Int) async throws {
            try await server.setRoute(prefix + path, status: status)
        }

        /// `METHOD path` of this test's requests, oldest first.
        func log() async throws -> [String] {
            try await server.requests().filter { $0.path.hasPrefix(prefix + "/") }
                .map { "\($0.method) \($0.path.dropFirst(prefix.count))" }
        }
    }

    @Test func aChangeNotificationForEachStateChange() async throws {
        let setup = try await Setup()
        try await setup.setRoute("/v1/accounts/1", json: Fixtures.alice)
        let query = setup.query()
        let counter = ChangeCounter()
        let names = ["value", "date", "updatedAt", "isLoading", "error"]
        counter.track("value") { _ = query.value }
        counter.track("date") { _ = query.date }
        counter.track("updatedAt") { _ = query.updatedAt }
        counter.track("isLoading") { _ = query.isLoading }
        counter.track("error") { _ = query.error }

        await query.load()
        #expect(query.value == Fixtures.alice && query.date == nil && query.updatedAt == Fixtures.start)
        #expect(counter.snapshot(names) == ["value": 1, "date": 0, "updatedAt": 1, "isLoading": 2, "error": 0])

        // The server fails: networkFirst falls back to the entry stored at the start, whose
        // date is also when the fresh value arrived, so `updatedAt` does not change; nor does
        // the value, which is equal.
        setup.clock.advance(by: 90)
        try await setup.setRoute("/v1/accounts/1", status: 503)
        await query.refresh()
        #expect(query.value == Fixtures.alice && query.date == Fixtures.start && query.error == nil)
        #expect(counter.snapshot(names) == ["value": 1, "date": 1, "updatedAt": 1, "isLoading": 4, "error": 0])

        // A 4xx never falls back: an error, the value stays.
        try await setup.setRoute("/v1/accounts/1", status: 404)
        await query.refresh()
        #expect(query.value == Fixtures.alice)
        #expect((query.error as? CachedClientError) == .httpStatus(404, endpoint: "AccountRepository.getAccount", body: Data()))
        #expect(counter.snapshot(names) == ["value": 1, "date": 1, "updatedAt": 1, "isLoading": 6, "error": 1])

        try await setup.setRoute("/v1/accounts/1", json: Fixtures.aliceLater)
        await query.load()
        #expect(query.value == Fixtures.aliceLater && query.date == nil && query.error == nil)
        #expect(query.updatedAt == Fixtures.start.addingTimeInterval(90))
        #expect(counter.snapshot(names) == ["value": 2, "date": 2, "updatedAt": 2, "isLoading": 8, "error": 2])
    }

    @Test func aMutationMakesTheQueryRefetchAndShowTheNewData() async throws {
        let setup = try await Setup()
        try await setup.setRoute("/v1/accounts/1", json: Fixtures.alice)
        let query = setup.query()
        await query.load()
        try await setup.setRoute("/v1/accounts/1", json: Fixtures.aliceLater)
        try await setup.setRoute("/v1/accounts/1", method: "PATCH", json: Fixtures.aliceLater)
        let values = ValueRecorder { query.value }

        let update = Endpoint(name: "AccountRepository.updateAccount", cache: nil)
        let _: Account = try await setup.client.response(
            for: EndpointRequest(method: "PATCH", path: "/accounts/1"), endpoint: update,
            invalidating: [Invalidation(Fixtures.endpoint(), path: "/accounts/{id}") { $0.setPathParameter("id", "1") }])

        await waitUntil { query.value == Fixtures.aliceLater && !query.isLoading }
        await mainActorJobsEnqueuedSoFar()  // The recorder reads each value in a job of its own.
        // The old value stays on screen while the refetch runs: no empty list in between.
        #expect(values.values == [Fixtures.alice, Fixtures.aliceLater])
        #expect(try await setup.log() == ["GET /v1/accounts/1", "PATCH /v1/accounts/1", "GET /v1/accounts/1"])
    }

    @Test func aRemovalWhoseRefetchFailsDropsTheValue() async throws {
        let setup = try await Setup()
        try await setup.setRoute("/v1/accounts/1", json: Fixtures.alice)
        let query = setup.query()
        await query.load()
        try await setup.setRoute("/v1/accounts/1", status: 503)

        try await setup.client.removeAll()

        await waitUntil { query.error != nil }
        #expect(query.value == nil && query.updatedAt == nil)
    }

    @Test func aSignOutClearsTheQueryAndItLoadsForTheNewUser() async throws {
        let setup = try await Setup()
        try await setup.setRoute("/v1/accounts/1", json: Fixtures.alice)
        let query = setup.query()
        let shared = setup.query("2", endpoint: Fixtures.endpoint("CurrencyRepository.getRate", scope: .shared))
        try await setup.setRoute("/v1/accounts/2", json: Self.other)
        await query.load()
        await shared.load()
        let values = ValueRecorder { query.value }
        try await setup.setRoute("/v1/accounts/1", json: Self.bob)

        setup.client.setPartition("user-2")

        await waitUntil { query.value == Self.bob }
        await mainActorJobsEnqueuedSoFar()  // The recorder reads each value in a job of its own.
        #expect(values.values == [Fixtures.alice, nil, Self.bob])
        // Shared entries are everybody's: that query neither cleared nor asked again.
        #expect(shared.value == Self.other && !shared.isLoading)
        #expect(try await setup.log() == ["GET /v1/accounts/1", "GET /v1/accounts/2", "GET /v1/accounts/1"])
    }

    @Test func networkBackRefetchesStaleQueriesOnly() async throws {
        let setup = try await Setup()
        try await setup.setRoute("/v1/accounts/1", json: Fixtures.alice)
        try await setup.setRoute("/v1/accounts/2", json: Self.other)
        let stale = setup.query("1", endpoint: Fixtures.endpoint(ttl: 60))
        let fresh = setup.query("2", endpoint: Fixtures.endpoint("AccountRepository.getSlowAccount", ttl: 600))
        await stale.load()
        await fresh.load()

        setup.clock.advance(by: 120)
        #expect(stale.isStale && !fresh.isStale)
        try await setup.setRoute("/v1/accounts/1", json: Fixtures.aliceLater)

        setup.client.networkBecameAvailable()

        await waitUntil { stale.value == Fixtures.aliceLater && !stale.isLoading }
        #expect(!stale.isStale && !fresh.isLoading)
        #expect(try await setup.log() == ["GET /v1/accounts/1", "GET /v1/accounts/2", "GET /v1/accounts/1"])
    }

    /// Under `ttl: "server"` a query is stale or fresh by the server's clock, exactly as the
    /// call it makes: `cacheFirst` answers from the store while the query says fresh, and
    /// asks the network once it says stale.
    @Test func staleByTheServersFreshnessAsCallsAre() async throws {
        let setup = try await Setup()
        // The server's lifetime is longer than the rule's ttl on one endpoint, shorter on the other.
        try await setup.setRoute("/v1/accounts/1", headers: ["Cache-Control": "max-age=600"], json: Fixtures.alice)
        try await setup.setRoute("/v1/accounts/2", headers: ["Cache-Control": "max-age=30", "Age": "10"], json: Self.other)
        var longer = Fixtures.endpoint(policy: .cacheFirst, ttl: 60)
        longer.cache?.ttlFromServer = true
        var shorter = Fixtures.endpoint("AccountRepository.getSlowAccount", policy: .cacheFirst, ttl: 600)
        shorter.cache?.ttlFromServer = true
        let long = setup.query("1", endpoint: longer)
        let short = setup.query("2", endpoint: shorter)
        await long.load()
        await short.load()
        #expect(!long.isStale && !short.isStale)

        setup.clock.advance(by: 25)  // 35 s old by the server's count (it arrived 10 s old).
        #expect(!long.isStale && short.isStale)
        let calls = try await [
            setup.client.value(for: Fixtures.request(id: "1"), endpoint: longer, as: Account.self).isCached,
            setup.client.value(for: Fixtures.request(id: "2"), endpoint: shorter, as: Account.self).isCached,
        ]
        #expect(calls == [true, false])
        #expect(try await setup.log() == ["GET /v1/accounts/1", "GET /v1/accounts/2", "GET /v1/accounts/2"])

        // The answer the call just stored is the query's now, with its own lifetime.
        await waitUntil { !short.isStale }
        setup.clock.advance(by: 600)
        #expect(long.isStale && short.isStale)
    }

    /// A removal elsewhere that covers none of a query's keys (another user's sign-out) costs
    /// no read when the app becomes active: the query takes the new count as seen, and the
    /// client keeps its value in memory.
    @Test func aRemovalElsewhereOfAnotherPartitionCostsTheQueryNothing() async throws {
        let store = GatedStore()
        let setup = try await Setup(store: store)
        try await setup.setRoute("/v1/accounts/1", json: Fixtures.alice)
        let query = setup.query()
        await query.load()
        await setup.client.flush()
        let reads = store.reads

        try await setup.makeClient().removeAll(partition: "user-2")
        setup.client.appBecameActive()
        await mainActorJobsEnqueuedSoFar()

        #expect(!query.isLoading)
        #expect(query.sources.map(\.storeRemovals) == [store.removalCount])
        #expect(store.reads == reads)
        #expect(setup.client.memory.count == 1)
        #expect(try await setup.log() == ["GET /v1/accounts/1"])
    }

    @Test func aRemovalThroughAnotherClientIsNoticedWhenTheAppBecomesActive() async throws {
        let setup = try await Setup()
        try await setup.setRoute("/v1/accounts/1", json: Fixtures.alice)
        let query = setup.query()
        await query.load()
        await setup.client.flush()
        try await setup.setRoute("/v1/accounts/1", json: Fixtures.aliceLater)

        // Not stale, nothing removed: becoming active costs one look at a counter.
        setup.client.appBecameActive()
        await mainActorJobsEnqueuedSoFar()
        #expect(!query.isLoading)
        try await setup.makeClient().removeAll()
        setup.client.appBecameActive()

        await waitUntil { query.value == Fixtures.aliceLater && !query.isLoading }
        #expect(try await setup.log() == ["GET /v1/accounts/1", "GET /v1/accounts/1"])
    }

    @Test func pollingRefetchesAtTheInjectedClocksInterval() async throws {
        let setup = try await Setup()
        try await setup.setRoute("/v1/accounts/1", json: Fixtures.alice)
        let clock = ManualClock()
        let query = setup.query()
        await query.load()

        query.poll(every: .seconds(30), clock: clock)
        await clock.waitForSleepers(1)
        #expect(query.pollingInterval == .seconds(30))
        try await setup.setRoute("/v1/accounts/1", json: Fixtures.aliceLater)
        clock.advance(by: .seconds(30))
        await waitUntil { query.value == Fixtures.aliceLater && !query.isLoading }

        await clock.waitForSleepers(1)
        try await setup.setRoute("/v1/accounts/1", json: Self.bob)
        clock.advance(by: .seconds(29))
        #expect(query.value == Fixtures.aliceLater && !query.isLoading)
        clock.advance(by: .seconds(1))
        await waitUntil { query.value == Self.bob && !query.isLoading }
        #expect(try await setup.log().count == 3)

        query.stopPolling()
        await clock.waitForSleepers(0)
        #expect(query.pollingInterval == nil)
    }

    @Test func aHundredQueriesOfOneKeyMakeOneRequest() async throws {
        let setup = try await Setup()
        // The answer takes a second, so every query joins the request in flight.
        try await setup.setRoute("/v1/accounts/1", json: Fixtures.alice, delay: 1000)
        let queries = (0..<100).map { _ in setup.query() }

        for query in queries { Task { await query.load() } }

        await waitUntil { queries.allSatisfy { $0.value == Fixtures.alice } }
        #expect(try await setup.log() == ["GET /v1/accounts/1"])
    }

    @Test func anAnswerStoredForTheKeyReachesEveryQueryOfIt() async throws {
        let setup = try await Setup()
        try await setup.setRoute("/v1/accounts/1", json: Fixtures.alice)
        let first = setup.query(endpoint: Fixtures.endpoint(policy: .cacheFirst))
        let second = setup.query(endpoint: Fixtures.endpoint(policy: .cacheFirst))
        await first.load()
        await second.load()
        #expect(second.date == Fixtures.start)
        try await setup.setRoute("/v1/accounts/1", json: Fixtures.aliceLater)

        await first.refresh()

        await waitUntil { second.value == Fixtures.aliceLater }
        #expect(second.date == nil)
        #expect(try await setup.log() == ["GET /v1/accounts/1", "GET /v1/accounts/1"])
    }

    @Test func aReleasedQueryLeavesNothingBehind() async throws {
        let setup = try await Setup()
        try await setup.setRoute("/v1/accounts/1", json: Fixtures.alice)
        let clock = ManualClock()
        var query: CachedQuery<Account>? = setup.query()
        weak let released = query
        await query?.load()
        query?.poll(every: .seconds(30), clock: clock)
        await clock.waitForSleepers(1)
        #expect(setup.client.queries.count == 1)

        query = nil

        #expect(released == nil)
        #expect(setup.client.queries.count == 0)
        await clock.waitForSleepers(0)
        // Signals after it went reach nobody and ask nothing.
        setup.client.networkBecameAvailable()
        setup.client.setPartition("user-2")
        try await setup.client.removeAll()
        #expect(try await setup.log() == ["GET /v1/accounts/1"])
    }

    @Test func aQueryOverAMockIsAPlainQuery() async throws {
        let query = CachedQuery<Account> { _ in .cached(value: Fixtures.alice, date: Fixtures.start) }
        await query.load()
        #expect(query.value == Fixtures.alice && query.date == Fixtures.start && !query.isStale)
        #expect(query.sources.isEmpty)
    }
}
