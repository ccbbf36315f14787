@_spi(Generated) import CachedClientRuntime
import FixtureServerSupport
import Foundation
import Testing

/// The generated `ticksQuery(from:initial:reduce:)` of `Streams.cachegen.json` over
/// `URLSessionTransport` and the fixture server: the events reduced as they arrive, the finished
/// value kept in a real store folder, and shown with its date by a new client once the server
/// is gone; the same factory over a mock repository for previews.
@Suite("Integration: a generated live query over a stream", .timeLimit(.minutes(1)))
@MainActor
struct GeneratedStreamedQueryTests {
    let clock = GeneratedOpenAPIClientTests.Clock()

    func media(_ server: FixtureServer, folder: URL) throws -> LiveMedia {
        LiveMedia(
            client: CachedClient(
                baseURL: server.baseURL, store: try FileCacheStore(directory: folder, now: { [clock] in clock.now }),
                transport: URLSessionTransport(timeout: 10), partition: "alice",
                retry: RetryPolicy(maxRetries: 0, maxReconnects: 0), now: { [clock] in clock.now }))
    }

    @Test func theFinishedTextIsKeptAndShownOfflineWithItsDate() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "cachegen-streamed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await FixtureServer.start()
        defer { server.stop() }
        try await server.setStreamRoute(
            "/ticks", headers: ["Content-Type": "text/event-stream"],
            chunks: ["data: {\"n\": 1, \"text\": \"Hel\"}\n\n", "data: {\"n\": 2, \"text\": \"lo\"}\n\n", "data: [DONE]\n\n"])
        let online = try media(server, folder: folder)
        let query = online.ticksQuery(from: 1, initial: "", reduce: { $0 += $1.text })
        query.start()
        await query.waitForStream()
        #expect(query.cachedValue == .fresh(value: "Hello") && query.isComplete)
        let keptAt = clock.now
        await online.client.flush()
        server.stop()
        clock.advance(3600)

        let offline = try media(server, folder: folder).ticksQuery(from: 1, initial: "", reduce: { $0 += $1.text })
        offline.start()
        await offline.waitForStream()

        #expect(offline.cachedValue == .cached(value: "Hello", date: keptAt))
        #expect(offline.isComplete && offline.error == nil)
    }

    @Test func aMockRepositoryStreamsItsEventsForPreviews() async throws {
        let media = MockMedia(ticks: { _ in EventStream(values: [Tick(n: 1, text: "a"), Tick(n: 2, text: "b")]) })
        let query = media.ticksQuery(initial: [Int](), reduce: { $0.append($1.n) })
        query.start()
        await query.waitForStream()
        #expect(query.value == [1, 2] && query.isComplete && query.date == nil)
    }
}
