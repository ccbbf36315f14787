import FixtureServerSupport
import Foundation
import Testing

@_spi(Generated) @testable import CachedClientRuntime
@_spi(RuntimeLayers) import CachedClientValues

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `CachedClient.eventStream` over `URLSessionTransport` against the fixture server: a stream
/// whose response ends is over after its last event, whatever `id` and `retry` said, and is
/// asked for once.
///
/// Every stream is read in a task of its own under a deadline: a stream that never ends fails
/// the test with a message instead of hanging it, and is cancelled.
@Suite("Integration: a finished event stream ends", .timeLimit(.minutes(1)))
struct EventStreamIntegrationTests {
    let server: FixtureServer
    let prefix = "/streams-\(UUID().uuidString.lowercased())"
    /// The waits the client was asked to make before connecting again.
    let sleeps = Locked<[Duration]>([])
    let client: CachedClient

    init() async throws {
        server = try await FixtureServer.shared
        let sleeps = sleeps
        // The wait is real (and short): a client that reconnects when it should not does so at
        // the server's pace, not in a busy loop, until the deadline stops it.
        client = CachedClient(
            baseURL: URL(string: server.baseURL.absoluteString + prefix)!, transport: URLSessionTransport(timeout: 10),
            partition: "user-1",
            retry: RetryPolicy(
                maxRetries: 0, baseDelay: .milliseconds(100),
                sleep: { duration in
                    sleeps.withLock { $0.append(duration) }
                    try await Task.sleep(for: duration)
                }))
    }

    static let events = Endpoint(name: "Feed.events", cache: nil, format: .events)

    /// What reading a stream to its end gave: the events, and the error that ended it, if any.
    struct Reading<Value: Sendable>: Sendable {
        var events: [StreamEvent<Value>]
        var error: (any Error)?
        var values: [Value] { events.map(\.value) }
    }

    /// Reads `stream` until it ends, or fails the test (and cancels the reading) when it has not
    /// ended within `limit`.
    func readToEnd<Value: Sendable>(
        _ stream: EventStream<Value>, within limit: Duration = .seconds(15), sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Reading<Value> {
        let read = Locked<[StreamEvent<Value>]>([])
        let reader = Task { () -> (any Error)? in
            do {
                for try await event in stream { read.withLock { $0.append(event) } }
                return nil
            } catch {
                return error
            }
        }
        guard case .success(let error)? = await finishing(within: limit, { await reader.value }) else {
            reader.cancel()
            let count = read.withLock { $0.count }
            let requests = try await log().count
            Issue.record(
                "the stream did not end within \(limit): \(count) events read over \(requests) requests", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        return Reading(events: read.withLock { $0 }, error: error)
    }

    /// The requests of this test, oldest first.
    func log() async throws -> [FixtureServer.RecordedRequest] {
        try await server.requests().filter { $0.path.hasPrefix(prefix) }
    }

    @Test func aStreamWithIDsAndRetryThatEndsEndsAfterItsLastEventWithOneRequest() async throws {
        try await server.setStreamRoute(
            prefix + "/run", headers: ["Content-Type": "text/event-stream"],
            chunks: ["retry: 200\n\n", "id: 1\ndata: \"one\"\n\n", "id: 2\ndata: \"two\"\n\n", "id: 3\ndata: \"three\"\n\n"])

        let reading = try await readToEnd(
            client.eventStream(for: EndpointRequest(method: "GET", path: "/run"), endpoint: Self.events, as: String.self))

        #expect(reading.values == ["one", "two", "three"])
        #expect(reading.events.map(\.id) == ["1", "2", "3"])
        #expect(reading.error == nil)
        #expect(try await log().count == 1)
        #expect(sleeps.withLock { $0 }.isEmpty)
    }
}
