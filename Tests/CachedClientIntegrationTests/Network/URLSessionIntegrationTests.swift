import CachedClientTestSupport
import FixtureServerSupport
import Foundation
import StoreTestSupport
import Testing

@_spi(Generated) @testable import CachedClientRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `CachedClient` over `URLSessionTransport` against the real fixture server on
/// 127.0.0.1: what the policy tests check with a stub, checked once through a socket.
@Suite("Integration: CachedClient over URLSession", .timeLimit(.minutes(1)))
struct URLSessionIntegrationTests {
    /// A client on the fixture server, with a test clock and an event log.
    ///
    /// Tests that stop the server get one of their own; the others share one and keep
    /// apart by a path prefix of their own, which `setRoute` and `requests` add and strip.
    struct Setup {
        let server: FixtureServer
        let prefix: String
        let clock = TestClock()
        let events = EventLog()
        let client: CachedClient

        init(
            ownServer: Bool = false,
            store: (TestClock) throws -> any CacheStore = { _ in MemoryCacheStore() },
            headers: @escaping @Sendable () async throws -> [String: String] = { [:] }
        ) async throws {
            server = ownServer ? try await FixtureServer.start() : try await FixtureServer.shared
            prefix = ownServer ? "" : "/test-\(UUID().uuidString.lowercased())"
            client = CachedClient(
                baseURL: URL(string: server.baseURL.absoluteString + prefix + "/v1")!, store: try store(clock),
                transport: URLSessionTransport(timeout: 10), partition: "user-1",
                headers: headers, now: clock.function, events: events.record)
        }

        /// One call, then waits for the write it started, so the store and the events are
        /// settled when the test looks (as `Harness.value` does).
        func account(_ id: String = "1", policy: CachePolicy? = nil) async throws -> CachedValue<Account> {
            try await client.settledAccount(id: id, policy: policy)
        }

        func setRoute(
            _ path: String, method: String = "GET", status: Int = 200, headers: [String: String] = [:], body: String = ""
        ) async throws {
            try await server.setRoute(prefix + path, method: method, status: status, headers: headers, body: body)
        }

        func setRoute(
            _ path: String, method: String = "GET", status: Int = 200, headers: [String: String] = [:],
            json value: some Encodable, delayMilliseconds: Int = 0, times: Int? = nil
        ) async throws {
            try await server.setRoute(
                prefix + path, method: method, status: status, headers: headers, json: value,
                delayMilliseconds: delayMilliseconds, times: times)
        }

        /// This test's requests, paths without the prefix.
        func requests() async throws -> [FixtureServer.RecordedRequest] {
            try await server.requests().filter { $0.path.hasPrefix(prefix + "/") }.map { request in
                var request = request
                request.path.removeFirst(prefix.count)
                return request
            }
        }

        func requestCount(path: String) async throws -> Int {
            try await requests().filter { $0.path == path }.count
        }
    }

    @Test func aFreshAnswer() async throws {
        let setup = try await Setup()
        try await setup.setRoute("/v1/accounts/1", json: Fixtures.alice)

        #expect(try await setup.account() == .fresh(value: Fixtures.alice))
        let request = try #require(try await setup.requests().first)
        #expect(request.method == "GET")
        #expect(request.path == "/v1/accounts/1")
        #expect(request.header("Accept") == "application/json")
    }

    @Test func fallsBackWithTheStoredDateWhenTheServerIsGone() async throws {
        let setup = try await Setup(ownServer: true)
        try await setup.setRoute("/v1/accounts/1", json: Fixtures.alice)
        _ = try await setup.account()
        setup.clock.advance(by: 90)

        setup.server.stop()

        #expect(try await setup.account() == .cached(value: Fixtures.alice, date: Fixtures.start))
        #expect(setup.events.kinds == [.store, .fallback])
        #expect(setup.events.all.last?.age == 90)
    }

    @Test func withTheServerGoneAndNothingStoredTheURLErrorIsThrown() async throws {
        let setup = try await Setup(ownServer: true)
        setup.server.stop()

        await #expect(throws: URLError.self) { try await setup.account() }
    }

    @Test func fallsBackOn5xx() async throws {
        let setup = try await Setup()
        try await setup.setRoute("/v1/accounts/1", json: Fixtures.alice)
        _ = try await setup.account()
        setup.clock.advance(by: 10)
        try await setup.setRoute("/v1/accounts/1", status: 503, body: "{\"error\":\"maintenance\"}")

        #expect(try await setup.account() == .cached(value: Fixtures.alice, date: Fixtures.start))
    }

    @Test func doesNotFallBackOn404() async throws {
        let setup = try await Setup()
        try await setup.setRoute("/v1/accounts/1", json: Fixtures.alice)
        _ = try await setup.account()
        try await setup.setRoute("/v1/accounts/1", status: 404, body: "{\"error\":\"gone\"}")

        await #expect(
            throws: CachedClientError.httpStatus(404, endpoint: "AccountRepository.getAccount", body: Data("{\"error\":\"gone\"}".utf8))
        ) {
            try await setup.account()
        }
    }

    @Test func cacheFirstSkipsTheServerWithinTTLAndAsksItAfter() async throws {
        let setup = try await Setup()
        try await setup.setRoute("/v1/accounts/1", json: Fixtures.alice)
        _ = try await setup.account()

        setup.clock.advance(by: Fixtures.ttl - 1)
        #expect(try await setup.account(policy: .cacheFirst).isCached)
        #expect(try await setup.requestCount(path: "/v1/accounts/1") == 1)

        setup.clock.advance(by: 1)
        #expect(try await setup.account(policy: .cacheFirst) == .fresh(value: Fixtures.alice))
        #expect(try await setup.requestCount(path: "/v1/accounts/1") == 2)
    }

    @Test func keyParametersMakeEntriesAndOtherParametersShareThem() async throws {
        let setup = try await Setup()
        try await setup.setRoute("/v1/accounts", json: Fixtures.alice)
        let endpoint = Fixtures.endpoint("AccountRepository.getAccounts")

        for request in [Fixtures.page(1, trace: "a"), Fixtures.page(2, trace: "b"), Fixtures.page(1, trace: "c"), Fixtures.page(2, trace: "d")] {
            _ = try await setup.client.value(for: request, endpoint: endpoint, policy: .cacheFirst, as: Account.self)
        }

        #expect(try await setup.requests().map(\.path) == ["/v1/accounts?page=1&trace=a", "/v1/accounts?page=2&trace=b"])
        await setup.client.flush()
        #expect(try await setup.client.store.entryCount() == 2)
    }

    @Test func theHeadersProviderReachesTheServerButNotTheStore() async throws {
        let store = MemoryCacheStore()
        let setup = try await Setup(store: { _ in store }, headers: { ["Authorization": "Bearer token-123"] })
        try await setup.setRoute(
            "/v1/accounts/1", headers: ["Set-Cookie": "session=cookie-456", "ETag": "\"e1\""], json: Fixtures.alice)

        _ = try await setup.account()

        #expect(try await setup.requests().first?.header("Authorization") == "Bearer token-123")
        let key = try #require(store.keys().first)
        let entry = try #require(store.entry(for: key))
        #expect(entry == CacheEntry(body: Fixtures.body(Fixtures.alice), date: Fixtures.start, etag: "\"e1\""))
    }

    @Test(arguments: [20, 100])
    func concurrentIdenticalCallsMakeOneRequest(callers: Int) async throws {
        let setup = try await Setup()
        try await setup.setRoute("/v1/accounts/1", json: Fixtures.alice, delayMilliseconds: 400)

        try await withThrowingTaskGroup(of: CachedValue<Account>.self) { group in
            for _ in 0..<callers { group.addTask { try await setup.account() } }
            for try await value in group { #expect(value == .fresh(value: Fixtures.alice)) }
        }

        #expect(try await setup.requestCount(path: "/v1/accounts/1") == 1)
    }

    @Test func anETagIsRevalidatedWith304() async throws {
        let setup = try await Setup()
        try await setup.setRoute("/v1/accounts/1", headers: ["ETag": "\"v7\""], json: Fixtures.alice)
        _ = try await setup.account()
        setup.clock.advance(by: Fixtures.ttl + 1)

        #expect(try await setup.account(policy: .cacheFirst) == .fresh(value: Fixtures.alice))

        let requests = try await setup.requests()
        #expect(requests.count == 2)
        #expect(requests.last?.header("If-None-Match") == "\"v7\"")
        #expect(setup.events.kinds == [.store, .miss, .revalidated])
    }

    @Test func aBodyIsSentAsJSONAndNothingIsStored() async throws {
        let setup = try await Setup()
        try await setup.setRoute("/v1/transfers", method: "POST", status: 201, json: Fixtures.aliceLater)
        try await setup.setRoute("/v1/transfers/9", method: "DELETE", status: 204)
        var create = EndpointRequest(method: "POST", path: "/transfers")
        create.setJSONBody(Fixtures.alice, isKey: false)

        let created: Account = try await setup.client.response(for: create, endpoint: Fixtures.uncached)
        try await setup.client.perform(EndpointRequest(method: "DELETE", path: "/transfers/9"), endpoint: Fixtures.uncached)

        #expect(created == Fixtures.aliceLater)
        let requests = try await setup.requests()
        #expect(requests.map(\.method) == ["POST", "DELETE"])
        #expect(requests.first?.header("Content-Type") == "application/json")
        #expect(requests.first?.body == "{\"balance\":10,\"id\":\"1\"}")
        #expect(try await setup.client.store.entryCount() == 0)
    }

    @Test func aDiskStoreServesTheLastAnswerAfterARelaunchWhileOffline() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "cachegen-client-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let setup = try await Setup(
            ownServer: true,
            store: { clock in try FileCacheStore(directory: directory, now: clock.function) },
            headers: { ["Authorization": "Bearer token-789"] })
        try await setup.setRoute("/v1/accounts/1", headers: ["Set-Cookie": "sid=cookie-000"], json: Fixtures.alice)
        _ = try await setup.account()
        setup.server.stop()

        // A new client and store over the same folder, as after an app relaunch.
        let relaunched = CachedClient(
            baseURL: setup.client.baseURL, store: try FileCacheStore(directory: directory, now: setup.clock.function),
            transport: URLSessionTransport(timeout: 10), partition: "user-1", now: setup.clock.function)
        setup.clock.advance(by: 3_000)
        let value: CachedValue<Account> = try await relaunched.value(for: Fixtures.request(), endpoint: Fixtures.endpoint())

        #expect(value == .cached(value: Fixtures.alice, date: Fixtures.start))
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? []
        for file in files where !file.hasDirectoryPath {
            let text = String(decoding: (try? Data(contentsOf: file)) ?? Data(), as: UTF8.self)
            #expect(!text.contains("token-789") && !text.contains("cookie-000"))
        }
    }
}

/// `URLSessionTransport` on its own: every status is an answer, only no answer is an error.
@Suite("Integration: URLSessionTransport", .timeLimit(.minutes(1)))
struct URLSessionTransportIntegrationTests {
    @Test func returnsEveryStatusWithLowerCasedHeaders() async throws {
        let server = try await FixtureServer.shared
        let prefix = "/test-\(UUID().uuidString.lowercased())"
        try await server.setRoute(prefix + "/boom", status: 500, headers: ["X-Trace": "t1"], body: "down")
        let transport = URLSessionTransport(timeout: 10)

        let response = try await transport.send(HTTPRequest(method: "GET", url: server.baseURL.appending(path: prefix + "/boom")))
        let missing = try await transport.send(HTTPRequest(method: "GET", url: server.baseURL.appending(path: prefix + "/nothing")))

        #expect(response.statusCode == 500)
        #expect(response.body == Data("down".utf8))
        #expect(response.headers["x-trace"] == "t1")
        #expect(response.header("X-TRACE") == "t1")
        #expect(missing.statusCode == 404)
    }

    @Test func throwsAURLErrorWhenNothingListens() async throws {
        let server = try await FixtureServer.start()
        server.stop()

        await #expect(throws: URLError.self) {
            try await URLSessionTransport(timeout: 10).send(HTTPRequest(method: "GET", url: server.baseURL))
        }
    }

    @Test func honoursCancellation() async throws {
        let server = try await FixtureServer.shared
        let path = "/test-\(UUID().uuidString.lowercased())/slow"
        try await server.setRoute(path, body: "late", delayMilliseconds: 30_000)
        let url = server.baseURL.appending(path: path)

        let call = Task { try await URLSessionTransport(timeout: 60).send(HTTPRequest(method: "GET", url: url)) }
        while try await !server.requests().contains(where: { $0.path == path }) { await Task.yield() }
        call.cancel()

        await #expect {
            _ = try await call.value
        } throws: { error in
            CallFetcher.isCancellation(error)
        }
    }
}
