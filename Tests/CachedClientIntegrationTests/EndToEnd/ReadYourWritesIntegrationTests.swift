import CachedClientTestSupport
import Foundation
import Testing

@_spi(Generated) @testable import CachedClientRuntime

/// A call that starts after a mutation's invalidation, a removal or a switch of user never
/// joins a request that started before it: against the real fixture server holding a GET
/// (the old data) while a POST changes the data.
@Suite("Integration: read-your-writes", .timeLimit(.minutes(1)))
struct ReadYourWritesIntegrationTests {
    typealias Setup = URLSessionIntegrationTests.Setup

    /// Serves `Fixtures.aliceLater` from now on, but the next GET gets `Fixtures.alice` and
    /// is held by the server for `holdMilliseconds`.
    static func serveOldThenNew(_ setup: Setup, holdMilliseconds: Int = 1_500) async throws {
        try await setup.setRoute("/v1/accounts/1", json: Fixtures.aliceLater)
        try await setup.setRoute("/v1/accounts/1", json: Fixtures.alice, delayMilliseconds: holdMilliseconds, times: 1)
        try await setup.setRoute("/v1/accounts/1", method: "POST", json: Fixtures.aliceLater)
    }

    /// Waits until the server has received `count` requests for the account (it logs a request
    /// when it arrives, before holding it).
    static func waitForRequests(_ setup: Setup, count: Int) async throws {
        while try await setup.requestCount(path: "/v1/accounts/1") < count {
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    static func mutate(_ setup: Setup) async throws {
        var request = EndpointRequest(method: "POST", path: "/accounts/{id}")
        request.setPathParameter("id", "1")
        let _: Account = try await setup.client.response(
            for: request, endpoint: Fixtures.uncached, invalidating: [Invalidation(Fixtures.endpoint())])
    }

    @Test(arguments: [CachePolicy.networkFirst, .networkOnly, .cacheFirst])
    func aCallAfterAnInvalidationDoesNotJoinTheFetchFromBeforeIt(policy: CachePolicy) async throws {
        let setup = try await Setup()
        try await Self.serveOldThenNew(setup)
        let before = Task { try await setup.client.value(for: Fixtures.request(), endpoint: Fixtures.endpoint(), as: Account.self) }
        try await Self.waitForRequests(setup, count: 1)

        try await Self.mutate(setup)
        let after = try await setup.account(policy: policy)

        #expect(after == .fresh(value: Fixtures.aliceLater))
        #expect(try await before.value == .fresh(value: Fixtures.alice))  // it asked first
        await setup.client.flush()
        // The older answer, landing last, was not stored over the newer one.
        #expect(try await setup.account(policy: .cacheOnly).value == Fixtures.aliceLater)
        #expect(try await setup.requestCount(path: "/v1/accounts/1") == 3)  // GET, POST, GET
    }

    @Test func aCallAfterARemovalDoesNotJoinTheFetchFromBeforeIt() async throws {
        let setup = try await Setup()
        try await Self.serveOldThenNew(setup)
        let before = Task { try await setup.client.value(for: Fixtures.request(), endpoint: Fixtures.endpoint(), as: Account.self) }
        try await Self.waitForRequests(setup, count: 1)

        try await setup.client.removeAll(partition: "user-1")

        #expect(try await setup.account() == .fresh(value: Fixtures.aliceLater))
        _ = try await before.value
    }

    @Test func aCallAfterASwitchOfUserDoesNotJoinTheFetchFromBeforeIt() async throws {
        let setup = try await Setup()
        try await Self.serveOldThenNew(setup)
        let before = Task { try await setup.client.value(for: Fixtures.request(), endpoint: Fixtures.endpoint(scope: .shared), as: Account.self) }
        try await Self.waitForRequests(setup, count: 1)

        setup.client.setPartition("user-2")

        let after: CachedValue<Account> = try await setup.client.value(for: Fixtures.request(), endpoint: Fixtures.endpoint(scope: .shared))
        #expect(after == .fresh(value: Fixtures.aliceLater))
        _ = try await before.value
    }

    @Test func aBackgroundRefreshFromBeforeAnInvalidationIsNotJoinedNorStored() async throws {
        let setup = try await Setup()
        try await setup.setRoute("/v1/accounts/1", json: Fixtures.alice)
        _ = try await setup.account()  // stored: alice
        try await Self.serveOldThenNew(setup)  // the refresh is held and answers with old data

        #expect(try await setup.account(policy: .staleWhileRevalidate).isCached)  // starts the refresh
        try await Self.waitForRequests(setup, count: 2)
        try await Self.mutate(setup)

        #expect(try await setup.account(policy: .staleWhileRevalidate) == .fresh(value: Fixtures.aliceLater))
        await setup.client.waitForBackgroundRefreshes()
        #expect(try await setup.account(policy: .cacheOnly).value == Fixtures.aliceLater)
    }
}
