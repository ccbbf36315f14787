@_spi(Generated) import CachedClientRuntime
import FixtureServerSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The generated `…PagedQuery` factories of the News golden against the fixture server:
/// `searchPagedQuery(q:)` (page numbers) and `getCommentsPagedQuery(id:)` (`Link` header):
/// items of the pages loaded, `loadMore()`, `hasMore` false at the end, and a refetch from
/// page 1 that drops pages that no longer exist after an invalidation or a mutation.
@Suite("Generated paged live queries", .timeLimit(.minutes(1)))
@MainActor
struct GeneratedPagedQueryTests {
    /// An `ArticleSummary` as the server writes it.
    struct WireSummary: Encodable {
        var id: String
        var headline = "Headline"
        var published_at = "2024-05-01T10:00:00Z"
        var section = "world"
        var reading_minutes = 3
    }

    /// A `Comment` as the server writes it.
    struct WireComment: Encodable {
        var id: String
        var author = "Ann"
        var text = "First!"
        var posted_at = "2024-05-01T10:00:00Z"
    }

    static func summaries(_ count: Int) -> [WireSummary] { (1...count).map { WireSummary(id: "s\($0)") } }
    static func comments(_ count: Int) -> [WireComment] { (1...count).map { WireComment(id: "c\($0)") } }

    let prefix = "/paged-query-\(UUID().uuidString.lowercased())"

    func repository(_ server: FixtureServer) -> LiveNewsRepository {
        let client = CachedClient(
            baseURL: URL(string: server.baseURL.absoluteString + prefix + "/api")!,
            transport: URLSessionTransport(timeout: 10), partition: "alice", retry: .none)
        return LiveNewsRepository(client: client)
    }

    func log(_ server: FixtureServer) async throws -> [String] {
        try await server.requests().filter { $0.path.hasPrefix(prefix) }.map { "\($0.method) \($0.path.dropFirst(prefix.count))" }
    }

    @Test func pageNumbersLoadMoreUntilTheEndThenAnInvalidationRefetchesFromPageOne() async throws {
        let server = try await FixtureServer.shared
        try await server.setPagedRoute(prefix + "/api/search", paging: "page", items: Self.summaries(5), perPage: 2)
        let repository = repository(server)
        let results = repository.searchPagedQuery(q: "swift")
        #expect(results.hasMore && results.items.isEmpty)

        await results.load()
        #expect(results.items.map(\.id) == ["s1", "s2"])
        #expect(results.hasMore && results.error == nil)
        await results.loadMore()
        await results.loadMore()
        #expect(results.items.map(\.id) == ["s1", "s2", "s3", "s4", "s5"])
        #expect(results.pages.map(\.isCached) == [false, false, false])
        #expect(results.hasMore)  // a page number cannot tell before the next page is asked for
        await results.loadMore()  // page 4 is empty: the end
        #expect(!results.hasMore && !results.isLoadingMore)
        #expect(results.pages.count == 3)
        await results.loadMore()  // nothing after the end: no request
        #expect(
            try await log(server) == [
                "GET /api/search?q=swift&page=1", "GET /api/search?q=swift&page=2", "GET /api/search?q=swift&page=3",
                "GET /api/search?q=swift&page=4",
            ])

        // Two results are gone on the server; invalidating the endpoint refetches from page 1,
        // as many pages as were shown, and drops page 3, which no longer exists.
        try await server.setPagedRoute(prefix + "/api/search", paging: "page", items: Self.summaries(3), perPage: 2)
        try await repository.client.removeAll(endpoint: "NewsRepository.search")

        await waitUntil { results.items.map(\.id) == ["s1", "s2", "s3"] && !results.isLoading }
        #expect(results.pages.count == 2)
        #expect(!results.hasMore)
        #expect(
            try await log(server).suffix(3) == [
                "GET /api/search?q=swift&page=1", "GET /api/search?q=swift&page=2", "GET /api/search?q=swift&page=3",
            ])
    }

    @Test func linkedPagesLoadMoreAndTheMutationThatInvalidatesThemRefetchesFromPageOne() async throws {
        let server = try await FixtureServer.shared
        let comments = prefix + "/api/articles/a1/comments"
        try await server.setPagedRoute(comments, paging: "link", items: Self.comments(5), perPage: 2)
        let repository = repository(server)
        let thread = repository.getCommentsPagedQuery(id: "a1", perPage: 2)

        await thread.load()
        #expect(thread.items.map(\.id) == ["c1", "c2"] && thread.hasMore)
        await thread.loadMore()
        await thread.loadMore()
        #expect(thread.items.map(\.id) == ["c1", "c2", "c3", "c4", "c5"])
        #expect(!thread.hasMore)  // the last page has no `Link: rel="next"`
        await thread.loadMore()
        #expect(
            try await log(server) == [
                "GET /api/articles/a1/comments?per_page=2", "GET /api/articles/a1/comments?page=2&per_page=2",
                "GET /api/articles/a1/comments?page=3&per_page=2",
            ])

        // A moderator removed two comments; posting one (a generated mutation that
        // invalidates `getComments`) refetches from page 1 and drops page 3.
        try await server.setPagedRoute(comments, paging: "link", items: Self.comments(3), perPage: 2)
        try await server.setRoute(comments, method: "POST", json: WireComment(id: "c6", text: "Late"))
        _ = try await repository.addComment(id: "a1", body: CommentDraft(text: "Late"))

        await waitUntil { thread.items.map(\.id) == ["c1", "c2", "c3"] && !thread.isLoading }
        #expect(thread.pages.count == 2)
        #expect(!thread.hasMore)
        #expect(
            try await log(server).suffix(3) == [
                "POST /api/articles/a1/comments", "GET /api/articles/a1/comments?per_page=2",
                "GET /api/articles/a1/comments?page=2&per_page=2",
            ])
    }

    @Test func aRefetchThatFindsMorePagesSaysSo() async throws {
        let server = try await FixtureServer.shared
        let comments = prefix + "/api/articles/a1/comments"
        try await server.setPagedRoute(comments, paging: "link", items: Self.comments(3), perPage: 2)
        let repository = repository(server)
        let thread = repository.getCommentsPagedQuery(id: "a1")
        await thread.load()
        await thread.loadMore()
        #expect(thread.items.count == 3 && !thread.hasMore)

        // Two comments more on the server: the refetch after the invalidation loads the two
        // pages shown, and the second now links to a third.
        try await server.setPagedRoute(comments, paging: "link", items: Self.comments(5), perPage: 2)
        try await repository.client.removeAll(endpoint: "NewsRepository.getComments")
        await waitUntil { thread.items.count == 4 && !thread.isLoading }
        #expect(thread.hasMore)
        await thread.loadMore()
        #expect(thread.items.map(\.id) == ["c1", "c2", "c3", "c4", "c5"] && !thread.hasMore)
    }

    @Test func cursorPagesGiveTheItemsOfTheirModelAndKnowTheEndFromTheCursor() async throws {
        let server = try await FixtureServer.shared
        func transaction(_ n: Int) -> String {
            #"{"id": "00000000-0000-0000-0000-00000000000\#(n)", "amount": \#(n), "booked_at": "2024-05-01T10:00:00Z", "category": "rent"}"#
        }
        let path = prefix + "/v1/accounts/a1/transactions"
        try await server.setRoute(path, headers: ["Content-Type": "application/json"], body: #"{"items": [\#(transaction(1)), \#(transaction(2))], "next_cursor": "c2"}"#)
        try await server.setRoute(path + "?cursor=c2", headers: ["Content-Type": "application/json"], body: #"{"items": [\#(transaction(3))], "next_cursor": null}"#)
        let client = CachedClient(
            baseURL: URL(string: server.baseURL.absoluteString + prefix + "/v1")!, transport: URLSessionTransport(timeout: 10),
            partition: "alice", retry: .none)
        let transactions = LiveAccountRepository(client: client).getTransactionsPagedQuery(accountId: "a1", xApiVersion: "2")

        await transactions.load()
        #expect(transactions.items.map(\.amount) == [1, 2] && transactions.hasMore)
        await transactions.loadMore()
        #expect(transactions.items.map(\.amount) == [1, 2, 3])
        #expect(!transactions.hasMore)  // the cursor is null: known without asking
        #expect(try await log(server) == ["GET /v1/accounts/a1/transactions", "GET /v1/accounts/a1/transactions?cursor=c2"])
    }

    @Test func theReadmeCodeRunsOverTheFixtureServer() async throws {
        let server = try await FixtureServer.shared
        try await server.setPagedRoute(prefix + "/api/search", paging: "page", items: Self.summaries(3), perPage: 2)
        try await server.setPagedRoute(prefix + "/api/articles/a1/comments", paging: "link", items: Self.comments(5), perPage: 2)
        let repository = repository(server)
        #expect(try await searchLines(repository) == ["2 results, fresh", "1 results, fresh"])
        #expect(await firstComments(repository).map(\.id) == ["c1", "c2", "c3", "c4"])
    }

    @Test func aMockRepositoryGivesAPagedQueryOfOnePage() async throws {
        let comment = Comment(id: "c1", author: "Ann", text: "Hi", postedAt: Date(timeIntervalSince1970: 0))
        let repository: any NewsRepository = MockNewsRepository(getComments: { id, _, _ in
            #expect(id == "a1")
            return .fresh(value: [comment])
        })
        let thread = repository.getCommentsPagedQuery(id: "a1")
        await thread.load()
        #expect(thread.items == [comment])
        #expect(!thread.hasMore)
    }
}
