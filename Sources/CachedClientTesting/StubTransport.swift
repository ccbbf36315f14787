import CachedClientRuntime
import Foundation

/// A transport that answers from a closure instead of the network, for tests and
/// previews of code that uses generated repositories. It records every request, so a
/// test can check what was sent, and can be switched to failing to act out going offline.
public final class StubTransport: HTTPTransport, @unchecked Sendable {
    /// Answers one request, or throws to act out a transport failure.
    public typealias Responder = @Sendable (HTTPRequest) async throws -> HTTPResponse

    private let lock = NSLock()
    private var responder: Responder
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

    /// Makes later requests fail as if the device were offline.
    public func goOffline() {
        respond { _ in throw URLError(.notConnectedToInternet) }
    }

    /// Records the request and answers it.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let responder = lock.withLock {
            recorded.append(request)
            return self.responder
        }
        return try await responder(request)
    }
}

extension HTTPResponse {
    /// A response whose body is `value` encoded the way the API writes JSON.
    public static func json(
        _ value: some Encodable, status: Int = 200, headers: [String: String] = [:], coding: JSONCoding = JSONCoding()
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
