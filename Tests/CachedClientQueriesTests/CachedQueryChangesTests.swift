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

/// Only real changes notify: view invalidations counted with `withObservationTracking`, as
/// SwiftUI observes, over the fixture server. A "view" here reads what a list screen shows
/// (`value`, `date`, `updatedAt`, `error`, `isPlaceholder`) and counts once per change.
@Suite("Live queries notify only real changes", .timeLimit(.minutes(1)))
@MainActor
struct CachedQueryChangesTests {
    typealias Setup = CachedQueryTests.Setup
    static let list = Endpoint(
        name: "AccountRepository.getAccounts",
        cache: CacheRule(ttl: 60, maxStale: 3_600, policy: .networkFirst, scope: .user),
        shape: "[Account{id:string,balance:double}]")
    static let thousand = (0..<1_000).map { Account(id: "\($0)", balance: Double($0)) }

    static func listQuery(_ setup: Setup) -> CachedQuery<[Account]> {
        let client = setup.client
        return CachedQuery { policy in
            try await client.value(for: EndpointRequest(method: "GET", path: "/accounts"), endpoint: Self.list, policy: policy)
        }
    }

    static func trackScreen<Value>(_ query: CachedQuery<Value>, in counter: ChangeCounter) {
        counter.track("screen") {
            _ = query.value
            _ = query.date
            _ = query.updatedAt
            _ = query.error
            _ = query.isPlaceholder
        }
        counter.track("isLoading") { _ = query.isLoading }
    }

    @Test func anUnchangedRefetchInvalidatesNoView() async throws {
        let setup = try await Setup()
        try await setup.setRoute("/v1/accounts", json: Self.thousand)
        let query = Self.listQuery(setup)
        await query.load()
        let counter = ChangeCounter()
        Self.trackScreen(query, in: counter)

        await query.refresh()
        await query.refresh()
        await mainActorJobsEnqueuedSoFar()

        // Two refetches ran (the spinner saw them) and the list screen was not redrawn.
        #expect(counter.snapshot(["screen", "isLoading"]) == ["screen": 0, "isLoading": 4])
        #expect(try await setup.log() == ["GET /v1/accounts", "GET /v1/accounts", "GET /v1/accounts"])
    }

    @Test func aOneItemChangeInAThousandItemListInvalidatesTheListOnceAndADerivedCountNever() async throws {
        let setup = try await Setup()
        try await setup.setRoute("/v1/accounts", json: Self.thousand)
        let query = Self.listQuery(setup)
        await query.load()
        let count = query.select(\.count)
        let changed = query.select { $0[500] }
        let untouched = query.select { $0[0] }
        let counter = ChangeCounter()
        Self.trackScreen(query, in: counter)
        counter.track("count") { _ = count.value }
        counter.track("item 500") { _ = changed.value }
        counter.track("item 0") { _ = untouched.value }
        let names = ["screen", "count", "item 500", "item 0"]

        var edited = Self.thousand
        edited[500].balance = -1
        try await setup.setRoute("/v1/accounts", json: edited)
        await query.refresh()
        await mainActorJobsEnqueuedSoFar()

        #expect(query.value?[500].balance == -1 && count.value == 1_000 && changed.value?.balance == -1)
        #expect(counter.snapshot(names) == ["screen": 1, "count": 0, "item 500": 1, "item 0": 0])

        // One more item: now the count changes too.
        try await setup.setRoute("/v1/accounts", json: edited + [Account(id: "new", balance: 1)])
        await query.refresh()
        await mainActorJobsEnqueuedSoFar()

        #expect(count.value == 1_001)
        #expect(counter.snapshot(names) == ["screen": 2, "count": 1, "item 500": 1, "item 0": 0])
    }

    /// A selection holds its query, so the query keeps refetching for it; one nobody holds
    /// leaves the query's list at the next value.
    @Test func aSelectionHoldsItsQueryAndLeavesWhenReleased() async throws {
        let setup = try await Setup()
        try await setup.setRoute("/v1/accounts", json: Array(Self.thousand.prefix(3)))
        var selection: CachedSelection<[Account], Int>? = Self.listQuery(setup).select(\.count)
        await selection?.load()
        #expect(selection?.value == 3 && setup.client.queries.count == 1)
        let query = try #require(selection?.query)
        try await setup.setRoute("/v1/accounts", json: Array(Self.thousand.prefix(4)))
        await query.refresh()
        #expect(selection?.value == 4 && query.selections.count == 1)

        selection = nil
        try await setup.setRoute("/v1/accounts", json: Array(Self.thousand.prefix(5)))
        await query.refresh()

        #expect(query.selections.isEmpty)
    }

    /// Values that are not `Equatable` cannot be compared: each applied fetch notifies.
    @Test func aValueThatIsNotEquatableNotifiesOnEveryFetch() async throws {
        struct Opaque: Sendable { var number: Int }
        #expect(ValueEquality.comparison(for: Opaque.self) == nil)
        #expect(ValueEquality.comparison(for: [Account].self)?(Self.thousand, Self.thousand) == true)
        let query = CachedQuery<Opaque> { _ in .fresh(value: Opaque(number: 1)) }
        await query.load()
        let counter = ChangeCounter()
        counter.track("value") { _ = query.value }

        await query.refresh()
        await mainActorJobsEnqueuedSoFar()

        #expect(counter.snapshot(["value"]) == ["value": 1])
    }
}
