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

/// Retries of the call path: which answers and errors are retried, the backoff and
/// `Retry-After`, the endpoint's rule, a host's backoff. A POST sent with `perform` is
/// tested with the mutation layer's calls (`MutationCallTests`); both script their answers
/// with `RetryScripting`.
@Suite("CachedClient retries")
struct CachedClientRetryTests: RetryScripting {
    static let bob = Account(id: "2", balance: 20)

    @Test(arguments: [502, 503, 504, 429])
    func aGETIsRetriedOnATransientStatusWithBackoff(status: Int) async throws {
        let (harness, sleeper) = harness([Self.status(status), Self.status(status), Self.ok])

        #expect(try await harness.value() == .fresh(value: Fixtures.alice))
        #expect(harness.transport.requests.count == 3)
        #expect(sleeper.recorded == [.milliseconds(500), .seconds(1)])
        #expect(harness.events.kinds.filter { $0 == .retry }.count == 2)
    }

    @Test(arguments: [URLError.Code.networkConnectionLost, .timedOut, .cannotConnectToHost, .notConnectedToInternet])
    func aGETIsRetriedWhenNoResponseArrived(code: URLError.Code) async throws {
        let (harness, sleeper) = harness([.failure(URLError(code)), Self.ok])

        #expect(try await harness.value() == .fresh(value: Fixtures.alice))
        #expect(harness.transport.requests.count == 2)
        #expect(sleeper.recorded == [.milliseconds(500)])
    }

    @Test func theJitterIsFullAndTheBackoffCapped() async throws {
        let (harness, sleeper) = harness([Self.status(503)]) {
            $0.policy(maxRetries: 5, baseDelay: .seconds(1), maxDelay: .seconds(3), random: 0.5)
        }

        await #expect(throws: CachedClientError.httpStatus(503, endpoint: "AccountRepository.getAccount", body: Data("{}".utf8))) {
            try await harness.value()
        }
        #expect(harness.transport.requests.count == 6)
        #expect(sleeper.recorded == [.milliseconds(500), .seconds(1), .milliseconds(1500), .milliseconds(1500), .milliseconds(1500)])
    }

    @Test(arguments: [500, 501, 400, 401, 404, 409])
    func otherStatusesAreNeverRetried(status: Int) async throws {
        let (harness, sleeper) = harness([Self.status(status), Self.ok])

        await #expect(throws: CachedClientError.self) { try await harness.value() }
        #expect(harness.transport.requests.count == 1)
        #expect(sleeper.recorded.isEmpty)
    }

    @Test func retryAfterInSecondsOrAsADateReplacesTheBackoff() async throws {
        let date = HTTPDate.format(Fixtures.start.addingTimeInterval(20))
        let (harness, sleeper) = harness([
            Self.status(503, ["Retry-After": "7"]), Self.status(429, ["Retry-After": date]), Self.ok,
        ])

        #expect(try await harness.value() == .fresh(value: Fixtures.alice))
        // 7 s, then the date 20 s after the start, 7 s of which have passed.
        #expect(sleeper.recorded == [.seconds(7), .seconds(13)])
    }

    @Test func aRetryAfterLongerThanTheCapEndsTheRetries() async throws {
        let (harness, sleeper) = harness([Self.status(503, ["Retry-After": "120"]), Self.ok])

        await #expect(throws: CachedClientError.httpStatus(503, endpoint: "AccountRepository.getAccount", body: Data("{}".utf8))) {
            try await harness.value()
        }
        #expect(harness.transport.requests.count == 1)
        #expect(sleeper.recorded.isEmpty)
    }

    @Test func theEndpointsRuleWinsOverThePolicy() async throws {
        var endpoint = Fixtures.endpoint()
        endpoint.retry = .never
        let (never, neverSleeper) = harness([Self.status(503), Self.ok])
        await #expect(throws: CachedClientError.self) { try await never.value(endpoint: endpoint) }
        #expect(never.transport.requests.count == 1)
        #expect(neverSleeper.recorded.isEmpty)

        endpoint.retry = RetryRule(max: 4)
        let (more, moreSleeper) = harness([Self.status(503), Self.status(503), Self.status(503), Self.ok])
        #expect(try await more.value(endpoint: endpoint) == .fresh(value: Fixtures.alice))
        #expect(more.transport.requests.count == 4)
        #expect(moreSleeper.recorded.count == 3)
    }

    @Test(arguments: [503, 0])
    func networkFirstWithAStoredValueAnswersFromItAtTheFirstTransientFailure(status: Int) async throws {
        let (harness, sleeper) = harness([status == 0 ? .failure(URLError(.timedOut)) : Self.status(status), Self.ok])
        try await harness.seed(age: 10)

        let value = try await harness.value()

        #expect(value == .cached(value: Fixtures.alice, date: Fixtures.start.addingTimeInterval(-10)))
        #expect(harness.transport.requests.count == 1)
        #expect(sleeper.recorded.isEmpty)
        #expect(harness.events.kinds == [.fallback])
    }

    @Test func aHostThatAnswered429WithRetryAfterIsLeftAloneUntilThen() async throws {
        let (harness, sleeper) = harness([Self.status(429, ["Retry-After": "30"]), Self.ok]) { $0.policy(maxRetries: 0) }
        await #expect(throws: CachedClientError.self) { try await harness.value() }
        #expect(harness.transport.requests.count == 1)

        // Another key on the same host, with a stored value: answered from it, not sent.
        let other = Fixtures.endpoint("AccountRepository.getOther")
        try await harness.seed(Self.bob, age: 5, endpoint: other)
        #expect(try await harness.value(endpoint: other) == .cached(value: Self.bob, date: Fixtures.start.addingTimeInterval(-5)))
        #expect(harness.transport.requests.count == 1)
        #expect(harness.events.all.last?.message == "not sent: the host asked to wait (429 Retry-After)")

        // Nothing stored: the call waits out the rest of the 30 s, then is sent.
        harness.clock.advance(by: 10)
        #expect(try await harness.value(endpoint: Fixtures.endpoint("AccountRepository.getThird")) == .fresh(value: Fixtures.alice))
        #expect(sleeper.recorded == [.seconds(20)])
        #expect(harness.transport.requests.count == 2)
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellationStopsARetryLoopAtOnce() async throws {
        let clock = TestClock()
        let sleeping = Signal()
        let stopped = Signal()
        let policy = RetryPolicy(
            maxRetries: 5, baseDelay: .seconds(3600), maxDelay: .seconds(3600),
            sleep: { duration in
                sleeping.fire()
                do {
                    try await Task.sleep(for: duration)
                } catch {
                    stopped.fire()
                    throw error
                }
            },
            random: { 1 })
        let harness = Harness(transport: StubTransport(scripted([Self.status(503)])), retry: policy, clock: clock)

        let call = Task { try await harness.client.value(for: Fixtures.request(), endpoint: Fixtures.endpoint(), as: Account.self) }
        await sleeping.wait()
        call.cancel()
        let result = await call.result

        #expect(throws: CancellationError.self) { try result.get() }
        await stopped.wait()  // the hour-long wait ended at the cancellation, not after an hour
        await harness.client.waitForBackgroundRefreshes()
        #expect(harness.transport.requests.count == 1)
    }
}
