import CachedClientTestSupport
import FixtureServerSupport
import Foundation
import Testing

@_spi(Generated) @testable import CachedClientRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Retries and token refresh against the real fixture server over URLSession: failures
/// counted and spaced as the policy says (the waits recorded, never slept), one refresh for
/// fifty calls, and a cancelled retry loop that stops at once.
@Suite("Integration: retries and authentication")
struct RetryAuthIntegrationTests {
    struct Setup {
        let server: FixtureServer
        let prefix = "/retry-\(UUID().uuidString.lowercased())"
        let clock = TestClock()
        let sleeper: RecordingSleeper
        let client: CachedClient

        init(middleware: [any ClientMiddleware] = [], retry: ((RecordingSleeper) -> RetryPolicy)? = nil) async throws {
            server = try await FixtureServer.shared
            sleeper = RecordingSleeper(clock: clock)
            client = CachedClient(
                baseURL: URL(string: server.baseURL.absoluteString + prefix + "/v1")!,
                transport: URLSessionTransport(timeout: 10), partition: "user-1", middleware: middleware,
                retry: retry?(sleeper) ?? sleeper.policy(), now: clock.function)
        }

        var base: String { server.baseURL.absoluteString + prefix }

        func requests(_ path: String) async throws -> [FixtureServer.RecordedRequest] {
            try await server.requests().filter { $0.path.hasPrefix(prefix + path) }
        }

        func account(_ request: EndpointRequest = Fixtures.request()) async throws -> CachedValue<Account> {
            try await client.value(for: request, endpoint: Fixtures.endpoint(), policy: .networkOnly)
        }
    }

    @Test func failingTwiceThenSucceedingIsRetriedTwiceWithBackoff() async throws {
        let setup = try await Setup()
        try await setup.server.setRoute(setup.prefix + "/v1/accounts/1", json: Fixtures.alice)
        try await setup.server.setRoute(setup.prefix + "/v1/accounts/1", status: 503, body: "{}", times: 2)

        #expect(try await setup.account() == .fresh(value: Fixtures.alice))
        #expect(try await setup.requests("/v1/accounts/1").map(\.status) == [503, 503, 200])
        #expect(setup.sleeper.recorded == [.milliseconds(500), .seconds(1)])
    }

    @Test func a429WithRetryAfterIsWaitedOutAndTheHostLeftAlone() async throws {
        let setup = try await Setup()
        try await setup.server.setRoute(setup.prefix + "/v1/accounts/1", json: Fixtures.alice)
        try await setup.server.setRoute(
            setup.prefix + "/v1/accounts/1", status: 429, headers: ["Retry-After": "3"], body: "{}", times: 1)

        #expect(try await setup.account() == .fresh(value: Fixtures.alice))
        #expect(try await setup.requests("/v1/accounts/1").map(\.status) == [429, 200])
        #expect(setup.sleeper.recorded == [.seconds(3)])
    }

    @Test func fiftyConcurrentCallsThatGet401CauseExactlyOneRefresh() async throws {
        let server = try await FixtureServer.shared
        let prefix = "/auth-\(UUID().uuidString.lowercased())"
        let refreshURL = URL(string: server.baseURL.absoluteString + prefix + "/auth/refresh")!
        let auth = Authenticator(bearerToken: "t1") { _ in
            let response = try await URLSessionTransport(timeout: 10).send(HTTPRequest(method: "POST", url: refreshURL))
            struct Token: Decodable { var token: String }
            return try JSONDecoder().decode(Token.self, from: response.body).token
        }
        let client = CachedClient(
            baseURL: URL(string: server.baseURL.absoluteString + prefix + "/v1")!, transport: URLSessionTransport(timeout: 10),
            middleware: [auth], retry: .none)
        // The token t1 has expired: the server takes t2 only, which the refresh hands out.
        try await server.setRoute(prefix + "/v1/accounts/1", json: Fixtures.alice, bearer: "t2")
        try await server.setRoute(prefix + "/auth/refresh", method: "POST", json: ["token": "t2"])

        try await withThrowingTaskGroup(of: CachedValue<Account>.self) { group in
            for index in 0..<50 {
                group.addTask {
                    var request = Fixtures.request()
                    request.addQuery("n", index, isKey: true)
                    return try await client.value(for: request, endpoint: Fixtures.endpoint(), policy: .networkOnly)
                }
            }
            for try await value in group { #expect(value == .fresh(value: Fixtures.alice)) }
        }

        let log = try await server.requests().filter { $0.path.hasPrefix(prefix) }
        #expect(log.filter { $0.path == prefix + "/auth/refresh" }.count == 1)
        let calls = log.filter { $0.path.hasPrefix(prefix + "/v1/accounts/1") }
        #expect(calls.filter { $0.status == 200 }.count == 50)
        #expect(calls.allSatisfy { $0.status == 200 ? $0.header("Authorization") == "Bearer t2" : $0.status == 401 })
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellationStopsARetryLoopAtOnce() async throws {
        let sleeping = Signal()
        let setup = try await Setup(retry: { _ in
            RetryPolicy(
                maxRetries: 5, baseDelay: .seconds(3600), maxDelay: .seconds(3600),
                sleep: { duration in
                    sleeping.fire()
                    try await Task.sleep(for: duration)
                },
                random: { 1 })
        })
        try await setup.server.setRoute(setup.prefix + "/v1/accounts/1", status: 503, body: "{}")

        let call = Task { try await setup.account() }
        await sleeping.wait()
        call.cancel()

        await #expect(throws: CancellationError.self) { try await call.value }
        await setup.client.waitForBackgroundRefreshes()
        #expect(try await setup.requests("/v1/accounts/1").count == 1)
    }
}
