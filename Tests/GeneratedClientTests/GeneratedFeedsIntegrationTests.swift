@_spi(Generated) import CachedClientRuntime
import FixtureServerSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The client generated from the OpenAPI 3.2 document `feeds-3.2.openapi.yaml` over
/// `URLSessionTransport` against `Tests/Fixtures/fixture_server.py`: a QUERY with its JSON
/// body, a LINK (an additional operation), Server-Sent Events whose `data` is typed through
/// `itemSchema`'s `contentSchema`, JSON Lines typed by `itemSchema`, and a discriminator's
/// `defaultMapping` deciding an item without its tag.
@Suite("Integration: an OpenAPI 3.2 client against the fixture server", .timeLimit(.minutes(1)))
struct GeneratedFeedsIntegrationTests {
    func client(_ server: FixtureServer) -> CachedClient {
        CachedClient(baseURL: server.baseURL, store: MemoryCacheStore(), transport: URLSessionTransport(timeout: 10), partition: "alice")
    }

    @Test func aQuerySendsItsBodyAndALinkItsHeader() async throws {
        let server = try await FixtureServer.start()
        defer { server.stop() }
        try await server.setRoute("/feeds/search", method: "QUERY", json: [FeedsFeed(id: "f1", title: "News")])
        try await server.setRoute("/feeds/f1", method: "LINK", status: 204)
        let feeds = LiveFeedsFeedsRepository(client: client(server))

        #expect(try await feeds.searchFeeds(body: FeedsFeedQuery(text: "swift", limit: 2)) == [FeedsFeed(id: "f1", title: "News")])
        try await feeds.linkFeed(feedId: "f1", link: "</feeds/f2>; rel=\"next\"")
        let requests = try await server.requests()
        #expect(requests.map(\.method) == ["QUERY", "LINK"])
        #expect(requests.first?.body == #"{"limit":2,"text":"swift"}"#)
        #expect(requests.last?.header("Link") == "</feeds/f2>; rel=\"next\"")
    }

    @Test func eventsAreTypedByTheirDataAndAnItemWithoutAKindIsANote() async throws {
        let server = try await FixtureServer.start()
        defer { server.stop() }
        try await server.setStreamRoute(
            "/feeds/f1/events", headers: ["Content-Type": "text/event-stream"],
            chunks: [
                "event: item\nid: 1\ndata: {\"kind\": \"article\", \"title\": \"Hello\"}\n\n",
                "event: item\nid: 2\ndata: {\"text\": \"no kind\"}\n\n",
            ])
        try await server.setStreamRoute(
            "/feeds/f1/items", headers: ["Content-Type": "application/jsonl"],
            chunks: ["{\"kind\": \"note\", \"text\": \"a\"}\n", "{\"kind\": \"new\", \"text\": \"b\"}\n"])
        let feeds = LiveFeedsFeedsRepository(client: client(server))
        let items = LiveFeedsItemsRepository(client: client(server))

        var events: [StreamEvent<FeedsFeedItem>] = []
        for try await event in feeds.feedEvents(feedId: "f1") { events.append(event) }
        #expect(
            events == [
                StreamEvent(.article(FeedsArticle(kind: "article", title: "Hello")), event: "item", id: "1"),
                StreamEvent(.note(FeedsNote(text: "no kind")), event: "item", id: "2"),
            ])
        var values: [FeedsFeedItem] = []
        for try await event in items.exportItems(feedId: "f1") { values.append(event.value) }
        // A kind the document does not list is the default mapping's too.
        #expect(values == [.note(FeedsNote(kind: "note", text: "a")), .note(FeedsNote(kind: "new", text: "b"))])
    }
}
