import Foundation

/// A fully resolved HTTP request, as handed to a transport.
public struct HTTPRequest: Sendable, Equatable {
    /// The HTTP method, upper case.
    public var method: String
    /// The absolute URL.
    public var url: URL
    /// Header fields. Never stored by the cache.
    public var headers: [String: String]
    /// The body, if any.
    public var body: Data?

    /// Creates a request.
    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// An HTTP response with any status; transports do not treat 4xx or 5xx as errors.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code.
    public var statusCode: Int
    /// Header fields, names in lower case.
    public private(set) var headers: [String: String]
    /// The body bytes.
    public var body: Data

    /// Creates a response; header names are lower-cased so lookups ignore case.
    public init(statusCode: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.statusCode = statusCode
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    /// The value of a header field, whatever the case of `name`.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

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
