@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// Sees, and may change, every request a client sends and every response it receives: the
/// home for authentication, logging, tracing and metrics.
///
/// A client calls its middleware in the order given: the first one receives the request
/// first and the response last, and each one calls `next` to hand the request on (to the
/// following middleware, and finally to the transport). A middleware may change the request
/// before calling `next`, change the response after it, call `next` more than once (to
/// retry, as `Authenticator` does on a 401), or not at all (to answer by itself). This is
/// the contract of swift-openapi-runtime's `ClientMiddleware`, so existing ones port with
/// a few lines.
///
/// What a middleware sees is never stored: the cache keeps response bodies and their
/// freshness headers only, and keys are built before the middleware runs, so a header one
/// adds (a token) never reaches the store, a key or an event. The client's retries run
/// outside the middleware: each attempt passes through all of it again.
///
/// ```swift
/// struct Logging: ClientMiddleware {
///     func intercept(
///         _ request: HTTPRequest, operation: String,
///         next: @Sendable (HTTPRequest) async throws -> HTTPResponse
///     ) async throws -> HTTPResponse {
///         let response = try await next(request)
///         print(operation, request.method, response.statusCode)
///         return response
///     }
/// }
/// ```
public protocol ClientMiddleware: Sendable {
    /// Handles one request: change it, call `next` (or not), change the response.
    ///
    /// - Parameters:
    ///   - request: the request as the previous middleware passed it on.
    ///   - operation: the endpoint's name as in the spec (`Repository.method`).
    ///   - next: hands the request on; throws what the transport throws.
    func intercept(
        _ request: HTTPRequest, operation: String,
        next: @Sendable (HTTPRequest) async throws -> HTTPResponse
    ) async throws -> HTTPResponse
}

/// The middleware chain ending in a transport, built once per client.
package struct MiddlewareChain: Sendable {
    package let middleware: [any ClientMiddleware]
    package let transport: any HTTPTransport

    /// Sends `request` through every middleware in order, then the transport.
    package func send(_ request: HTTPRequest, operation: String) async throws -> HTTPResponse {
        try await send(request, operation: operation, from: 0)
    }

    /// Sends `request` through every middleware in order, then opens it as a stream on the
    /// transport. The middleware see the response's status and header fields with an empty
    /// body (the events follow it); one that answers by itself answers with its body.
    package func stream(_ request: HTTPRequest, operation: String) async throws -> HTTPStreamedResponse {
        let opened = Locked<HTTPStreamedResponse?>(nil)
        let head = try await send(request, operation: operation, from: 0) { request in
            let streamed = try await transport.stream(request)
            opened.withLock { $0 = streamed }
            return HTTPResponse(statusCode: streamed.statusCode, headers: streamed.headers)
        }
        guard let streamed = opened.withLock({ $0 }), head.body.isEmpty else { return HTTPStreamedResponse(head) }
        return HTTPStreamedResponse(statusCode: head.statusCode, headers: head.headers, body: streamed.body)
    }

    private func send(
        _ request: HTTPRequest, operation: String, from index: Int,
        last: (@Sendable (HTTPRequest) async throws -> HTTPResponse)? = nil
    ) async throws -> HTTPResponse {
        guard index < middleware.count else {
            if let last { return try await last(request) }
            return try await transport.send(request)
        }
        return try await middleware[index].intercept(request, operation: operation) { request in
            try await self.send(request, operation: operation, from: index + 1, last: last)
        }
    }

    /// The memberwise initializer, for the package's other modules.
    package init(middleware: [any ClientMiddleware], transport: any HTTPTransport) {
        self.middleware = middleware
        self.transport = transport
    }
}
