@_spi(Generated) import CachedClientRuntime
import Foundation

/// A transport that answers from a closure instead of the network, for tests and
/// previews of code that uses generated repositories. It records every request, so a
/// test can check what was sent, and can be switched to failing to act out going offline.
public final class StubTransport: HTTPTransport, @unchecked Sendable {
    /// Answers one request, or throws to act out a transport failure.
    public typealias Responder = @Sendable (HTTPRequest) async throws -> HTTPResponse
    /// Answers one streamed request (an event stream), or throws.
    public typealias StreamResponder = @Sendable (HTTPRequest) async throws -> HTTPStreamedResponse

    private let lock = NSLock()
    private var responder: Responder
    private var streamResponder: StreamResponder?
    private var recorded: [HTTPRequest] = []

    /// Creates a transport that answers with `responder`.
    public init(_ responder: @escaping Responder) {
        self.responder = responder
    }

    /// Creates a transport that answers every request with one response.
    public convenience init(response: HTTPResponse) {
        self.init { _ in response }
    }

    /// Every request sent so far, oldest first.
    public var requests: [HTTPRequest] { lock.withLock { recorded } }

    /// Changes how later requests are answered.
    public func respond(_ responder: @escaping Responder) {
        lock.withLock { self.responder = responder }
    }

    /// Answers later streamed requests (event streams) with `responder`; until one is set,
    /// a stream gets the body `respond`'s responder answers, as one chunk.
    public func respondStreaming(_ responder: @escaping StreamResponder) {
        lock.withLock { streamResponder = responder }
    }

    /// Makes later requests fail as if the device were offline, streamed ones included.
    public func goOffline() {
        respond { _ in throw URLError(.notConnectedToInternet) }
        respondStreaming { _ in throw URLError(.notConnectedToInternet) }
    }

    /// Records the request and answers it.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let responder = lock.withLock {
            recorded.append(request)
            return self.responder
        }
        return try await responder(request)
    }

    /// Records the request and answers it as a stream.
    public func stream(_ request: HTTPRequest) async throws -> HTTPStreamedResponse {
        let (responder, streamResponder) = lock.withLock {
            recorded.append(request)
            return (self.responder, self.streamResponder)
        }
        if let streamResponder { return try await streamResponder(request) }
        return HTTPStreamedResponse(try await responder(request))
    }
}

extension HTTPStreamedResponse {
    /// A response whose body arrives as `chunks`, one at a time, then ends: an event
    /// stream as a server sends it (`text/event-stream` unless `headers` say otherwise).
    public static func chunks(
        _ chunks: [String], status: Int = 200, headers: [String: String] = ["Content-Type": "text/event-stream"]
    ) -> HTTPStreamedResponse {
        HTTPStreamedResponse(
            statusCode: status, headers: headers,
            body: AsyncThrowingStream { continuation in
                for chunk in chunks { continuation.yield(Data(chunk.utf8)) }
                continuation.finish()
            })
    }
}

extension HTTPResponse {
    /// A response whose body is `value` encoded as JSON, dates in ISO 8601.
    public static func json(_ value: some Encodable, status: Int = 200, headers: [String: String] = [:]) throws -> HTTPResponse {
        try json(value, status: status, headers: headers, coding: JSONCoding())
    }

    /// A response whose body is `value` encoded the way the API writes JSON.
    @_spi(Generated)
    public static func json(
        _ value: some Encodable, status: Int = 200, headers: [String: String] = [:], coding: JSONCoding
    ) throws -> HTTPResponse {
        var headers = headers
        headers["Content-Type"] = headers["Content-Type"] ?? "application/json"
        return HTTPResponse(statusCode: status, headers: headers, body: try coding.makeEncoder().encode(value))
    }

    /// A response whose body is the given JSON text.
    public static func json(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(statusCode: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
    }
}
