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
}
