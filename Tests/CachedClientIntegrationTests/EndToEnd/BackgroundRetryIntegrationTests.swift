import CachedClientTestSupport
import FixtureServerSupport
import Foundation
import Testing

@_spi(Generated) @testable import CachedClientRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// After `networkFirst` answers from the cache at the first transient failure, a live query
/// (and a stream) goes on retrying in the background as the endpoint's rule allows, spaced by
/// the client's `RetryPolicy` through an injected sleep, and delivers the fresh value; the
/// fixture server fails N times and then answers. Nothing sleeps: the sleeper records.
@Suite("Integration: retrying in the background after showing the cache", .timeLimit(.minutes(1)))
@MainActor
struct BackgroundRetryIntegrationTests {
    static let old = Account(id: "1", balance: 1)
    static let new = Account(id: "1", balance: 2)

    let server: FixtureServer
    let prefix = "/background-retry-\(UUID().uuidString.lowercased())"
    let clock = TestClock()

    init() async throws {
        server = try await FixtureServer.shared
    }

    func client(retry: RetryPolicy) -> CachedClient {
        CachedClient(
            baseURL: URL(string: server.baseURL.absoluteString + prefix + "/v1")!, transport: URLSessionTransport(timeout: 10),
            partition: "user-1", retry: retry, now: clock.function)
    }

    func query(_ client: CachedClient) -> CachedQuery<Account> {
        CachedQuery { policy in try await client.value(for: Fixtures.request(), endpoint: Fixtures.endpoint(), policy: policy) }
    }

    func log() async throws -> [String] {
        try await server.requests().filter { $0.path.hasPrefix(prefix) }.map { "\($0.status ?? 0)" }
    }

    /// Stores `old`, then serves `new` behind `failures` answers of 503.
    func storeOldThenFail(_ failures: Int, client: CachedClient) async throws {
        try await server.setRoute(prefix + "/v1/accounts/1", json: Self.old)
        _ = try await client.value(for: Fixtures.request(), endpoint: Fixtures.endpoint(), as: Account.self)
        try await server.setRoute(prefix + "/v1/accounts/1", json: Self.new)
        if failures > 0 {
            try await server.setRoute(prefix + "/v1/accounts/1", status: 503, body: "busy", times: failures)
        }
    }

    @Test func aQueryShowsTheCacheAtOnceThenTheFreshValueAfterTwoBackgroundRetries() async throws {
        let sleeper = RecordingSleeper(clock: clock)
        let client = client(retry: sleeper.policy(maxRetries: 3))
        try await storeOldThenFail(3, client: client)  // the call's one attempt, then two retries fail
        let query = query(client)

        await query.load()
        #expect(query.value == Self.old && query.date == Fixtures.start && query.error == nil)

        await waitUntil { query.value == Self.new && query.date == nil }
        #expect(sleeper.recorded == [.milliseconds(500), .seconds(1), .seconds(2)])
        #expect(try await log() == ["200", "503", "503", "503", "200"])
        #expect(!query.isLoading && query.error == nil)
    }

    @Test func aRetryAfterOfTheHostIsWaitedForBeforeTheFirstBackgroundRetry() async throws {
        let sleeper = RecordingSleeper(clock: clock)
        let client = client(retry: sleeper.policy(maxRetries: 2))
        try await storeOldThenFail(0, client: client)
        try await server.setRoute(prefix + "/v1/accounts/1", status: 429, headers: ["Retry-After": "7"], body: "slow down", times: 1)
        let query = query(client)

        await query.load()
        #expect(query.value == Self.old && query.date == Fixtures.start)
        await waitUntil { query.value == Self.new && query.date == nil }
        #expect(sleeper.recorded == [.seconds(7)])
        #expect(try await log() == ["200", "429", "200"])
    }

    @Test func retriesStopWhenTheRuleRunsOutAndTheStoredValueStays() async throws {
        let sleeper = RecordingSleeper(clock: clock)
        let client = client(retry: sleeper.policy(maxRetries: 2))
        try await storeOldThenFail(10, client: client)
        let query = query(client)

        await query.load()
        await query.lifetime.waitForTasks()
        // Two retries, each a fallback again; then nothing more.
        #expect(sleeper.recorded == [.milliseconds(500), .seconds(1)])
        #expect(try await log() == ["200", "503", "503", "503"])
        #expect(query.value == Self.old && query.date == Fixtures.start && query.error == nil)
    }

    @Test func releasingTheQueryCancelsItsBackgroundRetry() async throws {
        let waiting = Signal()
        let cancelled = Signal()
        let retry = RetryPolicy(
            maxRetries: 2,
            sleep: { _ in
                waiting.fire()
                // Ends only by cancellation; nothing in the test waits for time to pass.
                do { try await Task.sleep(for: .seconds(3600)) } catch {
                    cancelled.fire()
                    throw error
                }
            })
        let client = client(retry: retry)
        try await storeOldThenFail(1, client: client)
        var query: CachedQuery<Account>? = self.query(client)

        await query?.load()
        await waiting.wait()
        query = nil
        await cancelled.wait()
        #expect(try await log() == ["200", "503"])
        #expect(client.queries.count == 0)
    }

    @Test func aPagedQueryRetriesThePagesThatFellBack() async throws {
        let sleeper = RecordingSleeper(clock: clock)
        let client = client(retry: sleeper.policy(maxRetries: 2))
        let endpoint = Fixtures.endpoint("AccountRepository.getAccounts")
        try await server.setPagedRoute(prefix + "/v1/accounts", paging: "page", items: [Self.old, Self.new], perPage: 2)
        let query = CachedPagedQuery<[Account], Account>(
            pages: { policy in
                CachedPages(pageNumbers: { number in
                    try await client.value(for: Fixtures.page(number, trace: "t"), endpoint: endpoint, policy: policy)
                })
            },
            items: { $0 })
        await query.load()
        #expect(query.pages.map(\.isCached) == [false])

        try await server.setRoute(prefix + "/v1/accounts", status: 503, body: "busy", times: 1)
        clock.advance(by: 10)
        await query.refresh()
        #expect(query.pages.map(\.date) == [Fixtures.start])  // page 1 from the cache, at once

        await waitUntil { query.pages.map(\.isCached) == [false] }
        #expect(query.items == [Self.old, Self.new])
        #expect(sleeper.recorded == [.milliseconds(500)])
        #expect(try await log() == ["200", "503", "200"])
    }

    @Test func aStreamDeliversTheFreshValueAfterItsRetries() async throws {
        let sleeper = RecordingSleeper(clock: clock)
        let client = client(retry: sleeper.policy(maxRetries: 2))
        try await storeOldThenFail(2, client: client)

        var values: [CachedValue<Account>] = []
        for try await value in client.updates(for: Fixtures.request(), endpoint: Fixtures.endpoint(), as: Account.self) {
            values.append(value)
        }
        #expect(values == [.cached(value: Self.old, date: Fixtures.start), .fresh(value: Self.new)])
        #expect(sleeper.recorded == [.milliseconds(500), .seconds(1)])
    }
}
