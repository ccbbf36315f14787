import Foundation

/// Sends HTTP requests; the seam for tests and for custom networking stacks.
///
/// Rules every implementation keeps:
/// - Return every response the server sent, whatever its status.
/// - Throw only when no response arrived (offline, timeout, DNS, refused, lost);
///   `CachedClient` treats any thrown error, other than cancellation, as a transport
///   failure that may fall back to the cache.
/// - Honour task cancellation by throwing `CancellationError` or `URLError(.cancelled)`.
public protocol HTTPTransport: Sendable {
    /// Sends one request and returns the server's response.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse

    /// Sends one request and returns as soon as the response's head arrived, its body
    /// following in chunks; event streams (Server-Sent Events, JSON Lines) are read this way.
    ///
    /// The same rules hold, and one more: when the task reading the body is cancelled, or
    /// the body stream is dropped, the connection is closed. The default sends the request
    /// with `send(_:)` and yields the whole body as one chunk, so a transport that cannot
    /// stream still works, only late.
    func stream(_ request: HTTPRequest) async throws -> HTTPStreamedResponse
}

extension HTTPTransport {
    /// Sends the request with `send(_:)` and yields its whole body as one chunk.
    public func stream(_ request: HTTPRequest) async throws -> HTTPStreamedResponse {
        HTTPStreamedResponse(try await send(request))
    }
}
