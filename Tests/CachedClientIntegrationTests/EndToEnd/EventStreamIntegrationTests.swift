import CachedClientTestSupport
import FixtureServerSupport
import Foundation
import StoreTestSupport
import Testing

@_spi(Generated) @testable import CachedClientRuntime
@_spi(RuntimeLayers) import CachedClientValues

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `CachedClient.eventStream` over `URLSessionTransport` against the fixture server: a stream
/// whose response ends is over after its last event, whatever `id` and `retry` said, and is
/// asked for once; a connection lost mid-stream is resumed with `Last-Event-ID`; a long-lived
/// channel is connected again when its response ends, as `maxReconnects` allows. The same for
/// JSON Lines, which share the loop (without `Last-Event-ID`).
///
/// Every stream is read in a task of its own under a deadline: a stream that never ends fails
/// the test with a message instead of hanging it, and is cancelled.
@Suite("Integration: a finished event stream ends, a channel goes on", .timeLimit(.minutes(1)))
struct EventStreamIntegrationTests {
    let server: FixtureServer
    let prefix = "/streams-\(UUID().uuidString.lowercased())"
    /// The waits the client was asked to make before connecting again.
    let sleeps = Locked<[Duration]>([])

    init() async throws {
        server = try await FixtureServer.shared
    }

    /// A client of this test's routes. The wait before connecting again is real (and short):
    /// a client that reconnects when it should not does so at the server's pace, not in a busy
    /// loop, until the deadline stops it.
    func client(maxReconnects: Int = 5) -> CachedClient {
        let sleeps = sleeps
        return CachedClient(
            baseURL: URL(string: server.baseURL.absoluteString + prefix)!, transport: URLSessionTransport(timeout: 10),
            partition: "user-1",
            retry: RetryPolicy(
                maxRetries: 0, baseDelay: .milliseconds(20),
                sleep: { duration in
                    sleeps.withLock { $0.append(duration) }
                    try await Task.sleep(for: duration)
                },
                maxReconnects: maxReconnects))
    }

    static let events = Endpoint(name: "Feed.events", cache: nil, format: .events)
    static let channel = Endpoint(name: "Feed.channel", cache: nil, format: .events, isChannel: true)
    static let lines = Endpoint(name: "Feed.lines", cache: nil, format: .jsonLines)
    static let lineChannel = Endpoint(name: "Feed.lineChannel", cache: nil, format: .jsonLines, isChannel: true)
    static let eventStream = ["Content-Type": "text/event-stream"]
    static let jsonLines = ["Content-Type": "application/jsonl"]

    /// What reading a stream gave: the events, and the error that ended it, if any.
    struct Reading<Value: Sendable>: Sendable {
        var events: [StreamEvent<Value>]
        var error: (any Error)?
        var values: [Value] { events.map(\.value) }
    }

    /// The stream neither ended nor gave the events asked for in time; the reading was cancelled.
    struct DidNotEnd: Error, CustomStringConvertible {
        var description: String
    }

    /// Reads `stream` until it ends (or, with `count`, until that many events came, then leaves
    /// the loop), in a task of its own; throws `DidNotEnd`, and cancels the reading, when that
    /// has not happened within `limit`.
    func read<Value: Sendable>(
        _ stream: EventStream<Value>, count: Int? = nil, within limit: Duration = .seconds(15)
    ) async throws -> Reading<Value> {
        let read = Locked<[StreamEvent<Value>]>([])
        let reader = Task { () -> (any Error)? in
            do {
                for try await event in stream {
                    let total = read.withLock {
                        $0.append(event)
                        return $0.count
                    }
                    if let count, total >= count { break }
                }
                return nil
            } catch {
                return error
            }
        }
        guard case .success(let error)? = await finishing(within: limit, { await reader.value }) else {
            reader.cancel()
            let got = read.withLock { $0.count }
            let requests = try await log().count
            throw DidNotEnd(
                description: "the stream did not \(count.map { "give \($0) events" } ?? "end") within \(limit): "
                    + "\(got) events read over \(requests) requests")
        }
        return Reading(events: read.withLock { $0 }, error: error)
    }

    /// The requests of this test, oldest first.
    func log() async throws -> [FixtureServer.RecordedRequest] {
        try await server.requests().filter { $0.path.hasPrefix(prefix) }
    }

    /// The `Last-Event-ID` each request of this test sent.
    func lastEventIDs() async throws -> [String?] {
        try await log().map { $0.header("Last-Event-ID") }
    }

    func stream<Value: Decodable & Sendable>(
        _ path: String, _ endpoint: Endpoint, as type: Value.Type, client: CachedClient? = nil
    ) -> EventStream<Value> {
        (client ?? self.client()).eventStream(for: EndpointRequest(method: "GET", path: path), endpoint: endpoint, as: type)
    }

    // MARK: Server-Sent Events

    @Test func aStreamWithIDsAndRetryThatEndsEndsAfterItsLastEventWithOneRequest() async throws {
        try await server.setStreamRoute(
            prefix + "/run", headers: Self.eventStream,
            chunks: ["retry: 200\n\n", "id: 1\ndata: one\n\n", "id: 2\ndata: two\n\n", "id: 3\ndata: three\n\n"])

        let reading = try await read(stream("/run", Self.events, as: String.self))

        #expect(reading.values == ["one", "two", "three"])
        #expect(reading.events.map(\.id) == ["1", "2", "3"])
        #expect(reading.error == nil)
        #expect(try await log().count == 1)
        #expect(sleeps.withLock { $0 }.isEmpty)
    }

    @Test func aConnectionCutMidStreamIsResumedOnceWithLastEventIDAndDeliversTheRest() async throws {
        // Set last first: a route with `times` goes in front of the ones already there.
        try await server.setStreamRoute(
            prefix + "/run", headers: Self.eventStream, chunks: ["id: 3\ndata: three\n\n", "id: 4\ndata: four\n\n"])
        try await server.setStreamRoute(
            prefix + "/run", headers: Self.eventStream,
            chunks: ["retry: 40\n", "id: 1\ndata: one\n\n", "id: 2\ndata: two\n\n", "id: 3\ndata: thr"], times: 1, cut: true)

        let reading = try await read(stream("/run", Self.events, as: String.self))

        // The event the cut left unfinished is dropped; the second connection resumes after 2.
        #expect(reading.values == ["one", "two", "three", "four"])
        #expect(reading.error == nil)
        #expect(try await lastEventIDs() == [nil, "2"])
        #expect(sleeps.withLock { $0 } == [.milliseconds(40)])
    }

    @Test func aStreamWithoutIDsCutMidStreamFailsWithTheLostConnection() async throws {
        try await server.setStreamRoute(
            prefix + "/run", headers: Self.eventStream, chunks: ["data: one\n\n", "data: tw"], cut: true)

        let reading = try await read(stream("/run", Self.events, as: String.self))

        #expect(reading.values == ["one"])
        #expect(reading.error is URLError, "\(String(describing: reading.error))")
        #expect(try await log().count == 1)
    }

    @Test func aChannelIsConnectedAgainWhenItsResponseEndsWithLastEventID() async throws {
        try await server.setStreamRoute(
            prefix + "/feed", headers: Self.eventStream, chunks: ["id: 5\ndata: five\n\n", "id: 6\ndata: six\n\n"], hold: true)
        try await server.setStreamRoute(
            prefix + "/feed", headers: Self.eventStream, chunks: ["id: 3\ndata: three\n\n", "id: 4\ndata: four\n\n"], times: 1)
        try await server.setStreamRoute(
            prefix + "/feed", headers: Self.eventStream, chunks: ["retry: 30\nid: 1\ndata: one\n\n", "id: 2\ndata: two\n\n"], times: 1)

        // Six events over two reconnections, then the loop is left.
        let reading = try await read(stream("/feed", Self.channel, as: String.self), count: 6)

        #expect(reading.values == ["one", "two", "three", "four", "five", "six"])
        #expect(reading.error == nil)
        #expect(try await lastEventIDs() == [nil, "2", "4"])
        #expect(sleeps.withLock { $0 } == [.milliseconds(30), .milliseconds(30)])
        // Leaving the loop closed the third connection, which the server held open.
        #expect(try await server.closedConnections(path: prefix + "/feed", atLeast: 1) == 1)
    }

    @Test func aChannelWhoseServerEndsItWithoutNewEventsIsConnectedAgainAtMostMaxReconnectsTimes() async throws {
        try await server.setStreamRoute(prefix + "/feed", headers: Self.eventStream, chunks: [": nothing new\n"])
        try await server.setStreamRoute(prefix + "/feed", headers: Self.eventStream, chunks: ["id: 1\ndata: one\n\n"], times: 1)

        let reading = try await read(stream("/feed", Self.channel, as: String.self, client: client(maxReconnects: 2)))

        #expect(reading.values == ["one"])
        #expect(reading.error == nil)
        #expect(try await lastEventIDs() == [nil, "1", "1"])
        #expect(sleeps.withLock { $0 } == [.milliseconds(20), .milliseconds(20)])
    }

    // MARK: JSON Lines

    @Test func jsonLinesThatEndEndAfterTheLastRecordWithOneRequest() async throws {
        try await server.setStreamRoute(prefix + "/lines", headers: Self.jsonLines, chunks: ["1\n2\n", "3\n"])

        let reading = try await read(stream("/lines", Self.lines, as: Int.self))

        #expect(reading.values == [1, 2, 3])
        #expect(reading.error == nil)
        #expect(try await log().count == 1)
    }

    @Test func jsonLinesCutMidStreamFailWithTheLostConnectionAndDropTheCutRecord() async throws {
        try await server.setStreamRoute(prefix + "/lines", headers: Self.jsonLines, chunks: ["1\n2\n", "3"], cut: true)

        let reading = try await read(stream("/lines", Self.lines, as: Int.self))

        // "3" without its line break is not known to be whole: dropped, never decoded.
        #expect(reading.values == [1, 2])
        #expect(reading.error is URLError, "\(String(describing: reading.error))")
        #expect(try await log().count == 1)
    }

    @Test func aJSONLinesChannelIsConnectedAgainWhenItsResponseEndsOrIsCut() async throws {
        try await server.setStreamRoute(prefix + "/lines", headers: Self.jsonLines, chunks: ["5\n6\n"], hold: true)
        try await server.setStreamRoute(prefix + "/lines", headers: Self.jsonLines, chunks: ["3\n4\n", "9"], times: 1, cut: true)
        try await server.setStreamRoute(prefix + "/lines", headers: Self.jsonLines, chunks: ["1\n", "2\n"], times: 1)

        let reading = try await read(stream("/lines", Self.lineChannel, as: Int.self), count: 6)

        #expect(reading.values == [1, 2, 3, 4, 5, 6])
        #expect(reading.error == nil)
        #expect(try await lastEventIDs() == [nil, nil, nil])
        #expect(sleeps.withLock { $0 } == [.milliseconds(20), .milliseconds(20)])
        #expect(try await server.closedConnections(path: prefix + "/lines", atLeast: 1) == 1)
    }
}
