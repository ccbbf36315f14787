@_spi(Generated) import CachedClientRuntime
import FixtureServerSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Link paging (`"paging": {"link": "next"}`) of the News golden's `getComments` against the
/// fixture server's `"link"` mode: pages followed online through `Link: <…>; rel="next"`, then,
/// with the server stopped, every page read back from the store by another client, with its
/// date, and whether a next page exists known offline too.
@Suite("Generated link paging", .timeLimit(.minutes(1)))
@MainActor
struct GeneratedLinkPagingTests {
    /// A folder for a store, removed when the test ends.
    struct Folder {
        let url = FileManager.default.temporaryDirectory.appending(path: "cachegen-links-\(UUID().uuidString)")
        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    let clock = GeneratedClientTests.Clock()

    /// A client as an app makes one, on a store in `folder`.
    func repository(_ server: FixtureServer, _ folder: Folder) throws -> LiveNewsRepository {
        let client = CachedClient(
            baseURL: server.baseURL.appending(path: "api"),
            store: try FileCacheStore(directory: folder.url, now: { [clock] in clock.now }),
            transport: URLSessionTransport(timeout: 10), retry: .none, now: { [clock] in clock.now })
        return LiveNewsRepository(client: client)
    }

    @Test func pagesOnlineThenEveryPageOfflineWithItsDate() async throws {
        let folder = Folder()
        defer { folder.remove() }
        let server = try await FixtureServer.start()
        defer { server.stop() }
        try await server.setPagedRoute("/api/articles/a1/comments", paging: "link", items: GeneratedPagedQueryTests.comments(5), perPage: 2)
        let online = try repository(server, folder)

        var pages: [CachedValue<[Comment]>] = []
        for try await page in online.getCommentsPages(id: "a1", perPage: 2, policy: nil) { pages.append(page) }
        #expect(pages.map(\.isCached) == [false, false, false])
        #expect(pages.map { $0.value.map(\.id) } == [["c1", "c2"], ["c3", "c4"], ["c5"]])
        #expect(
            try await server.requests().map(\.path) == [
                "/api/articles/a1/comments?per_page=2", "/api/articles/a1/comments?page=2&per_page=2",
                "/api/articles/a1/comments?page=3&per_page=2",
            ])
        let storedAt = clock.now
        await online.client.flush()

        // The server is gone; another client on the same folder reads every page, its date, and
        // where the pages end, from the store alone.
        server.stop()
        clock.advance(3600)  // past the ttl (2 min), within maxStale
        let offline = try repository(server, folder)
        var stored: [CachedValue<[Comment]>] = []
        for try await page in offline.getCommentsPages(id: "a1", perPage: 2, policy: nil) { stored.append(page) }
        #expect(stored.map(\.date) == [storedAt, storedAt, storedAt])
        #expect(stored.map { $0.value.map(\.id) } == [["c1", "c2"], ["c3", "c4"], ["c5"]])

        let thread = offline.getCommentsPagedQuery(id: "a1", perPage: 2)
        await thread.load()
        #expect(thread.hasMore && thread.pages.map(\.date) == [storedAt])
        await thread.loadMore()
        await thread.loadMore()
        #expect(thread.items.count == 5 && !thread.hasMore && thread.error == nil)

        // `cacheOnly` reads the same pages; invalidating the endpoint drops every page and its links.
        var cachedOnly = 0
        for try await _ in offline.getCommentsPages(id: "a1", perPage: 2, policy: .cacheOnly) { cachedOnly += 1 }
        #expect(cachedOnly == 3)
        try await offline.client.removeAll(endpoint: "NewsRepository.getComments")
        #expect(try await offline.client.usage().entries == 0)
    }

    @Test func aLinkOutsideTheBaseURLIsNotFollowed() async throws {
        let server = try await FixtureServer.shared
        let prefix = "/links-\(UUID().uuidString.lowercased())"
        try await server.setRoute(
            prefix + "/api/articles/a1/comments",
            headers: ["Link": #"<https://elsewhere.example/api/articles/a1/comments?page=2>; rel="next""#], json: [WireComment(id: "c1")])
        let client = CachedClient(
            baseURL: URL(string: server.baseURL.absoluteString + prefix + "/api")!, transport: URLSessionTransport(timeout: 10),
            retry: .none)
        var count = 0
        for try await _ in LiveNewsRepository(client: client).getCommentsPages(id: "a1") { count += 1 }
        #expect(count == 1)
    }

    typealias WireComment = GeneratedPagedQueryTests.WireComment
}
