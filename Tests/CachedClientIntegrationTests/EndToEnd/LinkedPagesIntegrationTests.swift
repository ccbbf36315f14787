import CachedClientTestSupport
import FixtureServerSupport
import Foundation
import Testing

@_spi(Generated) @testable import CachedClientRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `CachedClient.linkedPages`: the `Link` field kept beside each page, against the fixture
/// server: a 304 re-dates the links with the page it confirms, and a page stored without its
/// links (or with links of another answer) is asked for again rather than trusted.
@Suite("Integration: links kept beside their pages", .timeLimit(.minutes(1)))
struct LinkedPagesIntegrationTests {
    static let first = [Account(id: "1", balance: 1), Account(id: "2", balance: 2)]
    static let second = [Account(id: "3", balance: 3)]

    let server: FixtureServer
    let prefix = "/linked-\(UUID().uuidString.lowercased())"
    let clock = TestClock()
    let client: CachedClient

    init() async throws {
        server = try await FixtureServer.shared
        client = CachedClient(
            baseURL: URL(string: server.baseURL.absoluteString + prefix + "/v1")!, transport: URLSessionTransport(timeout: 10),
            partition: "user-1", retry: .none, now: clock.function)
    }

    static func endpoint(linked: Bool = true) -> Endpoint {
        Endpoint(
            name: "FeedRepository.getLinked", cache: CacheRule(ttl: 60, maxStale: 3_600, policy: .networkFirst),
            shape: "[Account]", nextLinkRelation: linked ? "next" : nil)
    }

    func pages(policy: CachePolicy? = nil) async throws -> [CachedValue<[Account]>] {
        var pages: [CachedValue<[Account]>] = []
        let sequence = client.linkedPages(
            for: EndpointRequest(method: "GET", path: "/items"), endpoint: Self.endpoint(), policy: policy, as: [Account].self)
        for try await page in sequence { pages.append(page) }
        return pages
    }

    /// Page 1 at `/items` (with an ETag, and a link to page 2 on the 200), page 2 at `/items?page=2`.
    func serve() async throws {
        let link = "<\(server.baseURL.absoluteString)\(prefix)/v1/items?page=2>; rel=\"next\""
        try await server.setRoute(prefix + "/v1/items", headers: ["ETag": "\"v1\"", "Link": link], json: Self.first)
        try await server.setRoute(prefix + "/v1/items?page=2", json: Self.second)
    }

    func log() async throws -> [String] {
        try await server.requests().filter { $0.path.hasPrefix(prefix) }
            .map { "\($0.path.dropFirst(prefix.count)) \($0.status ?? 0)" }
    }

    @Test func aNotModifiedAnswerKeepsThePagesLinksWithItsNewDate() async throws {
        try await serve()
        #expect(try await pages().map(\.value) == [Self.first, Self.second])

        clock.advance(by: 120)
        // The 304 repeats no `Link` (RFC 9110 does not ask it to); the links stored before still lead on.
        #expect(try await pages().map(\.value) == [Self.first, Self.second])
        #expect(try await log() == ["/v1/items 200", "/v1/items?page=2 200", "/v1/items 304", "/v1/items?page=2 200"])
    }

    @Test func aPageStoredWithoutItsLinksIsAskedForAgain() async throws {
        try await serve()
        // Stored by an endpoint that did not page yet: no links beside it.
        _ = try await client.value(for: EndpointRequest(method: "GET", path: "/items"), endpoint: Self.endpoint(linked: false), as: [Account].self)

        let pages = try await pages(policy: .cacheFirst)  // a fresh hit, but where the pages go is unknown
        #expect(pages.map(\.value) == [Self.first, Self.second])
        #expect(try await log() == ["/v1/items 200", "/v1/items 200", "/v1/items?page=2 200"])

        // Offline with `cacheOnly`, the links are never guessed: pages end where they are unknown.
        try await client.removeAll(endpoint: "FeedRepository.getLinked")
        _ = try await client.value(for: EndpointRequest(method: "GET", path: "/items"), endpoint: Self.endpoint(linked: false), as: [Account].self)
        #expect(try await self.pages(policy: .cacheOnly).count == 1)
    }

    @Test func pagesAtAnotherPathAreRemovedWithTheFirstPagesResource() async throws {
        // As GitHub's `/users/octo/repos`, whose links name `/user/7/repos?page=2`.
        let link = "<\(server.baseURL.absoluteString)\(prefix)/v1/user/7/items?page=2>; rel=\"next\""
        try await server.setRoute(prefix + "/v1/users/octo/items", headers: ["Link": link], json: Self.first)
        try await server.setRoute(prefix + "/v1/user/7/items?page=2", json: Self.second)
        var request = EndpointRequest(method: "GET", path: "/users/{user}/items")
        request.setPathParameter("user", "octo")
        var pages = 0
        for try await _ in client.linkedPages(for: request, endpoint: Self.endpoint(), as: [Account].self) { pages += 1 }
        #expect(pages == 2)
        await client.flush()
        #expect(try await client.usage().entries == 4)  // two pages, each with its links

        try await server.setRoute(prefix + "/v1/users/octo/items", method: "DELETE", body: "")
        try await client.perform(
            EndpointRequest(method: "DELETE", path: "/users/octo/items"), endpoint: Endpoint(name: "FeedRepository.clear", cache: nil),
            invalidating: [Invalidation(Self.endpoint(), path: "/users/{user}/items") { $0.setPathParameter("user", "octo") }])
        #expect(try await client.usage().entries == 0)
    }
}
