import CachedClientHTTP
@_spi(Generated) import CachedClientValues
import Foundation

extension CachedClient {
    /// The events of a streamed endpoint (`format` `.events`, `.jsonLines` or `.jsonSequence`),
    /// each record decoded as `T`; never cached, and sent only when the sequence is iterated.
    ///
    /// The request goes through the middleware like any other, once per connection, with
    /// `Accept` from the endpoint. A status other than 2xx ends the sequence with
    /// `httpStatus`. A Server-Sent Events stream whose server sent an event ID is resumed
    /// with `Last-Event-ID` when it ends or its connection is lost, after the server's
    /// `retry` (or the retry policy's `baseDelay`), up to `maxReconnects` times without a new
    /// event in between; a 204 answer to a resumption ends it. An event whose data is
    /// `[DONE]` (the sentinel OpenAI-style APIs send last) ends the sequence; a `String`
    /// stream yields each record's text as it is, without decoding it as JSON.
    @_spi(Generated)
    public func eventStream<T: Decodable & Sendable>(
        for request: EndpointRequest, endpoint: Endpoint, as type: T.Type = T.self
    ) -> EventStream<T> {
        EventStream {
            AsyncThrowingStream { continuation in
                let task = Task {
                    do {
                        try await self.readEvents(request, endpoint: endpoint, as: type) { continuation.yield($0) }
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
    }

    /// Connects, and connects again while the stream may be resumed, handing on each event.
    private func readEvents<T: Decodable & Sendable>(
        _ request: EndpointRequest, endpoint: Endpoint, as type: T.Type, yield: (StreamEvent<T>) -> Void
    ) async throws {
        let body = try endpoint.encodedBody(of: request)
        var parser = ServerSentEventParser()
        var reconnects = 0
        while true {
            var attempt = request
            if !parser.lastEventID.isEmpty { attempt.addHeader("Last-Event-ID", parser.lastEventID, isKey: false) }
            var progressed = false
            var lost: (any Error)?
            do {
                let http = try await sender.httpRequest(attempt, body: body, validators: nil, accept: endpoint.acceptField)
                let response = try await sender.chain.stream(http, operation: endpoint.name)
                if response.statusCode == 204, reconnects > 0 { return }
                guard (200..<300).contains(response.statusCode) else {
                    let body = try await response.collectedBody()
                    throw CachedClientError.httpStatus(response.statusCode, endpoint: endpoint.name, body: body)
                }
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
                        for record in records.feed(chunk) { yield(StreamEvent(try Self.record(Data(record), endpoint: endpoint, as: type))) }
                    }
                }
                if let record = records.finish(), endpoint.format != .events {
                    yield(StreamEvent(try Self.record(Data(record), endpoint: endpoint, as: type)))
                }
            } catch where endpoint.format == .events && !parser.lastEventID.isEmpty && Self.allowsFallback(error)
                && !Self.isCancellation(error)
            {
                lost = error
            }
            guard endpoint.format == .events, !parser.lastEventID.isEmpty else { return }
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
