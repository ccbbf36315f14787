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
