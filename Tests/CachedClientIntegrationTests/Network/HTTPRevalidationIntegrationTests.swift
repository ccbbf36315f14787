import CachedClientTestSupport
import FixtureServerSupport
import Foundation
import StoreTestSupport
import Testing

@_spi(Generated) @testable import CachedClientRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Revalidation and server-driven freshness through a real socket: `CachedClient` over
/// `URLSessionTransport` against `fixture_server.py`, which answers 304 to matching
/// validators, sends whatever caching header fields a route holds (repeated ones too) and
/// counts the bytes of every response it sends.
@Suite("Integration: revalidation and server freshness", .timeLimit(.minutes(1)))
struct HTTPRevalidationIntegrationTests {
    /// A header field value: one line, or one line per item.
    enum HeaderValue: Encodable, ExpressibleByStringLiteral, ExpressibleByArrayLiteral {
        case one(String)
        case lines([String])

        init(stringLiteral value: String) { self = .one(value) }
        init(arrayLiteral elements: String...) { self = .lines(elements) }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .one(let value): try container.encode(value)
            case .lines(let values): try container.encode(values)
            }
        }
    }

    /// A client on the fixture server under a path prefix of its own, with a test clock.
    struct Setup {
        let server: FixtureServer
        let prefix: String
        let clock = TestClock()
        let events = EventLog()
        let store = MemoryCacheStore()
        let client: CachedClient

        init(ownServer: Bool = false) async throws {
            server = ownServer ? try await FixtureServer.start() : try await FixtureServer.shared
            prefix = ownServer ? "" : "/test-\(UUID().uuidString.lowercased())"
            client = CachedClient(
                baseURL: URL(string: server.baseURL.absoluteString + prefix + "/v1")!, store: store,
                transport: URLSessionTransport(timeout: 10), partition: "user-1", retry: .none,
                now: clock.function, events: events.record)
        }

        private struct Route: Encodable {
            var path: String
            var status: Int
            var headers: [String: HeaderValue]
            var body: String
            var times: Int?
        }

        /// Serves `body` for `GET path` from now on; with `times`, for that many requests in
        /// front of the route there was.
        func route(
            _ path: String, status: Int = 200, headers: [String: HeaderValue] = [:], body: String, times: Int? = nil
        ) async throws {
            var headers = headers
            headers["Content-Type"] = headers["Content-Type"] ?? "application/json"
            let route = Route(path: prefix + "/v1" + path, status: status, headers: headers, body: body, times: times)
            _ = try await server.control("POST", "routes", body: try JSONEncoder().encode(route))
        }

        func route(_ path: String, headers: [String: HeaderValue] = [:], json account: Account) async throws {
            try await route(path, headers: headers, body: String(decoding: Fixtures.body(account), as: UTF8.self))
        }

        /// One call, then waits for the write it started, so the store and the events are
        /// settled when the test looks (as `Harness.value` does).
        func account(_ endpoint: Endpoint, policy: CachePolicy? = nil) async throws -> CachedValue<Account> {
            do {
                let value: CachedValue<Account> = try await client.value(for: Fixtures.request(), endpoint: endpoint, policy: policy)
                await client.flush()
                return value
            } catch {
                await client.flush()
                throw error
            }
        }

        /// This test's requests, oldest first.
        func requests() async throws -> [FixtureServer.RecordedRequest] {
            try await server.requests().filter { $0.path.hasPrefix(prefix + "/v1/") }
        }

        func storedEntry(_ endpoint: Endpoint) async throws -> CacheEntry? {
            await client.flush()
            let key = try #require(store.keys().first { $0.endpoint == endpoint.name })
            return store.entry(for: key)
        }
    }

    static func endpoint(fromServer: Bool = true) -> Endpoint {
        var endpoint = Fixtures.endpoint()
        endpoint.cache?.ttlFromServer = fromServer
        return endpoint
    }

    static let lastModified = "Tue, 14 Nov 2023 21:00:00 GMT"

    @Test func aRevalidated304IsFreshAndRenewsTheEntry() async throws {
        let setup = try await Setup()
        let endpoint = Self.endpoint()
        try await setup.route(
            "/accounts/1", headers: ["ETag": "\"v7\"", "Last-Modified": .one(Self.lastModified), "Cache-Control": "max-age=60"],
            json: Fixtures.alice)

        #expect(try await setup.account(endpoint) == .fresh(value: Fixtures.alice))
        setup.clock.advance(by: 59)
        #expect(try await setup.account(endpoint, policy: .cacheFirst).isCached)
        setup.clock.advance(by: 1)
        #expect(try await setup.account(endpoint, policy: .cacheFirst) == .fresh(value: Fixtures.alice))

        let requests = try await setup.requests()
        #expect(requests.map(\.status) == [200, 304])
        #expect(requests.last?.header("If-None-Match") == "\"v7\"")
        #expect(requests.last?.header("If-Modified-Since") == Self.lastModified)
        #expect(setup.events.kinds == [.store, .hit, .miss, .revalidated])
        let renewed = try #require(try await setup.storedEntry(endpoint))
        #expect(renewed.date == Fixtures.start.addingTimeInterval(60))
        #expect(renewed.freshness?.lifetime == 60)
    }

    /// RFC 9111 §4.3.4: a 304 that carries another validator confirms another response.
    @Test func a304WithAnotherETagDoesNotRenewTheEntryAndItIsFetchedAgain() async throws {
        let setup = try await Setup()
        let endpoint = Self.endpoint()
        try await setup.route("/accounts/1", headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=60"], json: Fixtures.alice)
        _ = try await setup.account(endpoint)
        try await setup.route("/accounts/1", headers: ["ETag": "\"v2\"", "Cache-Control": "max-age=60"], json: Fixtures.aliceLater)
        try await setup.route("/accounts/1", status: 304, headers: ["ETag": "\"v2\""], body: "", times: 1)
        setup.clock.advance(by: 61)

        #expect(try await setup.account(endpoint, policy: .cacheFirst) == .fresh(value: Fixtures.aliceLater))

        let requests = try await setup.requests()
        #expect(requests.map(\.status) == [200, 304, 200])
        #expect(requests[1].header("If-None-Match") == "\"v1\"")
        #expect(requests[2].header("If-None-Match") == nil)
        #expect(setup.events.kinds == [.store, .miss, .store])
        let stored = try #require(try await setup.storedEntry(endpoint))
        #expect(stored.etag == "\"v2\"")
        #expect(stored.body == Fixtures.body(Fixtures.aliceLater))
    }

    @Test func a304WithTheSameWeakETagRenewsTheEntry() async throws {
        let setup = try await Setup()
        let endpoint = Self.endpoint()
        try await setup.route("/accounts/1", headers: ["ETag": "W/\"v1\"", "Cache-Control": "max-age=60"], json: Fixtures.alice)
        _ = try await setup.account(endpoint)
        setup.clock.advance(by: 61)

        #expect(try await setup.account(endpoint, policy: .cacheFirst) == .fresh(value: Fixtures.alice))
        #expect(try await setup.requests().map(\.status) == [200, 304])
        #expect(setup.events.kinds == [.store, .miss, .revalidated])
    }

    @Test func lastModifiedAloneRevalidatesWithIfModifiedSince() async throws {
        let setup = try await Setup()
        try await setup.route("/accounts/1", headers: ["Last-Modified": .one(Self.lastModified)], json: Fixtures.alice)
        _ = try await setup.account(Fixtures.endpoint())
        setup.clock.advance(by: Fixtures.ttl)

        #expect(try await setup.account(Fixtures.endpoint(), policy: .cacheFirst) == .fresh(value: Fixtures.alice))
        let requests = try await setup.requests()
        #expect(requests.map(\.status) == [200, 304])
        #expect(requests.last?.header("If-None-Match") == nil)
        #expect(requests.last?.header("If-Modified-Since") == Self.lastModified)
    }

    @Test func aChangedResourceComesBackAsA200WithItsNewETag() async throws {
        let setup = try await Setup()
        try await setup.route("/accounts/1", headers: ["ETag": "\"a\""], json: Fixtures.alice)
        _ = try await setup.account(Fixtures.endpoint())
        try await setup.route("/accounts/1", headers: ["ETag": "\"b\""], json: Fixtures.aliceLater)
        setup.clock.advance(by: Fixtures.ttl)

        #expect(try await setup.account(Fixtures.endpoint(), policy: .cacheFirst) == .fresh(value: Fixtures.aliceLater))
        #expect(try await setup.storedEntry(Fixtures.endpoint())?.etag == "\"b\"")
        setup.clock.advance(by: Fixtures.ttl)
        #expect(try await setup.account(Fixtures.endpoint(), policy: .cacheFirst) == .fresh(value: Fixtures.aliceLater))

        let requests = try await setup.requests()
        #expect(requests.map(\.status) == [200, 200, 304])
        #expect(requests.map { $0.header("If-None-Match") } == [nil, "\"a\"", "\"b\""])
        #expect(setup.events.kinds == [.store, .miss, .store, .miss, .revalidated])
    }

    @Test func noStoreIsNeverKeptSoA5xxHasNothingToFallBackOn() async throws {
        let setup = try await Setup()
        try await setup.route("/accounts/1", headers: ["Cache-Control": "no-store", "ETag": "\"x\""], json: Fixtures.alice)

        #expect(try await setup.account(Fixtures.endpoint()) == .fresh(value: Fixtures.alice))
        #expect(setup.store.entryCount() == 0)
        try await setup.route("/accounts/1", status: 503, body: "{}")
        await #expect(throws: CachedClientError.httpStatus(503, endpoint: Fixtures.endpoint().name, body: Data("{}".utf8))) {
            try await setup.account(Fixtures.endpoint())
        }
    }

    @Test func maxAgeOverridesTheSpecsTTLAndRepeatedFieldLinesCount() async throws {
        let setup = try await Setup()
        let endpoint = Self.endpoint()
        try await setup.route(
            "/accounts/1", headers: ["Cache-Control": ["max-age=600", "stale-if-error=60"], "Age": "100"], json: Fixtures.alice)
        _ = try await setup.account(endpoint)
        #expect(try await setup.storedEntry(endpoint)?.freshness == ServerFreshness(lifetime: 600, initialAge: 100, staleIfError: 60))

        setup.clock.advance(by: 499)  // 100 s old on arrival: fresh for 500 s more, well past the spec's 60.
        #expect(try await setup.account(endpoint, policy: .cacheFirst).isCached)
        setup.clock.advance(by: 1)
        #expect(try await setup.account(endpoint, policy: .cacheFirst) == .fresh(value: Fixtures.alice))
        #expect(try await setup.requests().count == 2)
    }

    @Test func staleIfErrorCoversA5xxForItsWindowOnly() async throws {
        let setup = try await Setup()
        let endpoint = Self.endpoint()
        try await setup.route(
            "/accounts/1", headers: ["Cache-Control": "max-age=60, must-revalidate, stale-if-error=120"], json: Fixtures.alice)
        _ = try await setup.account(endpoint)
        try await setup.route("/accounts/1", status: 503, body: "{}")

        setup.clock.advance(by: 180)
        #expect(try await setup.account(endpoint) == .cached(value: Fixtures.alice, date: Fixtures.start))
        setup.clock.advance(by: 1)
        await #expect(throws: CachedClientError.httpStatus(503, endpoint: endpoint.name, body: Data("{}".utf8))) {
            try await setup.account(endpoint)
        }
        #expect(setup.events.kinds == [.store, .fallback, .miss])
    }

    @Test func staleIfErrorCoversAServerThatIsGone() async throws {
        let setup = try await Setup(ownServer: true)
        let endpoint = Self.endpoint()
        try await setup.route(
            "/accounts/1", headers: ["Cache-Control": "max-age=60, must-revalidate, stale-if-error=120"], json: Fixtures.alice)
        _ = try await setup.account(endpoint)
        setup.server.stop()

        setup.clock.advance(by: 100)
        #expect(try await setup.account(endpoint) == .cached(value: Fixtures.alice, date: Fixtures.start))
        setup.clock.advance(by: 100)
        await #expect(throws: URLError.self) { try await setup.account(endpoint) }
    }

    /// The figure the issue asks for: a revalidated hit against a full fetch of a 100 KB
    /// answer, counted by the server as status line + header fields + body.
    @Test func aRevalidatedHitCostsAFewHundredBytesInsteadOf100KB() async throws {
        let setup = try await Setup()
        let accounts = Self.accounts(totalling: 100 * 1_024)
        let body = String(decoding: try Self.encoder.encode(accounts), as: UTF8.self)
        try await setup.route("/accounts", headers: ["ETag": "\"list-1\"", "Last-Modified": .one(Self.lastModified)], body: body)
        let endpoint = Fixtures.endpoint("AccountRepository.getAccounts")
        let request = EndpointRequest(method: "GET", path: "/accounts")

        let full: CachedValue<[Account]> = try await setup.client.value(for: request, endpoint: endpoint)
        setup.clock.advance(by: Fixtures.ttl)
        let revalidated: CachedValue<[Account]> = try await setup.client.value(for: request, endpoint: endpoint, policy: .cacheFirst)

        #expect(full == .fresh(value: accounts))
        #expect(revalidated == .fresh(value: accounts))
        let requests = try await setup.requests()
        #expect(requests.map(\.status) == [200, 304])
        let fullBytes = try #require(requests.first?.responseBytes)
        let revalidatedBytes = try #require(requests.last?.responseBytes)
        print("fixture server, 100 KB answer: full fetch \(fullBytes) bytes, revalidated hit \(revalidatedBytes) bytes")
        #expect(fullBytes > 100 * 1_024)
        #expect(revalidatedBytes < 1_024)
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    /// Accounts whose JSON is at least `bytes` long.
    static func accounts(totalling bytes: Int) -> [Account] {
        let each = Fixtures.body(Account(id: "account-00000", balance: 12_345.67)).count + 1
        return (0..<(bytes / each + 1)).map { Account(id: "account-\(String(100_000 + $0).dropFirst())", balance: 12_345.67) }
    }
}
