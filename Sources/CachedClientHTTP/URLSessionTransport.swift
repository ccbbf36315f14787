import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default transport, so that generated clients work with no networking code of
/// the app's own; any `URLSession` can be passed in for custom TLS, proxies or delegates.
///
/// Every request is sent with `.reloadIgnoringLocalCacheData`, so a `URLCache` in the
/// session can never answer in place of the server: `CachedClient` alone decides what
/// is cached, and `.fresh` always means the network answered.
public struct URLSessionTransport: HTTPTransport {
    /// The session requests go through.
    public let session: URLSession
    /// Seconds a request may wait for data before it fails as a transport error;
    /// `nil` keeps the session's own `timeoutIntervalForRequest`.
    public let timeout: TimeInterval?

    /// A session that keeps nothing on disk (no `URLCache`, credentials in memory only),
    /// because the cache's rule is that responses reach disk only through a `CacheStore`,
    /// and never for `cache: false` endpoints.
    ///
    /// It keeps no cookies either: this session is shared by every client in the process,
    /// so a jar would send one user's `Set-Cookie` with the next user's requests after a
    /// partition switch, and it would replace the `Cookie` header an app sets. Send cookies
    /// through the client's `headers` provider, or pass a session of your own.
    public static let defaultSession: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        return URLSession(configuration: configuration)
    }()

    /// Creates a transport; the default session stores nothing on disk (see `defaultSession`).
    public init(session: URLSession = URLSessionTransport.defaultSession, timeout: TimeInterval? = nil) {
        self.session = session
        self.timeout = timeout
    }

    /// Sends the request and returns the response whatever its status; throws the
    /// session's `URLError` only when no response arrived, and `CancellationError` at once
    /// when the calling task is cancelled, whatever the session is doing then.
    ///
    /// A data task with a completion handler, not `session.data(for:)`: on Linux that one can
    /// deadlock when its task is cancelled while the response is being handled
    /// (swift-corelibs-foundation #5412; `DataTaskCall` says how this path avoids it).
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let call = DataTaskCall()
        let urlRequest = urlRequest(for: request)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                call.start(answering: continuation) {
                    session.dataTask(with: urlRequest) { data, response, error in
                        call.complete(data: data, response: response, error: error)
                    }
                }
            }
        } onCancel: {
            call.cancel()
        }
    }

    /// The `URLRequest` for `request`, never answered from a `URLCache`.
    package func urlRequest(for request: HTTPRequest) -> URLRequest {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        if let timeout { urlRequest.timeoutInterval = timeout }
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        urlRequest.httpBody = request.body
        return urlRequest
    }

    /// A response's header fields as text.
    package static func headers(of response: HTTPURLResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            guard let name = name as? String else { continue }
            headers[name] = value as? String ?? String(describing: value)
        }
        return headers
    }
}
