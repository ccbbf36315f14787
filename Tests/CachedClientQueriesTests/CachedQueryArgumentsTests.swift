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

/// Arguments that change (`CachedQuery.update(_:)`): the value stays on screen, marked as a
/// placeholder, until the new arguments' value arrives; the superseded fetch is cancelled
/// and its answer never shows.
@Suite("Live queries whose arguments change", .timeLimit(.minutes(1)))
@MainActor
struct CachedQueryArgumentsTests {
    typealias Setup = CachedQueryTests.Setup
    static let other = CachedQueryTests.other

    /// The fetch `setup.query(id)` makes, for `update(_:)`.
    static func fetch(_ setup: Setup, _ id: String) -> @Sendable (CachePolicy?) async throws -> CachedValue<Account> {
        let client = setup.client
        return { policy in try await client.value(for: Fixtures.request(id: id), endpoint: Fixtures.endpoint(), policy: policy) }
    }

    @Test func newArgumentsKeepThePreviousValueAsAPlaceholderUntilTheirsArrives() async throws {
        let setup = try await Setup()
        try await setup.setRoute("/v1/accounts/1", json: Fixtures.alice)
        try await setup.setRoute("/v1/accounts/2", json: Self.other)
        let query = setup.query("1")
        await query.load()
        let values = ValueRecorder { query.value }
        let placeholders = ValueRecorder { query.isPlaceholder }

        query.update(Self.fetch(setup, "2"))

        #expect(query.value == Fixtures.alice && query.isPlaceholder && query.isLoading)
        await waitUntil { query.value == Self.other && !query.isLoading }
        await mainActorJobsEnqueuedSoFar()  // The recorders read each value in a job of their own.
        #expect(!query.isPlaceholder && query.error == nil)
        // Never blank: the old value, then the new one.
        #expect(values.values == [Fixtures.alice, Self.other])
        #expect(placeholders.values == [false, true, false])
        #expect(try await setup.log() == ["GET /v1/accounts/1", "GET /v1/accounts/2"])
        // It now follows the new arguments' entry: a removal refetches it.
        #expect(query.sources.map(\.key.path) == ["/accounts/2"])
    }

    @Test func aFailedFetchForNewArgumentsLeavesThePlaceholderWithTheError() async throws {
        let setup = try await Setup()
        try await setup.setRoute("/v1/accounts/1", json: Fixtures.alice)
        try await setup.setRoute("/v1/accounts/2", status: 404)
        let query = setup.query("1")
        await query.load()

        query.update(Self.fetch(setup, "2"))

        await waitUntil { query.error != nil }
        #expect(query.value == Fixtures.alice && query.isPlaceholder && !query.isLoading)
    }

    /// The old arguments' answer stalls on the server (for up to 30 s, past the transport's
    /// 10 s timeout); once the query is pointed elsewhere, that call ends at once with a
    /// cancellation (not the timeout) and `load()` returns.
    @Test func theSupersededFetchIsCancelled() async throws {
        let setup = try await Setup()
        try await setup.setRoute("/v1/accounts/2", json: Self.other)
        try await setup.server.setFaultRoute(setup.prefix + "/v1/accounts/1", body: "{}", fault: .stall(sending: 0))
        let ended = Locked<[String]>([])
        let client = setup.client
        let query = CachedQuery<Account> { policy in
            do {
                return try await client.value(for: Fixtures.request(id: "1"), endpoint: Fixtures.endpoint(), policy: policy)
            } catch {
                ended.withLock { $0.append(CallFetcher.isCancellation(error) ? "cancelled" : "\(error)") }
                throw error
            }
        }
        let loading = Task { await query.load() }
        // Bounded: at most 500 round trips to the server's log.
        for _ in 0..<500 {
            if try await setup.log().contains("GET /v1/accounts/1") { break }
            await Task.yield()
        }
        #expect(try await setup.log() == ["GET /v1/accounts/1"])

        query.update(Self.fetch(setup, "2"))
        await loading.value

        #expect(ended.withLock { $0 } == ["cancelled"])
        await waitUntil { query.value == Self.other && !query.isLoading }
        #expect(query.error == nil && !query.isPlaceholder)
    }

    /// Even an old fetch that ignores its cancellation and answers last never shows.
    @Test func anOldArgumentsAnswerNeverShowsAfterANewerOne() async throws {
        let old = Signal()
        let oldStarted = Signal()
        let query = CachedQuery<String> { _ in .fresh(value: "a") }
        await query.load()
        query.update { _ in
            oldStarted.fire()
            await old.wait()  // Deaf to cancellation, as a careless fetch may be.
            return .fresh(value: "old")
        }
        await Self.wait(for: oldStarted)

        query.update { _ in .fresh(value: "new") }
        await waitUntil { query.value == "new" }
        old.fire()
        await query.lifetime.waitForTasks()

        #expect(query.value == "new" && !query.isPlaceholder && !query.isLoading)
    }

    /// The fetch an update supersedes sees its cancellation at once (what it awaits throws).
    @Test func anUpdateCancelsTheFetchItSupersedes() async throws {
        let gate = Gate()
        let ended = Signal()
        let outcome = Locked<[String]>([])
        let query = CachedQuery<String> { _ in .fresh(value: "a") }
        await query.load()
        let started = Signal()
        query.update { _ in
            started.fire()
            defer { ended.fire() }
            do { try await gate.pass() } catch {
                outcome.withLock { $0.append(error is CancellationError ? "cancelled" : "\(error)") }
                throw error
            }
            return .fresh(value: "old")
        }
        await Self.wait(for: started)

        query.update { _ in .fresh(value: "new") }

        await Self.wait(for: ended)
        #expect(outcome.withLock { $0 } == ["cancelled"])
        await waitUntil { query.value == "new" }
        #expect(query.error == nil)
    }

    /// Waits for `signal`, or until the test is cancelled (its time limit), so a broken
    /// query fails the test instead of hanging the run.
    static func wait(for signal: Signal) async {
        await withTaskCancellationHandler {
            await signal.wait()
        } onCancel: {
            signal.fire()
        }
    }

    /// Before its first load an update only replaces the fetch: `load()` fetches with it.
    @Test func anUpdateBeforeTheFirstLoadFetchesNothing() async throws {
        let calls = Locked<[String]>([])
        let query = CachedQuery<String> { _ in calls.withLock { $0.append("a") }; return .fresh(value: "a") }
        query.update { _ in calls.withLock { $0.append("b") }; return .fresh(value: "b") }
        #expect(!query.isPlaceholder && !query.isLoading)

        await query.load()

        #expect(query.value == "b" && calls.withLock { $0 } == ["b"])
    }
}
