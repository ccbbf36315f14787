import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import CachedClientHTTP
import CachedClientStore
@_spi(Generated) import CachedClientValues

/// Builds the HTTP request for an endpoint call and sends it: the one place where the URL
/// is joined and headers are assembled.
package struct RequestSender: Sendable {
    /// The root every request path is appended to.
    package let baseURL: URL
    /// The client's middleware, ending in its transport.
    package let chain: MiddlewareChain
    /// Asked on every request, so an expiring token is always current; never stored.
    package let headers: @Sendable () async throws -> [String: String]
    /// How transient failures are retried.
    package let retry: RetryPolicy
    /// Hosts that asked (429 with `Retry-After`) to be left alone for a while.
    package let hostBackoff = HostBackoff()

    package init(
        baseURL: URL, transport: any HTTPTransport, headers: @escaping @Sendable () async throws -> [String: String],
        middleware: [any ClientMiddleware] = [], retry: RetryPolicy = .standard
    ) {
        self.baseURL = baseURL
        self.chain = MiddlewareChain(middleware: middleware, transport: transport)
        self.headers = headers
        self.retry = retry
    }

    /// Sends `request` with `body`; with `validators`, asks the server to confirm that entry
    /// (`If-None-Match`, `If-Modified-Since`).
    ///
    /// Headers, later ones winning whatever their case: `Accept` (`accept`), `Content-Type`
    /// for a body, the validators, the app's `headers` provider, then the endpoint's declared
    /// headers. One attempt, through the middleware; `operation` names the endpoint for them.
    /// `server`, when given, replaces `baseURL` (an endpoint served elsewhere).
    package func send(
        _ request: EndpointRequest, body: Data?, validators: CacheEntry?, operation: String = "",
        accept: String = "application/json", server: String? = nil
    ) async throws -> HTTPResponse {
        let http = try await httpRequest(request, body: body, validators: validators, accept: accept, server: server)
        return try await chain.send(http, operation: operation)
    }

    /// The HTTP request for `request`, with its headers as `send` describes them, sent to
    /// `server` when given and to `baseURL` otherwise.
    package func httpRequest(
        _ request: EndpointRequest, body: Data?, validators: CacheEntry?, accept: String, server: String? = nil
    ) async throws -> HTTPRequest {
        var fields = HeaderFields()
        fields.set("Accept", accept)
        if body != nil { fields.set("Content-Type", request.bodyContentType) }
        if let validators {
            if let etag = validators.etag { fields.set("If-None-Match", etag) }
            if let lastModified = validators.lastModified { fields.set("If-Modified-Since", lastModified) }
        }
        for (name, value) in try await headers().sorted(by: { $0.key < $1.key }) {
            fields.set(name, value)
        }
        for header in request.headers {
            fields.set(header.name, header.value)
        }
        let url = try url(for: request, server: server)
        return HTTPRequest(method: request.method.uppercased(), url: url, headers: fields.fields, body: body)
    }

    /// `baseURL` (or the endpoint's own `server`) + path (+ `?` + query); joined as text so a
    /// base path like `/v1` is kept.
    package func url(for request: EndpointRequest, server: String? = nil) throws -> URL {
        var text = server ?? baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        if !request.path.hasPrefix("/") { text += "/" }
        text += request.path
        let query = request.encodedQuery
        if !query.isEmpty { text += "?" + query }
        guard let url = URL(string: text) else { throw CachedClientError.invalidURL(text) }
        return url
    }
}

/// Header fields merged case-insensitively: a later value replaces an earlier one of the
/// same name whatever its case.
private struct HeaderFields {
    package private(set) var fields: [String: String] = [:]

    package mutating func set(_ name: String, _ value: String) {
        for existing in fields.keys where existing.caseInsensitiveCompare(name) == .orderedSame {
            fields[existing] = nil
        }
        fields[name] = value
    }
}
