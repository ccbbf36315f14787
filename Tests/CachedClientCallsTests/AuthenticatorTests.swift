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

/// A server stand-in that accepts one token only, and a refresh that counts its calls.
final class TokenServer: Sendable {
    private let state = Locked((valid: "t1", refreshes: 0))

    var refreshes: Int { state.withLock { $0.refreshes } }

    /// 200 for the valid token, 401 for any other.
    var responder: StubTransport.Responder {
        { request in
            let valid = self.state.withLock { $0.valid }
            guard request.headers["Authorization"] == "Bearer \(valid)" else { return HTTPResponse(statusCode: 401) }
            return HTTPResponse(statusCode: 200, body: Fixtures.body(Fixtures.alice))
        }
    }

    /// The token expires: the server accepts only the next one from now on.
    func expire() {
        state.withLock { $0.valid = "t\(Int($0.valid.dropFirst())! + 1)" }
    }

    /// Hands out the token the server accepts now.
    func refresh(gate: Gate? = nil) async throws -> String {
        if let gate { try await gate.pass() }
        return state.withLock { state in
            state.refreshes += 1
            return state.valid
        }
    }
}

/// Logs what passes, to check the order middleware run in.
struct Tagging: ClientMiddleware {
    let tag: String
    let log: Locked<[String]>

    func intercept(
        _ request: HTTPRequest, operation: String, next: @Sendable (HTTPRequest) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        log.withLock { $0.append("\(tag) → \(operation)") }
        var request = request
        request.headers["X-Trace"] = (request.headers["X-Trace"] ?? "") + tag
        let response = try await next(request)
        log.withLock { $0.append("\(tag) ← \(response.statusCode)") }
        return response
    }
}

@Suite("Middleware and Authenticator")
struct AuthenticatorTests {
    @Test func middlewareRunsInOrderFirstOutermostAndEachAttemptPassesThroughAll() async throws {
        let log = Locked<[String]>([])
        let transport = StubTransport(scripted([CachedClientRetryTests.status(503), CachedClientRetryTests.ok]))
        let clock = TestClock()
        let sleeper = RecordingSleeper(clock: clock)
        let harness = Harness(
            transport: transport, middleware: [Tagging(tag: "a", log: log), Tagging(tag: "b", log: log)],
            retry: sleeper.policy(), clock: clock)

        #expect(try await harness.value() == .fresh(value: Fixtures.alice))

        let name = "AccountRepository.getAccount"
        #expect(
            log.withLock { $0 } == [
                "a → \(name)", "b → \(name)", "b ← 503", "a ← 503", "a → \(name)", "b → \(name)", "b ← 200", "a ← 200",
            ])
        #expect(transport.requests.map { $0.headers["X-Trace"] } == ["ab", "ab"])
    }

    @Test func fiftyConcurrentCallsThatGet401CauseOneRefreshAndEachIsSentOnceMore() async throws {
        let server = TokenServer()
        let gate = Gate()
        let auth = Authenticator(bearerToken: "t1") { _ in try await server.refresh(gate: gate) }
        let transport = StubTransport(server.responder)
        let harness = Harness(transport: transport, middleware: [auth])
        server.expire()

        try await withThrowingTaskGroup(of: CachedValue<Account>.self) { group in
            for id in 0..<50 {
                group.addTask {
                    try await harness.client.value(
                        for: Fixtures.request(id: "\(id)"), endpoint: Fixtures.endpoint(), policy: .networkOnly)
                }
            }
            // Every call got its 401 before the refresh may finish.
            while transport.requests.count < 50 { await Task.yield() }
            gate.open()
            for try await value in group { #expect(value == .fresh(value: Fixtures.alice)) }
        }

        #expect(server.refreshes == 1)
        #expect(transport.requests.count == 100)
        #expect(auth.credential == "t2")
    }

    @Test func aFailedRefreshIsATypedErrorNeverAFallbackAndNoTokenIsInEventsOrTheStore() async throws {
        struct Revoked: Error {}
        let server = TokenServer()
        let auth = Authenticator(bearerToken: "t1") { _ in throw Revoked() }
        let harness = Harness(transport: StubTransport(server.responder), middleware: [auth])
        _ = try await harness.value()
        server.expire()

        await #expect(throws: AuthenticationError.refreshFailed(reason: "Revoked")) {
            try await harness.value(policy: .networkFirst)
        }
        #expect(String(describing: AuthenticationError.refreshFailed(reason: "Revoked"))
            == "the credential could not be refreshed (Revoked); sign in again.")
        #expect(!harness.events.kinds.contains(.fallback))
        #expect(harness.events.all.allSatisfy { !"\($0)".contains("t1") && !"\($0)".contains("Bearer") })
        let stored = try #require(try await harness.storedEntry())
        #expect(!String(decoding: stored.body, as: UTF8.self).contains("Bearer"))
        #expect(!harness.key().description.contains("t1"))
    }

    @Test func anOfflineRefreshThrowsTheTransportErrorSoTheCacheCanAnswer() async throws {
        let server = TokenServer()
        let auth = Authenticator(bearerToken: "t1") { _ in throw URLError(.notConnectedToInternet) }
        let harness = Harness(transport: StubTransport(server.responder), middleware: [auth])
        _ = try await harness.value()
        server.expire()

        #expect(try await harness.value() == .cached(value: Fixtures.alice, date: Fixtures.start))
        #expect(harness.events.kinds.last == .fallback)
    }

    @Test func withoutACredentialTheFirstRequestWaitsForARefresh() async throws {
        let server = TokenServer()
        let auth = Authenticator(bearerToken: nil) { _ in try await server.refresh() }
        let transport = StubTransport(server.responder)
        let harness = Harness(transport: transport, middleware: [auth])

        #expect(try await harness.value() == .fresh(value: Fixtures.alice))
        #expect(server.refreshes == 1)
        #expect(transport.requests.count == 1)
    }
}
