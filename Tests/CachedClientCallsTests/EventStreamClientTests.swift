import CachedClientTestSupport
import CachedClientTesting
import Foundation
import Testing

@_spi(Generated) import CachedClientCalls
import CachedClientFileStore
import CachedClientHTTP
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// `CachedClient.eventStream` over `StubTransport`'s streamed answers: middleware on every
/// connection, the bound on resumptions, `String` streams, a 204 that ends a resumed stream, a
/// response that ends ending the stream whatever its ids said.
@Suite struct EventStreamClientTests {
    static let endpoint = Endpoint(name: "Feed.events", cache: nil, format: .events)

    /// A response whose body arrives as `chunks`, then loses its connection.
    static func lost(_ chunks: [String]) -> HTTPStreamedResponse {
        HTTPStreamedResponse(
            statusCode: 200, headers: ["Content-Type": "text/event-stream"],
            body: AsyncThrowingStream { continuation in
                for chunk in chunks { continuation.yield(Data(chunk.utf8)) }
                continuation.finish(throwing: URLError(.networkConnectionLost))
            })
    }

    static func client(
        _ transport: CachedClientTesting.StubTransport, middleware: [any ClientMiddleware] = [], sleeps: Locked<[Duration]>,
        maxReconnects: Int = 5
    ) -> CachedClient {
        CachedClient(
            baseURL: URL(string: "https://feed.test")!, transport: transport, middleware: middleware,
            retry: RetryPolicy(baseDelay: .milliseconds(250), sleep: { duration in sleeps.withLock { $0.append(duration) } }, maxReconnects: maxReconnects))
    }

    @Test func middlewareSeesEachConnectionAndResumptionsAreBoundedWithoutNewEvents() async throws {
        let transport = CachedClientTesting.StubTransport(response: HTTPResponse(statusCode: 500))
        // Every connection is lost after the same id again and no new event: no progress.
        transport.respondStreaming { request -> HTTPStreamedResponse in
            request.headers["Last-Event-ID"] == nil ? Self.lost(["id: 1\ndata: \"first\"\n\n"]) : Self.lost([": nothing new\n"])
        }
        let log = Locked<[String]>([])
        let sleeps = Locked<[Duration]>([])
        let client = Self.client(transport, middleware: [Tagging(tag: "A", log: log)], sleeps: sleeps, maxReconnects: 2)

        var values: [String] = []
        // Once the resumptions are spent, the lost connection is what ends the stream.
        await #expect(throws: URLError(.networkConnectionLost)) {
            for try await event in client.eventStream(for: EndpointRequest(method: "GET", path: "/feed"), endpoint: Self.endpoint, as: String.self) {
                values.append(event.value)
            }
        }

        #expect(values == ["\"first\""])
        #expect(transport.requests.map { $0.headers["Last-Event-ID"] } == [nil, "1", "1"])
        #expect(transport.requests.allSatisfy { $0.headers["Accept"] == "text/event-stream" && $0.headers["X-Trace"] == "A" })
        #expect(log.withLock { $0 } == ["A → Feed.events", "A ← 200", "A → Feed.events", "A ← 200", "A → Feed.events", "A ← 200"])
        #expect(sleeps.withLock { $0 } == [.milliseconds(250), .milliseconds(250)])
    }

    @Test func aResponseThatEndsEndsTheStreamWhateverItsIDsAndRetrySaid() async throws {
        let transport = CachedClientTesting.StubTransport(response: HTTPResponse(statusCode: 500))
        // A second request (there must be none) is told to stop: a client that sends the stream
        // again fails the expectations below instead of looping.
        transport.respondStreaming { request -> HTTPStreamedResponse in
            request.headers["Last-Event-ID"] == nil ? .chunks(["retry: 10\nid: 1\ndata: 1\n\n", "id: 2\ndata: 2\n\n"]) : .chunks([], status: 204)
        }
        let sleeps = Locked<[Duration]>([])
        let client = Self.client(transport, sleeps: sleeps)

        var values: [Int] = []
        for try await event in client.eventStream(for: EndpointRequest(method: "GET", path: "/feed"), endpoint: Self.endpoint, as: Int.self) {
            values.append(event.value)
        }

        #expect(values == [1, 2])
        #expect(transport.requests.count == 1)
        #expect(sleeps.withLock { $0 }.isEmpty)
    }

    @Test func aNoContentAnswerToAResumptionEndsTheStream() async throws {
        let transport = CachedClientTesting.StubTransport(response: HTTPResponse(statusCode: 204))
        transport.respondStreaming { request -> HTTPStreamedResponse in
            request.headers["Last-Event-ID"] == nil ? Self.lost(["retry: 0\nid: 9\ndata: 1\n\n"]) : .chunks([], status: 204)
        }
        let sleeps = Locked<[Duration]>([])
        let client = Self.client(transport, sleeps: sleeps)

        var values: [Int] = []
        for try await event in client.eventStream(for: EndpointRequest(method: "GET", path: "/feed"), endpoint: Self.endpoint, as: Int.self) {
            values.append(event.value)
        }

        #expect(values == [1])
        #expect(transport.requests.count == 2)
        #expect(sleeps.withLock { $0 } == [.zero])
    }

    @Test func aChannelIsConnectedAgainWhenItsResponseEndsUntilTheServerAnswersNoContent() async throws {
        let transport = CachedClientTesting.StubTransport(response: HTTPResponse(statusCode: 500))
        let connections = Locked(0)
        transport.respondStreaming { _ -> HTTPStreamedResponse in
            switch connections.withLock({ $0 += 1; return $0 }) {
            case 1: .chunks(["id: a\ndata: 1\n\n"])
            case 2: .chunks(["data: 2\n\n"])
            default: .chunks([], status: 204)
            }
        }
        let sleeps = Locked<[Duration]>([])
        let client = Self.client(transport, sleeps: sleeps)
        let channel = Endpoint(name: "Feed.channel", cache: nil, format: .events, isChannel: true)

        var values: [Int] = []
        for try await event in client.eventStream(for: EndpointRequest(method: "GET", path: "/feed"), endpoint: channel, as: Int.self) {
            values.append(event.value)
        }

        #expect(values == [1, 2])
        #expect(transport.requests.map { $0.headers["Last-Event-ID"] } == [nil, "a", "a"])
        #expect(sleeps.withLock { $0 } == [.milliseconds(250), .milliseconds(250)])
    }

    @Test func aStreamWithoutIdsIsNotResumedAndUndecodableDataFailsIt() async throws {
        let transport = CachedClientTesting.StubTransport(response: HTTPResponse(statusCode: 500))
        transport.respondStreaming { _ in HTTPStreamedResponse.chunks(["data: 1\n\ndata: nope\n\n"]) }
        let client = Self.client(transport, sleeps: Locked([]))
        var values: [Int] = []
        var failure: (any Error)?
        do {
            for try await event in client.eventStream(for: EndpointRequest(method: "GET", path: "/feed"), endpoint: Self.endpoint, as: Int.self) {
                values.append(event.value)
            }
        } catch {
            failure = error
        }
        #expect(failure is CachedClientError)
        #expect(values == [1])
        #expect(transport.requests.count == 1)
    }

    @Test func aTransportThatCannotStreamAnswersWithTheWholeBody() async throws {
        let transport = CachedClientTesting.StubTransport(response: HTTPResponse(statusCode: 200, body: Data("{\"a\":1}\n{\"a\":2}\n".utf8)))
        let endpoint = Endpoint(name: "Feed.lines", cache: nil, format: .jsonLines)
        let client = Self.client(transport, sleeps: Locked([]))
        var values: [[String: Int]] = []
        for try await event in client.eventStream(for: EndpointRequest(method: "GET", path: "/lines"), endpoint: endpoint, as: [String: Int].self) {
            values.append(event.value)
        }
        #expect(values == [["a": 1], ["a": 2]])
        #expect(transport.requests.map { $0.headers["Accept"] } == ["application/jsonl, application/x-ndjson"])
    }
}
