@_spi(Generated) import CachedClientRuntime
import FixtureServerSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The client generated from `Streams.cachegen.json` (bytes, text, Server-Sent Events, JSON
/// Lines and JSON text sequences) over `URLSessionTransport` against
/// `Tests/Fixtures/fixture_server.py`: bytes and text cached and read back offline with their
/// date, events typed with their fields, a stream cancelled midway (the server counts the
/// closed connection), and a stream resumed with `Last-Event-ID`.
@Suite("Integration: bytes, text and event streams against the fixture server", .timeLimit(.minutes(1)))
struct GeneratedStreamsIntegrationTests {
    typealias Clock = GeneratedOpenAPIClientTests.Clock

    /// A folder for a store, removed when the test ends.
    struct Folder {
        let url = FileManager.default.temporaryDirectory.appending(path: "cachegen-streams-\(UUID().uuidString)")
        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    /// The waits a stream was asked to make before resuming, without waiting.
    final class Sleeps: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [Duration] = []
        var all: [Duration] { lock.withLock { list } }
        func record(_ duration: Duration) { lock.withLock { list.append(duration) } }
    }

    let clock = Clock()

    func media(_ server: FixtureServer, folder: Folder, sleeps: Sleeps = Sleeps()) throws -> LiveMedia {
        let client = CachedClient(
            baseURL: server.baseURL, store: try FileCacheStore(directory: folder.url, now: { [clock] in clock.now }),
            transport: URLSessionTransport(timeout: 10), partition: "alice",
            retry: RetryPolicy(sleep: { sleeps.record($0) }), now: { [clock] in clock.now })
        return LiveMedia(client: client)
    }

    @Test func bytesThatAreNotUTF8AreCachedAndReadOfflineWithTheirDate() async throws {
        let folder = Folder()
        defer { folder.remove() }
        let server = try await FixtureServer.start()
        defer { server.stop() }
        let bytes = Data([0xFF, 0xFE, 0x00, 0x80, 0xC3, 0x28, 0x89, 0x50, 0x4E, 0x47])
        try await server.setRoute("/files/logo.png", headers: ["Content-Type": "image/png"], bytes: bytes)
        let media = try media(server, folder: folder)

        #expect(try await media.download(name: "logo.png") == .fresh(value: bytes))
        let storedAt = clock.now
        #expect(try await server.requests().map { $0.header("Accept") } == ["*/*"])
        await media.client.flush()
        clock.advance(3600)
        server.stop()
        #expect(try await media.download(name: "logo.png", policy: .cacheOnly) == .cached(value: bytes, date: storedAt))
        // Connection refused: networkFirst answers from the store, with the same date.
        #expect(try await media.download(name: "logo.png") == .cached(value: bytes, date: storedAt))
    }

    @Test func textInItsCharsetIsCachedAsText() async throws {
        let folder = Folder()
        defer { folder.remove() }
        let server = try await FixtureServer.start()
        defer { server.stop() }
        let latin1 = Data([0x63, 0x61, 0x66, 0xE9, 0x0A])  // "café\n" in ISO 8859-1
        try await server.setRoute("/readme", headers: ["Content-Type": "text/plain; charset=ISO-8859-1"], bytes: latin1)
        let media = try media(server, folder: folder)

        #expect(try await media.readme(lang: "fr") == .fresh(value: "café\n"))
        let storedAt = clock.now
        #expect(try await server.requests().map { "\($0.path) \($0.header("Accept") ?? "")" } == ["/readme?lang=fr text/*"])
        await media.client.flush()
        server.stop()
        #expect(try await media.readme(lang: "fr", policy: .cacheOnly) == .cached(value: "café\n", date: storedAt))
    }

    @Test func serverSentEventsAreTypedAndCancellingTheTaskClosesTheConnection() async throws {
        let folder = Folder()
        defer { folder.remove() }
        let server = try await FixtureServer.start()
        defer { server.stop() }
        try await server.setStreamRoute(
            "/ticks", headers: ["Content-Type": "text/event-stream"],
            chunks: [
                "\u{FEFF}: a comment\r\n",
                "id: 1\ndata: {\"n\": 1,\ndata:  \"text\": \"a\"}\n\n",
                "event: tick\r\nid: 2\r\ndata: {\"n\": 2, \"text\": \"b\"}\r\n\r",
                "\n",
            ],
            hold: true)
        let media = try media(server, folder: folder)
        let (received, delivery) = AsyncStream<StreamEvent<Tick>>.makeStream()
        let consumer = Task {
            for try await event in media.ticks(from: 1) { delivery.yield(event) }
        }
        var iterator = received.makeAsyncIterator()
        let first = await iterator.next()
        let second = await iterator.next()
        #expect(first == StreamEvent(Tick(n: 1, text: "a"), id: "1"))
        #expect(second == StreamEvent(Tick(n: 2, text: "b"), event: "tick", id: "2"))

        consumer.cancel()
        _ = await consumer.result
        // The server saw the client close the connection it was holding open.
        #expect(try await server.closedConnections(path: "/ticks", atLeast: 1) == 1)
        let requests = try await server.requests()
        #expect(requests.map(\.path) == ["/ticks?from=1"])
        #expect(requests.first?.header("Accept") == "text/event-stream")
    }

    @Test func aStreamWithIDsIsResumedWithLastEventIDAfterTheServersRetry() async throws {
        let folder = Folder()
        defer { folder.remove() }
        let server = try await FixtureServer.start()
        defer { server.stop() }
        let events = ["Content-Type": "text/event-stream"]
        try await server.setStreamRoute("/ticks", headers: events, chunks: ["id: 7\ndata: {\"n\": 8, \"text\": \"g\"}\n\n", "data: [DONE]\n\n"])
        // The first connection is lost mid-stream (its chunked body is cut short).
        try await server.setStreamRoute(
            "/ticks", headers: events, chunks: ["retry: 1500\nid: 6\ndata: {\"n\": 6, \"text\": \"e\"}\n\nid: 6b\ndata: {\"n\": 7,"],
            times: 1, cut: true)
        let sleeps = Sleeps()
        let media = try media(server, folder: folder, sleeps: sleeps)

        var values: [Tick] = []
        for try await event in media.ticks() { values.append(event.value) }

        // The event cut off by the lost connection is dropped; the next connection resumes after 6.
        #expect(values == [Tick(n: 6, text: "e"), Tick(n: 8, text: "g")])
        #expect(sleeps.all == [.milliseconds(1500)])
        let requests = try await server.requests()
        #expect(requests.map { $0.header("Last-Event-ID") } == [nil, "6"])
    }

    @Test func aStreamWithIDsWhoseResponseEndsIsOverAfterItsLastEvent() async throws {
        let folder = Folder()
        defer { folder.remove() }
        let server = try await FixtureServer.start()
        defer { server.stop() }
        try await server.setStreamRoute(
            "/ticks", headers: ["Content-Type": "text/event-stream"],
            chunks: ["retry: 1500\nid: 1\ndata: {\"n\": 1, \"text\": \"a\"}\n\n", "id: 2\ndata: {\"n\": 2, \"text\": \"b\"}\n\n"])
        let sleeps = Sleeps()
        let media = try media(server, folder: folder, sleeps: sleeps)

        var values: [Tick] = []
        for try await event in media.ticks() {
            values.append(event.value)
            if values.count > 2 { break }  // sent again: the expectations below fail at once
        }

        #expect(values == [Tick(n: 1, text: "a"), Tick(n: 2, text: "b")])
        #expect(sleeps.all.isEmpty)
        #expect(try await server.requests().count == 1)
    }

    @Test func aChannelMarkedInTheSpecIsConnectedAgainWhenItsResponseEnds() async throws {
        let folder = Folder()
        defer { folder.remove() }
        let server = try await FixtureServer.start()
        defer { server.stop() }
        let events = ["Content-Type": "text/event-stream"]
        try await server.setStreamRoute("/ticks/feed", headers: events, chunks: ["id: 3\ndata: {\"n\": 3, \"text\": \"c\"}\n\n"], hold: true)
        try await server.setStreamRoute("/ticks/feed", headers: events, chunks: ["id: 2\ndata: {\"n\": 2, \"text\": \"b\"}\n\n"], times: 1)
        try await server.setStreamRoute("/ticks/feed", headers: events, chunks: ["id: 1\ndata: {\"n\": 1, \"text\": \"a\"}\n\n"], times: 1)
        let sleeps = Sleeps()
        let media = try media(server, folder: folder, sleeps: sleeps)

        // Three events over two reconnections, then the loop is left (the suite's time limit
        // bounds the wait).
        var values: [Tick] = []
        for try await event in media.tickFeed() {
            values.append(event.value)
            if values.count == 3 { break }
        }

        #expect(values.map(\.n) == [1, 2, 3])
        #expect(sleeps.all == [.milliseconds(500), .milliseconds(500)])
        #expect(try await server.requests().map { $0.header("Last-Event-ID") } == [nil, "1", "2"])
        #expect(try await server.closedConnections(path: "/ticks/feed", atLeast: 1) == 1)
    }

    @Test func jsonLinesAndJSONTextSequences() async throws {
        let folder = Folder()
        defer { folder.remove() }
        let server = try await FixtureServer.start()
        defer { server.stop() }
        try await server.setStreamRoute(
            "/ticks/lines", method: "POST", headers: ["Content-Type": "application/x-ndjson"],
            chunks: ["{\"n\": 1, \"text\": \"a\"}\n{\"n\": 2,", " \"text\": \"b\"}\r\n\n", "{\"n\": 3, \"text\": \"c\"}"])
        try await server.setStreamRoute(
            "/ticks/sequence", headers: ["Content-Type": "application/json-seq"],
            chunks: ["\u{1E}[{\"n\": 1, \"text\": \"a\"}]\n\u{1E}[]", "\n"])
        let media = try media(server, folder: folder)

        var lines: [Tick] = []
        for try await event in media.tickLines(body: Tick(n: 0, text: "start")) { lines.append(event.value) }
        var sequence: [[Tick]] = []
        for try await event in media.tickSequence() { sequence.append(event.value) }

        #expect(lines == [Tick(n: 1, text: "a"), Tick(n: 2, text: "b"), Tick(n: 3, text: "c")])
        #expect(sequence == [[Tick(n: 1, text: "a")], []])
        let requests = try await server.requests()
        #expect(requests.map { $0.header("Accept") } == ["application/jsonl, application/x-ndjson", "application/json-seq"])
        #expect(requests.first?.body == #"{"n":0,"text":"start"}"#)
    }

    @Test func aStreamThatFailsWithAStatusThrowsIt() async throws {
        let folder = Folder()
        defer { folder.remove() }
        let server = try await FixtureServer.start()
        defer { server.stop() }
        try await server.setRoute("/ticks", status: 404, headers: ["Content-Type": "application/json"], body: #"{"error": "gone"}"#)
        let media = try media(server, folder: folder)

        await #expect(throws: CachedClientError.httpStatus(404, endpoint: "Media.ticks", body: Data(#"{"error": "gone"}"#.utf8))) {
            for try await _ in media.ticks() {}
        }
    }

    @Test func mocksAnswerStreamsFromTheirHandlers() async throws {
        let mock = MockMedia(ticks: { from in EventStream(values: [Tick(n: from ?? 0, text: "mock")]) })
        var values: [Tick] = []
        for try await event in mock.ticks(from: 4) { values.append(event.value) }
        #expect(values == [Tick(n: 4, text: "mock")])
        await #expect(throws: MockNotImplemented.self) {
            for try await _ in mock.tickSequence() {}
        }
    }
}
