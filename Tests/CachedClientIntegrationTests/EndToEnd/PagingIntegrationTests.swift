import CachedClientTestSupport
import FixtureServerSupport
import Foundation
import Testing

@_spi(Generated) @testable import CachedClientRuntime
@_spi(RuntimeLayers) import CachedClientValues

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A page of the fixture server's cursor mode: `{"items": [...], "pageInfo": {"endCursor", "hasNextPage"}}`.
struct FeedPage: Codable, Sendable, Equatable {
    struct PageInfo: Codable, Sendable, Equatable {
        var endCursor: String?
        var hasNextPage: Bool
    }

    var items: [Account]
    var pageInfo: PageInfo
}

/// A transport that can be switched off, as a device that lost its network.
final class SwitchableTransport: HTTPTransport {
    let inner = URLSessionTransport(timeout: 10)
    let offline = Locked(false)

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        if offline.withLock({ $0 }) { throw URLError(.notConnectedToInternet) }
        return try await inner.send(request)
    }
}

/// Paged endpoints against the fixture server: every page cached under its own key and read
/// back offline with its date, and a paged live query that a mutation refetches from page 1.
@Suite("Integration: paging", .timeLimit(.minutes(1)))
@MainActor
struct PagingIntegrationTests {
    static let accounts = (1...5).map { Account(id: "\($0)", balance: Double($0)) }
    static let endpoint = Fixtures.endpoint("FeedRepository.getFeed")

    let server: FixtureServer
    let prefix = "/paging-\(UUID().uuidString.lowercased())"
    let clock = TestClock()
    let transport = SwitchableTransport()
    let client: CachedClient

    init() async throws {
        server = try await FixtureServer.shared
        client = CachedClient(
            baseURL: URL(string: server.baseURL.absoluteString + prefix + "/v1")!, transport: transport,
            partition: "user-1", retry: .none, now: clock.function)
    }

    /// `GET /feed?after=C`, as a generated method makes it.
    nonisolated static func feed(_ client: CachedClient, after cursor: String?, policy: CachePolicy?) async throws
        -> CachedValue<FeedPage>
    {
        var request = EndpointRequest(method: "GET", path: "/feed")
        request.addQuery("after", cursor, isKey: true)
        return try await client.value(for: request, endpoint: endpoint, policy: policy)
    }

    /// The pages, as a generated `…Pages` method returns them.
    func pages(policy: CachePolicy? = nil) -> CachedPages<FeedPage> {
        let client = self.client
        return CachedPages(
            first: { try await Self.feed(client, after: nil, policy: policy) },
            next: { page in
                guard let cursor = page.pageInfo.endCursor else { return nil }
                return try await Self.feed(client, after: cursor, policy: policy)
            })
    }

    func log() async throws -> [String] {
        try await server.requests().filter { $0.path.hasPrefix(prefix) }.map { String($0.path.dropFirst(prefix.count)) }
    }

    @Test func pagesReadOnlineThenOfflineWithTheirDates() async throws {
        try await server.setPagedRoute(prefix + "/v1/feed", paging: "cursor", items: Self.accounts, perPage: 2)

        var online: [CachedValue<FeedPage>] = []
        for try await page in pages() { online.append(page) }
        #expect(online.map(\.isCached) == [false, false, false])
        #expect(online.flatMap(\.value.items) == Self.accounts)
        #expect(try await log() == ["/v1/feed", "/v1/feed?after=2", "/v1/feed?after=4"])

        await client.flush()
        transport.offline.withLock { $0 = true }
        clock.advance(by: 200)  // past the ttl, within maxStale
        var offline: [CachedValue<FeedPage>] = []
        for try await page in pages() { offline.append(page) }
        #expect(offline.map(\.date) == [Fixtures.start, Fixtures.start, Fixtures.start])
        #expect(offline.flatMap(\.value.items) == Self.accounts)

        // Invalidating the endpoint drops every page.
        try await client.removeAll(endpoint: Self.endpoint.name)
        await #expect(throws: URLError.self) {
            for try await _ in pages() {}
        }
    }

    func pagedQuery() -> CachedPagedQuery<FeedPage, Account> {
        let client = self.client
        return CachedPagedQuery(
            first: { policy in try await Self.feed(client, after: nil, policy: policy) },
            next: { page, policy in
                guard let cursor = page.pageInfo.endCursor else { return nil }
                return try await Self.feed(client, after: cursor, policy: policy)
            },
            hasNext: { $0.pageInfo.endCursor != nil },
            items: \.items)
    }

    @Test func aPagedQueryLoadsMoreAndAMutationRefetchesItFromPageOne() async throws {
        try await server.setPagedRoute(prefix + "/v1/feed", paging: "cursor", items: Self.accounts, perPage: 2)
        let query = pagedQuery()

        await query.load()
        #expect(query.items == Array(Self.accounts.prefix(2)))
        #expect(query.hasMore)
        await query.loadMore()
        await query.loadMore()
        #expect(query.items == Self.accounts)
        #expect(!query.hasMore)
        #expect(!query.isLoadingMore)
        await query.loadMore()  // nothing after the last page: no request
        #expect(try await log() == ["/v1/feed", "/v1/feed?after=2", "/v1/feed?after=4"])

        // Two accounts are deleted on the server: page 3 no longer exists.
        try await server.setPagedRoute(prefix + "/v1/feed", paging: "cursor", items: Array(Self.accounts.prefix(3)), perPage: 2)
        try await server.setRoute(prefix + "/v1/accounts/5", method: "DELETE", body: "")
        try await client.perform(
            EndpointRequest(method: "DELETE", path: "/accounts/5"), endpoint: Endpoint(name: "FeedRepository.delete", cache: nil),
            invalidating: [Invalidation(Self.endpoint)])

        await waitUntil { query.items == Array(Self.accounts.prefix(3)) && !query.isLoading }
        #expect(query.pages.count == 2)
        #expect(!query.hasMore)
        #expect(try await log().suffix(3) == ["/v1/accounts/5", "/v1/feed", "/v1/feed?after=2"])
    }
}
