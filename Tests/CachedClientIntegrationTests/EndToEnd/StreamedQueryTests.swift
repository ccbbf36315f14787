import CachedClientTestSupport
import FixtureServerSupport
import Foundation
import Observation
import Testing

@_spi(Generated) @testable import CachedClientRuntime
@_spi(RuntimeLayers) import CachedClientValues

/// `StreamedQuery` over `CachedClient.eventStream`, `URLSessionTransport` and the fixture
/// server: tokens reduced in order, `isStreaming` on then off, a released query's connection
/// closed, the finished value kept in a real `FileCacheStore` folder and shown with its date
/// by a new client once the server is gone, a cut stream's partial value shown but never kept.
/// Nothing sleeps: waits are on observation, the server's own bounded waits, or `waitForStream`.
@Suite("Live queries over event streams", .timeLimit(.minutes(1)))
@MainActor
struct StreamedQueryTests {
    nonisolated static let endpoint = Endpoint(name: "Chat.answer", cache: nil, format: .events)
    static let eventStream = ["Content-Type": "text/event-stream"]
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// `POST /answer` with the prompt as its body, part of the key.
    nonisolated static func request(_ prompt: String) -> EndpointRequest {
        var request = EndpointRequest(method: "POST", path: "/answer")
        request.setJSONBody(prompt, isKey: true)
        return request
    }

    let prefix = "/streamed-\(UUID().uuidString.lowercased())"
    let clock = Locked(Self.start)

    /// A client of this test's routes; `timeout` is the transport's (a held stream is closed by
    /// it when it passes).
    func client(_ server: FixtureServer, store: any CacheStore = MemoryCacheStore(), timeout: TimeInterval = 10)
        -> CachedClient
    {
        let clock = clock
        return CachedClient(
            baseURL: URL(string: server.baseURL.absoluteString + prefix)!, store: store,
            transport: URLSessionTransport(timeout: timeout), partition: "user-1",
            retry: RetryPolicy(maxRetries: 0, baseDelay: .milliseconds(20), maxReconnects: 0), now: { clock.withLock { $0 } })
    }

    /// A query that appends each token of `POST /answer` (the prompt in the body) to a text.
    func query(_ client: CachedClient, prompt: String = "Hi") -> StreamedQuery<String, String> {
        let request = Self.request(prompt)
        return StreamedQuery(initial: "", reduce: { $0 += $1 }) {
            client.eventStream(for: request, endpoint: Self.endpoint, as: String.self)
        }
    }

    /// The finished value the client keeps for `query(client, prompt:)`, read as the query reads it.
    func kept(_ client: CachedClient, prompt: String = "Hi") async throws -> CachedValue<String>? {
        let request = Self.request(prompt)
        let origin = StreamOrigin(client: client, request: request, endpoint: Self.endpoint)
        return try await origin.keeper(name: String(reflecting: String.self)).stored(as: String.self)
    }

    @Test func tokensAccumulateInOrderWhileStreamingThenTheValueIsComplete() async throws {
        let server = try await FixtureServer.shared
        try await server.setStreamRoute(
            prefix + "/answer", method: "POST", headers: Self.eventStream,
            chunks: ["data: Hel\n\n", "data: lo, \n\n", "data: world\n\n", "data: [DONE]\n\n"])
        let query = query(client(server))
        let streaming = ValueRecorder { query.isStreaming }
        #expect(query.value == "" && !query.isComplete)

        query.start()
        #expect(query.isStreaming)
        await query.waitForStream()

        #expect(query.value == "Hello, world")
        #expect(query.isComplete && query.error == nil && query.date == nil)
        #expect(query.cachedValue == .fresh(value: "Hello, world"))
        await mainActorJobsEnqueuedSoFar()
        #expect(streaming.values == [false, true, false])
    }

    @Test func eachEventNotifiesObserversOnce() async throws {
        let (events, continuation) = AsyncThrowingStream<StreamEvent<String>, any Error>.makeStream()
        let query = StreamedQuery<String, [String]>(initial: [], reduce: { $0.append($1) }) { EventStream { events } }
        let counter = ChangeCounter()
        counter.track("value") { _ = query.value }
        counter.track("isStreaming") { _ = query.isStreaming }
        counter.track("isComplete") { _ = query.isComplete }

        query.start()
        for (index, token) in ["a", "b", "c"].enumerated() {
            continuation.yield(StreamEvent(token))
            await waitUntil { query.value.count == index + 1 }
            await mainActorJobsEnqueuedSoFar()  // the counter tracks again
        }
        continuation.finish()
        await query.waitForStream()
        await mainActorJobsEnqueuedSoFar()

        #expect(query.value == ["a", "b", "c"])
        #expect(counter.snapshot(["value", "isStreaming", "isComplete"]) == ["value": 3, "isStreaming": 2, "isComplete": 1])
    }

    @Test func releasingTheQueryClosesItsConnectionAtOnce() async throws {
        let server = try await FixtureServer.shared
        try await server.setStreamRoute(
            prefix + "/answer", method: "POST", headers: Self.eventStream, chunks: ["data: one\n\n"], hold: true)
        // The transport's timeout is longer than the server's wait: only the release can close it in time.
        var query: StreamedQuery<String, String>? = query(client(server, timeout: 60))
        weak let released = query
        query?.start()
        await waitUntil { query?.value == "one" }

        query = nil

        #expect(released == nil)
        // The server held the response open; it sees the client close it (it waits up to 10 s).
        #expect(try await server.closedConnections(path: prefix + "/answer", atLeast: 1) == 1)
    }

    @Test func theFinishedValueShowsOfflineWithItsDateFromANewClientOnTheSameFolder() async throws {
        let server = try await FixtureServer.start()
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appending(path: "cachegen-streamed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await server.setStreamRoute(
            prefix + "/answer", method: "POST", headers: Self.eventStream, chunks: ["data: Hello\n\n", "data: !\n\n"])
        let first = client(server, store: try FileCacheStore(directory: folder))
        let online = query(first)
        online.start()
        await online.waitForStream()
        #expect(online.value == "Hello!" && online.isComplete)
        await first.flush()
        server.stop()
        clock.withLock { $0 += 600 }

        let second = client(server, store: try FileCacheStore(directory: folder))
        let offline = query(second)
        offline.start()
        await offline.waitForStream()

        #expect(offline.cachedValue == .cached(value: "Hello!", date: Self.start))
        #expect(offline.isComplete && !offline.isStreaming && offline.error == nil)
        // Another prompt was never finished: nothing to show, and why.
        let other = query(second, prompt: "Bye")
        other.start()
        await other.waitForStream()
        #expect(other.value == "" && !other.isComplete && other.date == nil && other.error != nil)
        // A plain cached call of the same request never reads the streamed value.
        let plain = Endpoint(name: Self.endpoint.name, cache: CacheRule(ttl: 60, maxStale: 3600))
        let request = Self.request("Hi")
        await #expect(throws: (any Error).self) {
            _ = try await second.value(for: request, endpoint: plain, policy: .cacheOnly, as: String.self)
        }
    }

    @Test func aStreamCutMidwayShowsItsPartialValueAndKeepsNothing() async throws {
        let server = try await FixtureServer.shared
        let client = client(server)
        try await server.setStreamRoute(
            prefix + "/answer", method: "POST", headers: Self.eventStream, chunks: ["data: Par\n\n", "data: ti"], cut: true)
        try await server.setStreamRoute(
            prefix + "/answer", method: "POST", headers: Self.eventStream, chunks: ["data: Whole\n\n"], times: 1)
        let query = query(client)
        query.start()
        await query.waitForStream()
        #expect(query.value == "Whole" && query.isComplete)
        await client.flush()
        clock.withLock { $0 += 60 }

        query.restart()
        await query.waitForStream()

        #expect(query.value == "Par")
        #expect(!query.isComplete && !query.isStreaming && query.error != nil && query.date == nil)
        #expect(try await kept(client) == .cached(value: "Whole", date: Self.start))
    }

    @Test func aSignOutRemovesTheKeptValue() async throws {
        let server = try await FixtureServer.shared
        let client = client(server)
        try await server.setStreamRoute(prefix + "/answer", method: "POST", headers: Self.eventStream, chunks: ["data: Mine\n\n"])
        let query = query(client)
        query.start()
        await query.waitForStream()
        await client.flush()
        #expect(try await kept(client) == .cached(value: "Mine", date: Self.start))

        try await client.removeAll(partition: "user-1")

        #expect(try await kept(client) == nil)
    }
}
