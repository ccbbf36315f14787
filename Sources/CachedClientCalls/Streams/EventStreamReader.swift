import CachedClientHTTP
@_spi(Generated) import CachedClientValues
import Foundation

/// Reads the events of a streamed endpoint through the client's sender, connecting again while
/// the stream goes on: `CachedClient.eventStream(for:endpoint:as:)`.
package struct EventStreamReader: Sendable {
    /// Builds each connection's request and passes it through the middleware.
    package let sender: RequestSender

    /// The events of a streamed endpoint (`format` `.events`, `.jsonLines` or `.jsonSequence`),
    /// each record decoded as `T`; never cached, and sent only when the sequence is iterated.
    ///
    /// The request goes through the middleware like any other, once per connection, with
    /// `Accept` from the endpoint. A status other than 2xx ends the sequence with
    /// `httpStatus`. A response that ends normally ends the sequence after its last event,
    /// whatever `id` or `retry` said, unless the endpoint is a long-lived channel
    /// (`isChannel`), which is connected again. A connection lost mid-stream is resumed when
    /// the server sent an event ID (with `Last-Event-ID`) or the endpoint is a channel; either
    /// way after the server's `retry` (or the retry policy's `baseDelay`), up to
    /// `maxReconnects` times without a new event in between, and a 204 answer ends it. An
    /// event whose data is `[DONE]` (the sentinel OpenAI-style APIs send last) ends the
    /// sequence; a `String` stream yields each record's text as it is, without decoding it
    /// as JSON.
    package func events<T: Decodable & Sendable>(
        for request: EndpointRequest, endpoint: Endpoint, as type: T.Type
    ) -> EventStream<T> {
        EventStream {
            AsyncThrowingStream { continuation in
                let task = Task {
                    do {
                        try await readEvents(request, endpoint: endpoint, as: type) { continuation.yield($0) }
                        continuation.finish()
                    } catch {
                        // A reader that left sees its leaving, whatever the connection did meanwhile.
                        continuation.finish(throwing: Task.isCancelled ? CancellationError() : error)
                    }
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
    }

    /// Connects, and connects again while the stream goes on, handing on each event.
    ///
    /// After each connection: a response that ended normally is the end, unless the endpoint is
    /// a channel; a connection lost (the body threw, or a later connection failed as a
    /// transient failure does) is resumed when there is an event ID to resume from or the
    /// endpoint is a channel, and is thrown otherwise. A first connection that fails is thrown.
    private func readEvents<T: Decodable & Sendable>(
        _ request: EndpointRequest, endpoint: Endpoint, as type: T.Type, yield: (StreamEvent<T>) -> Void
    ) async throws {
        let body = try endpoint.encodedBody(of: request)
        var parser = ServerSentEventParser()
        var reconnects = 0
        var connected = false
        while true {
            var attempt = request
            if !parser.lastEventID.isEmpty { attempt.addHeader("Last-Event-ID", parser.lastEventID, isKey: false) }
            var progressed = false
            var lost: (any Error)?
            do {
                let http = try await sender.httpRequest(
                    attempt, body: body, validators: nil, accept: endpoint.acceptField, server: endpoint.server)
                let response = try await sender.chain.stream(http, operation: endpoint.name)
                // 204 No Content: the server asks the client not to connect again (WHATWG HTML).
                if response.statusCode == 204 { return }
                guard (200..<300).contains(response.statusCode) else {
                    let body = try await response.collectedBody()
                    throw CachedClientError.httpStatus(response.statusCode, endpoint: endpoint.name, body: body)
                }
                connected = true
                var records = endpoint.format == .jsonSequence ? JSONRecordSplitter.sequence : JSONRecordSplitter.lines
                for try await chunk in response.body {
                    if endpoint.format == .events {
                        for event in parser.feed(chunk) {
                            if event.data == "[DONE]" { return }
                            let value = try Self.record(Data(event.data.utf8), endpoint: endpoint, as: type)
                            yield(StreamEvent(value, event: event.event, id: event.id, retry: event.retry.map { .milliseconds($0) }))
                            progressed = true
                        }
                    } else {
                        for record in records.feed(chunk) {
                            yield(StreamEvent(try Self.record(Data(record), endpoint: endpoint, as: type)))
                            progressed = true
                        }
                    }
                }
                if let record = records.finish(), endpoint.format != .events {
                    yield(StreamEvent(try Self.record(Data(record), endpoint: endpoint, as: type)))
                    progressed = true
                }
            } catch where connected && CallFetcher.allowsFallback(error) && (endpoint.isChannel || !parser.lastEventID.isEmpty) {
                lost = error
            }
            // Cancelling the reading task ends the body as if the server had: stop, never reconnect.
            try Task.checkCancellation()
            // The response ended: the stream is over, unless it is a channel.
            guard lost != nil || endpoint.isChannel else { return }
            if progressed { reconnects = 0 }
            guard reconnects < sender.retry.maxReconnects else {
                if let lost { throw lost }
                return
            }
            reconnects += 1
            parser.reset()
            try await sender.retry.sleep(parser.reconnectionTime.map { .milliseconds($0) } ?? sender.retry.baseDelay)
        }
    }

    /// One record decoded as `T`, or its text as it is for a `String` stream.
    private static func record<T: Decodable>(_ data: Data, endpoint: Endpoint, as type: T.Type) throws -> T {
        if T.self == String.self, let text = String(data: data, encoding: .utf8) as? T { return text }
        return try endpoint.decode(type, from: data)
    }
}
