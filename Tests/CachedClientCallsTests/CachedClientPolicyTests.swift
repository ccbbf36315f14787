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

/// The five policies, their ttl and maxStale boundaries and their events, over a stub
/// transport, an in-memory store and a clock that moves only when told.
@Suite("CachedClient policies")
struct CachedClientPolicyTests {
    // MARK: networkFirst

    @Test func networkFirstReturnsFreshAndStoresBodyDateAndValidators() async throws {
        let transport = StubTransport { _ in
            HTTPResponse(
                statusCode: 200, headers: ["ETag": "\"v1\"", "Last-Modified": "Tue, 14 Nov 2023 22:13:20 GMT"],
                body: Fixtures.body(Fixtures.alice))
        }
        let harness = Harness(transport: transport)

        let value = try await harness.value()

        #expect(value == .fresh(value: Fixtures.alice))
        let stored = try await harness.storedEntry()
        #expect(
            stored == CacheEntry(
                body: Fixtures.body(Fixtures.alice), date: Fixtures.start, etag: "\"v1\"",
                lastModified: "Tue, 14 Nov 2023 22:13:20 GMT"))
        #expect(harness.events.kinds == [.store])
    }

    @Test func networkFirstFallsBackOnTransportFailureWithTheStoredDate() async throws {
        let harness = Harness()
        try await harness.seed(age: 0)
        harness.clock.advance(by: 500)
        harness.transport.fail()

        let value = try await harness.value()

        #expect(value == .cached(value: Fixtures.alice, date: Fixtures.start))
        #expect(harness.events.kinds == [.fallback])
        #expect(harness.events.all.first?.age == 500)
    }

    /// And on a 429: the server asked to come back later, so what is stored is the best answer now.
    @Test(arguments: [500, 502, 503, 504, 599, 429])
    func networkFirstFallsBackOn5xx(status: Int) async throws {
        let harness = Harness()
        try await harness.seed(age: 10)
        harness.transport.respond(status: status, body: Data("oops".utf8))

        let value = try await harness.value()

        #expect(value == .cached(value: Fixtures.alice, date: Fixtures.start.addingTimeInterval(-10)))
        #expect(harness.events.kinds == [.fallback])
    }

    @Test(arguments: [400, 401, 403, 404, 409, 410, 422])
    func networkFirstNeverFallsBackOn4xx(status: Int) async throws {
        let harness = Harness()
        try await harness.seed(age: 10)
        harness.transport.respond(status: status, body: Data("{\"error\":\"no\"}".utf8))

        await #expect(
            throws: CachedClientError.httpStatus(
                status, endpoint: "AccountRepository.getAccount", body: Data("{\"error\":\"no\"}".utf8))
        ) {
            try await harness.value()
        }
        #expect(!harness.events.kinds.contains(.fallback))
        // The entry is still there for later calls.
        #expect(try await harness.storedEntry() != nil)
    }

    @Test(arguments: [101, 302, 304, 307])
    func networkFirstThrowsOnOtherStatusesWithoutFallingBack(status: Int) async throws {
        let harness = Harness()
        try await harness.seed(age: 10)
        harness.transport.respond(status: status)

        await #expect(throws: CachedClientError.httpStatus(status, endpoint: "AccountRepository.getAccount", body: Data())) {
            try await harness.value()
        }
    }

    @Test func networkFirstWithNothingStoredRethrowsTheTransportError() async throws {
        let harness = Harness()
        harness.transport.fail(with: URLError(.timedOut))

        await #expect(throws: URLError(.timedOut)) { try await harness.value() }
        #expect(harness.events.kinds == [.miss])
    }

    @Test func networkFirstWithNothingStoredThrowsThe5xxStatus() async throws {
        let harness = Harness()
        harness.transport.respond(status: 503)

        await #expect(throws: CachedClientError.httpStatus(503, endpoint: "AccountRepository.getAccount", body: Data())) {
            try await harness.value()
        }
    }

    @Test func fallbackStopsAtMaxStale() async throws {
        let harness = Harness()
        harness.transport.fail()

        try await harness.seed(age: Fixtures.maxStale - 1)
        #expect(try await harness.value().isCached)

        try await harness.seed(age: Fixtures.maxStale)
        await #expect(throws: URLError(.notConnectedToInternet)) { try await harness.value() }
        #expect(harness.events.kinds == [.fallback, .miss])
        #expect(harness.events.all.last?.age == Fixtures.maxStale)
    }

    @Test func aBodyThatDoesNotDecodeThrowsAndIsNotStored() async throws {
        let harness = Harness()
        try await harness.seed(age: 10)
        harness.transport.respond(status: 200, body: Data("{\"id\":1}".utf8))

        await #expect {
            try await harness.value()
        } throws: { error in
            guard case .decodingFailed(let endpoint, let reason) = error as? CachedClientError else { return false }
            return endpoint == "AccountRepository.getAccount" && reason.contains("id")
        }
        #expect(try await harness.storedEntry()?.body == Fixtures.body(Fixtures.alice))
        #expect(!harness.events.kinds.contains(.fallback))
    }

    @Test func cancellationIsNeverAFallback() async throws {
        let harness = Harness()
        try await harness.seed(age: 10)
        harness.transport.fail(with: CancellationError())

        await #expect(throws: CancellationError.self) { try await harness.value() }
    }

    // MARK: cacheFirst

    @Test func cacheFirstWithinTTLSkipsTheNetwork() async throws {
        let harness = Harness()
        try await harness.seed(age: Fixtures.ttl - 1)

        let value = try await harness.value(policy: .cacheFirst)

        #expect(value == .cached(value: Fixtures.alice, date: Fixtures.start.addingTimeInterval(-(Fixtures.ttl - 1))))
        #expect(harness.transport.requestCount == 0)
        #expect(harness.events.kinds == [.hit])
        #expect(harness.events.all.first?.age == Fixtures.ttl - 1)
    }

    @Test func cacheFirstAtTTLGoesToTheNetwork() async throws {
        let harness = Harness(transport: StubTransport(json: Fixtures.aliceLater))
        try await harness.seed(age: Fixtures.ttl)

        let value = try await harness.value(policy: .cacheFirst)

        #expect(value == .fresh(value: Fixtures.aliceLater))
        #expect(harness.transport.requestCount == 1)
        #expect(harness.events.kinds == [.miss, .store])
        #expect(try await harness.storedEntry()?.body == Fixtures.body(Fixtures.aliceLater))
    }

    @Test func cacheFirstPastTTLFallsBackOnTheEntryItReadOnce() async throws {
        let store = FlakyStore()
        let harness = Harness(store: store)
        try await harness.seed(age: Fixtures.ttl + 1)
        harness.transport.fail()

        let value = try await harness.value(policy: .cacheFirst)

        #expect(value.isCached)
        #expect(store.reads == 1)
        #expect(harness.events.kinds == [.miss, .fallback])
    }

    @Test func anEntryFromTheFutureIsNeverWithinTTL() async throws {
        let harness = Harness(transport: StubTransport(json: Fixtures.aliceLater))
        try await harness.seed(age: -3_600)

        #expect(try await harness.value(policy: .cacheFirst) == .fresh(value: Fixtures.aliceLater))
    }

    // MARK: staleWhileRevalidate

    @Test func staleWhileRevalidateReturnsAStaleEntryAtOnceAndRefreshesIt() async throws {
        let harness = Harness(transport: StubTransport(json: Fixtures.aliceLater))
        try await harness.seed(age: Fixtures.ttl + 10)

        let value = try await harness.value(policy: .staleWhileRevalidate)
        #expect(value == .cached(value: Fixtures.alice, date: Fixtures.start.addingTimeInterval(-(Fixtures.ttl + 10))))

        await harness.client.waitForBackgroundRefreshes()
        #expect(harness.transport.requestCount == 1)
        #expect(try await harness.storedEntry() == CacheEntry(body: Fixtures.body(Fixtures.aliceLater), date: Fixtures.start))
        #expect(harness.events.kinds == [.stale, .store])
    }

    @Test func staleWhileRevalidateWithinTTLIsAHitAndStillRefreshes() async throws {
        let harness = Harness(transport: StubTransport(json: Fixtures.aliceLater))
        try await harness.seed(age: 1)

        #expect(try await harness.value(policy: .staleWhileRevalidate).value == Fixtures.alice)
        await harness.client.waitForBackgroundRefreshes()

        #expect(harness.events.kinds == [.hit, .store])
        #expect(harness.transport.requestCount == 1)
    }

    @Test func staleWhileRevalidateRunsOneRefreshPerKeyAtATime() async throws {
        let harness = Harness()
        let gate = Gate()
        harness.transport.hold(at: gate, thenAnswer: Fixtures.aliceLater)
        try await harness.seed(age: Fixtures.ttl + 10)

        for _ in 0..<5 {
            #expect(try await harness.value(policy: .staleWhileRevalidate).value == Fixtures.alice)
        }
        await harness.transport.called.wait()
        gate.open()
        await harness.client.waitForBackgroundRefreshes()

        #expect(harness.transport.requestCount == 1)
        #expect(try await harness.storedEntry()?.body == Fixtures.body(Fixtures.aliceLater))
    }

    @Test func staleWhileRevalidateKeepsTheEntryWhenTheRefreshFails() async throws {
        let harness = Harness()
        harness.transport.fail()
        try await harness.seed(age: Fixtures.ttl + 10)

        _ = try await harness.value(policy: .staleWhileRevalidate)
        await harness.client.waitForBackgroundRefreshes()

        let stored = try await harness.storedEntry()
        #expect(stored?.body == Fixtures.body(Fixtures.alice))
        #expect(harness.events.kinds == [.stale])
    }

    @Test func staleWhileRevalidateReportsARefreshThatGets4xx() async throws {
        let harness = Harness()
        harness.transport.respond(status: 404)
        try await harness.seed(age: Fixtures.ttl + 10)

        _ = try await harness.value(policy: .staleWhileRevalidate)
        await harness.client.waitForBackgroundRefreshes()

        #expect(harness.events.kinds == [.stale, .error])
        #expect(harness.events.all.last?.message == "background refresh: status 404")
    }

    @Test func staleWhileRevalidatePastMaxStaleWaitsForTheNetwork() async throws {
        let harness = Harness(transport: StubTransport(json: Fixtures.aliceLater))
        try await harness.seed(age: Fixtures.maxStale)

        #expect(try await harness.value(policy: .staleWhileRevalidate) == .fresh(value: Fixtures.aliceLater))
        #expect(harness.events.kinds == [.miss, .store])
    }

    @Test func staleWhileRevalidateWithNothingStoredWaitsForTheNetwork() async throws {
        let harness = Harness()

        #expect(try await harness.value(policy: .staleWhileRevalidate) == .fresh(value: Fixtures.alice))
        await harness.client.waitForBackgroundRefreshes()
        #expect(harness.transport.requestCount == 1)
    }

    // MARK: cacheOnly

    @Test func cacheOnlyReturnsAnEntryWithinMaxStaleWithoutTheNetwork() async throws {
        let harness = Harness()
        try await harness.seed(age: Fixtures.maxStale - 1)

        #expect(try await harness.value(policy: .cacheOnly).isCached)
        #expect(harness.transport.requestCount == 0)
        #expect(harness.events.kinds == [.stale])
    }

    @Test func cacheOnlyThrowsNotCachedWhenEmptyOrTooOld() async throws {
        let harness = Harness()
        await #expect(throws: CachedClientError.notCached(endpoint: "AccountRepository.getAccount")) {
            try await harness.value(policy: .cacheOnly)
        }
        try await harness.seed(age: Fixtures.maxStale)
        await #expect(throws: CachedClientError.notCached(endpoint: "AccountRepository.getAccount")) {
            try await harness.value(policy: .cacheOnly)
        }
        #expect(harness.transport.requestCount == 0)
        #expect(harness.events.kinds == [.miss, .miss])
    }

    // MARK: networkOnly

    @Test func networkOnlyStoresButNeverFallsBack() async throws {
        let harness = Harness()
        #expect(try await harness.value(policy: .networkOnly) == .fresh(value: Fixtures.alice))
        #expect(try await harness.storedEntry() != nil)

        harness.transport.fail()
        await #expect(throws: URLError(.notConnectedToInternet)) { try await harness.value(policy: .networkOnly) }
    }

    @Test func theEndpointsPolicyIsTheDefault() async throws {
        let harness = Harness()
        try await harness.seed(age: 1)
        let endpoint = Fixtures.endpoint(policy: .cacheOnly)

        #expect(try await harness.value(endpoint: endpoint).isCached)
        #expect(harness.transport.requestCount == 0)
    }

    // MARK: Revalidation

    @Test func aStoredETagIsRevalidatedAnd304ConfirmsTheEntry() async throws {
        let harness = Harness()
        try await harness.seed(age: Fixtures.ttl + 5, etag: "\"v1\"")
        harness.transport.respond { request in
            request.headers["If-None-Match"] == "\"v1\""
                ? HTTPResponse(statusCode: 304, headers: ["ETag": "\"v1\""])
                : HTTPResponse(statusCode: 200, body: Fixtures.body(Fixtures.aliceLater))
        }

        let value = try await harness.value(policy: .cacheFirst)

        #expect(value == .fresh(value: Fixtures.alice))
        #expect(try await harness.storedEntry() == CacheEntry(body: Fixtures.body(Fixtures.alice), date: Fixtures.start, etag: "\"v1\""))
        #expect(harness.events.kinds == [.miss, .revalidated])
    }

    @Test func a304ForAnUnreadableEntryAsksAgainWithoutValidators() async throws {
        let harness = Harness()
        let corrupt = CacheEntry(body: Data("garbage".utf8), date: Fixtures.start, etag: "\"v1\"")
        try await harness.store.setEntry(corrupt, for: harness.key())
        harness.transport.respond { request in
            request.headers["If-None-Match"] != nil
                ? HTTPResponse(statusCode: 304)
                : HTTPResponse(statusCode: 200, body: Fixtures.body(Fixtures.aliceLater))
        }

        #expect(try await harness.value() == .fresh(value: Fixtures.aliceLater))
        #expect(harness.transport.requestCount == 2)
        #expect(harness.events.kinds == [.error, .store])
    }

    // MARK: Unreadable entries and failing stores

    @Test func aStoredEntryThatNoLongerDecodesIsAMissAndIsRemoved() async throws {
        let harness = Harness(transport: StubTransport { _ in
            HTTPResponse(statusCode: 200, body: Data("{\"identifier\":\"x\"}".utf8))
        })
        try await harness.seed(age: 1)

        let value = try await harness.client.value(for: Fixtures.request(), endpoint: Fixtures.endpoint(), policy: .cacheFirst, as: Renamed.self)
        await harness.client.flush()

        #expect(value == .fresh(value: Renamed(identifier: "x")))
        #expect(harness.events.kinds == [.error, .miss, .store])
        #expect(harness.events.all.first?.message?.hasPrefix("stored entry unreadable, removed") == true)
    }

    @Test func aCorruptEntryIsRemovedForCacheOnly() async throws {
        let harness = Harness()
        try await harness.store.setEntry(CacheEntry(body: Data("{".utf8), date: Fixtures.start), for: harness.key())

        await #expect(throws: CachedClientError.notCached(endpoint: "AccountRepository.getAccount")) {
            try await harness.value(policy: .cacheOnly)
        }
        #expect(try await harness.storedEntry() == nil)
        #expect(harness.events.kinds == [.error, .miss])
    }

    @Test(arguments: CachePolicy.allCases.filter { $0 != .cacheOnly })
    func aStoreThatFailsToReadNeverFailsACallTheNetworkCanServe(policy: CachePolicy) async throws {
        let harness = Harness(store: FlakyStore(failReads: true))

        #expect(try await harness.value(policy: policy) == .fresh(value: Fixtures.alice))
        let errors = harness.events.all.filter { $0.kind == .error }
        #expect(errors.allSatisfy { $0.message == "read failed: CachedClientTestSupport.StoreFailure 1" })
    }

    @Test(arguments: CachePolicy.allCases.filter { $0 != .cacheOnly })
    func aStoreThatFailsToWriteNeverFailsTheCall(policy: CachePolicy) async throws {
        let harness = Harness(store: FlakyStore(failWrites: true))

        #expect(try await harness.value(policy: policy) == .fresh(value: Fixtures.alice))
        #expect(harness.events.kinds.contains(.error))
        #expect(!harness.events.kinds.contains(.store))
    }

    // MARK: What reaches the store and the events

    @Test func requestHeadersAndCookiesNeverReachTheStore() async throws {
        let secret = "Bearer s3cr3t-token"
        let transport = StubTransport { _ in
            HTTPResponse(
                statusCode: 200, headers: ["Set-Cookie": "session=abc123", "ETag": "\"v9\""],
                body: Fixtures.body(Fixtures.alice))
        }
        let harness = Harness(transport: transport, headers: { ["Authorization": secret, "Cookie": "c=1"] })

        _ = try await harness.value()

        #expect(transport.requests.first?.headers["Authorization"] == secret)
        let stored = try #require(try await harness.storedEntry())
        #expect(stored == CacheEntry(body: Fixtures.body(Fixtures.alice), date: Fixtures.start, etag: "\"v9\""))
        let storedText = String(decoding: stored.body, as: UTF8.self) + (stored.etag ?? "") + (stored.lastModified ?? "")
        for forbidden in ["s3cr3t", "abc123", "c=1"] { #expect(!storedText.contains(forbidden)) }
    }

    @Test func eventsNameTheEndpointAndKeyButNoValues() async throws {
        var request = EndpointRequest(method: "GET", path: "/accounts/{id}")
        request.setPathParameter("id", "private-id-42")
        request.addQuery("search", "private query", isKey: true)
        let harness = Harness(headers: { ["Authorization": "Bearer private-token"] })
        let endpoint = Fixtures.endpoint()
        let key = CacheKey(endpoint: endpoint, request: request, baseURL: Fixtures.baseURL, bodyDigest: nil, partition: "user-1")
        harness.transport.fail(with: URLError(.notConnectedToInternet, userInfo: [NSURLErrorFailingURLErrorKey: URL(string: "https://api.example.com/v1/accounts/private-id-42")!, "text": "https://api.example.com/v1/accounts/private-id-42"]))
        try await harness.store.setEntry(CacheEntry(body: Data("{\"bad\":\"private-body\"}".utf8), date: Fixtures.start), for: key)

        await #expect(throws: URLError.self) {
            _ = try await harness.client.value(for: request, endpoint: endpoint, policy: .cacheFirst, as: Account.self)
        }

        #expect(harness.events.kinds == [.error, .miss])
        for event in harness.events.all {
            #expect(event.endpoint == "AccountRepository.getAccount")
            #expect(event.key == key.description)
            #expect(!event.description.contains("private"))
        }
    }

    @Test func requestHeadersAreMergedAndTheProviderIsAskedEveryTime() async throws {
        let calls = Locked(0)
        let harness = Harness(headers: {
            calls.withLock { $0 += 1 }
            return ["Authorization": "Bearer t", "accept": "application/vnd.api+json"]
        })
        var request = Fixtures.request()
        request.addHeader("X-Client-Version", 3, isKey: false)

        _ = try await harness.client.value(for: request, endpoint: Fixtures.endpoint(), policy: .networkOnly, as: Account.self)
        _ = try await harness.client.value(for: request, endpoint: Fixtures.endpoint(), policy: .networkOnly, as: Account.self)

        #expect(calls.withLock { $0 } == 2)
        let sent = try #require(harness.transport.requests.first)
        #expect(sent.method == "GET")
        #expect(sent.url.absoluteString == "https://api.example.com/v1/accounts/1")
        #expect(sent.headers == ["Authorization": "Bearer t", "accept": "application/vnd.api+json", "X-Client-Version": "3"])
        #expect(sent.body == nil)
    }

    @Test func aHeadersProviderThatFailsCountsAsATransportFailure() async throws {
        struct TokenRefreshFailed: Error {}
        let harness = Harness(headers: { throw TokenRefreshFailed() })
        try await harness.seed(age: 10)

        #expect(try await harness.value().isCached)
        #expect(harness.transport.requestCount == 0)
        await #expect(throws: TokenRefreshFailed.self) {
            let _: CachedValue<Account> = try await harness.client.value(for: Fixtures.request(), endpoint: Fixtures.uncached)
        }
    }

    @Test func theURLJoinsBasePathAndEncodedQuery() async throws {
        let transport = StubTransport(json: Fixtures.alice)
        let client = CachedClient(baseURL: URL(string: "https://api.example.com/v1/")!, transport: transport)
        var request = EndpointRequest(method: "get", path: "/accounts/{id}")
        request.setPathParameter("id", "a b/ü")
        request.addQuery("q", "x&y=z", isKey: true)
        request.addQuery("page", 2, isKey: true)

        _ = try await client.value(for: request, endpoint: Fixtures.endpoint(), as: Account.self)

        #expect(transport.requests.first?.url.absoluteString == "https://api.example.com/v1/accounts/a%20b%2F%C3%BC?q=x%26y%3Dz&page=2")
        #expect(transport.requests.first?.method == "GET")
    }

    @Test func keyParametersMakeEntriesAndOtherParametersShareThem() async throws {
        let harness = Harness()
        let endpoint = Fixtures.endpoint("AccountRepository.getAccounts")

        for request in [Fixtures.page(1, trace: "a"), Fixtures.page(2, trace: "a"), Fixtures.page(1, trace: "b"), Fixtures.page(2, trace: "c")] {
            _ = try await harness.client.value(for: request, endpoint: endpoint, policy: .cacheFirst, as: Account.self)
        }

        #expect(harness.transport.requestCount == 2)  // the third call read the first's entry, landed or not
        await harness.client.flush()
        #expect(try await harness.store.entryCount() == 2)
    }

    @Test func aBodyInTheKeyMakesEntriesPerBody() async throws {
        struct Query: Codable, Sendable { var text: String }
        let harness = Harness()
        func search(_ text: String) -> EndpointRequest {
            var request = EndpointRequest(method: "POST", path: "/search")
            request.setJSONBody(Query(text: text), isKey: true)
            return request
        }
        let endpoint = Fixtures.endpoint("SearchRepository.search")

        for text in ["a", "b", "a"] {
            _ = try await harness.client.value(for: search(text), endpoint: endpoint, policy: .cacheFirst, as: Account.self)
        }

        #expect(harness.transport.requestCount == 2)
        let sent = try #require(harness.transport.requests.first)
        #expect(sent.body == Data("{\"text\":\"a\"}".utf8))
        #expect(sent.headers["Content-Type"] == "application/json")
    }

    // MARK: Partitions

    @Test func userEntriesBelongToTheirPartitionAndSharedOnesToEveryone() async throws {
        let harness = Harness()
        let shared = Fixtures.endpoint("CatalogRepository.getItem", scope: .shared)
        _ = try await harness.value()
        _ = try await harness.client.value(for: Fixtures.request(), endpoint: shared, as: Account.self)

        harness.client.setPartition("user-2")
        #expect(harness.client.partition == "user-2")

        await #expect(throws: CachedClientError.notCached(endpoint: "AccountRepository.getAccount")) {
            try await harness.value(policy: .cacheOnly)
        }
        #expect(try await harness.client.value(for: Fixtures.request(), endpoint: shared, policy: .cacheOnly, as: Account.self).isCached)
    }

    @Test func anAnswerThatArrivesAfterThePartitionChangedIsNotStored() async throws {
        let harness = Harness()
        let gate = Gate()
        harness.transport.hold(at: gate, thenAnswer: Fixtures.alice)
        let key = harness.key()

        let call = Task { try await harness.value() }
        await harness.transport.called.wait()
        harness.client.setPartition(nil)
        gate.open()

        #expect(try await call.value == .fresh(value: Fixtures.alice))
        #expect(try await harness.store.entry(for: key) == nil)
        #expect(try await harness.store.entryCount() == 0)
    }

    // MARK: cache: false endpoints

    @Test func anEndpointWithoutACacheRuleIsFetchedThroughValue() async throws {
        let store = FlakyStore()
        let harness = Harness(store: store)

        let value: CachedValue<Account> = try await harness.client.value(for: Fixtures.request(), endpoint: Fixtures.uncached)

        #expect(value == .fresh(value: Fixtures.alice))
        #expect(store.operations == 0)
    }
}
