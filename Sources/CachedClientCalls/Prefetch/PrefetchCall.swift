@_spi(Generated) import CachedClientValues
import Foundation

/// One call of a cached endpoint to fetch ahead (`CachedClient.prefetch(named:_:)`): its
/// request and its endpoint, as a value that can be stored and sent again at a later launch.
///
/// Made from the same repository method a screen calls, without writing a URL:
/// `try await PrefetchCall { try await accounts.getAccount(id: "42") }` runs the method
/// against a live repository without sending anything, and keeps the call it would have made.
/// It never holds credentials: the client's `headers` provider adds them when it is sent.
public struct PrefetchCall: Sendable, Hashable {
    /// What is stored of the call, and what `CachedClient` rebuilds its request and endpoint from.
    package let parts: Parts
    /// `parts` as JSON with sorted keys: what a `PrefetchPlan` stores, and how a call is
    /// recognised as done at a later launch.
    package let encoded: Data

    /// `Repository.method` of the endpoint.
    public var endpoint: String { parts.endpoint }
    /// The resolved path, percent-encoded as sent.
    public var path: String { parts.path }

    /// The call a generated repository makes for `request` and `endpoint`; throws
    /// `PrefetchCallError` for an endpoint that is never cached.
    @_spi(Generated)
    public init(_ request: EndpointRequest, endpoint: Endpoint) throws {
        guard let rule = endpoint.cache else { throw PrefetchCallError.notCached(endpoint: endpoint.name) }
        let body: Data?
        do {
            body = try request.encodedBody(endpoint.coding)
        } catch {
            throw CachedClientError.encodingFailed(endpoint: endpoint.name, reason: String(describing: error))
        }
        try self.init(parts: Parts(request: request, body: body, endpoint: endpoint, rule: rule))
    }

    /// The call that `call` makes through a `CachedClient` (a live repository's method), found
    /// without sending it: the first cached call it starts is kept and ends it.
    ///
    /// Throws `PrefetchCallError` when `call` makes no call through a client (a mock) or its
    /// first call is of an endpoint that is never cached; a mutation is never sent this way.
    public init<T>(_ call: () async throws -> T) async throws {
        let probe = QueryProbe(capturingCalls: true)
        _ = try? await QueryProbe.$current.withValue(probe) { _ = try await call() }
        guard let (request, endpoint) = probe.capturedCall else { throw PrefetchCallError.noCall }
        try self.init(request, endpoint: endpoint)
    }

    /// A call read back from a stored plan; `nil` when the bytes are not one.
    package init?(encoded: Data) {
        guard let parts = try? JSONDecoder().decode(Parts.self, from: encoded) else { return nil }
        // The stored bytes, not encoded again: they are what the plan knows the call by.
        self.parts = parts
        self.encoded = encoded
    }

    private init(parts: Parts) throws {
        self.parts = parts
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoded = try encoder.encode(parts)
    }

    /// Calls are equal when they send the same request to the same endpoint.
    public static func == (a: PrefetchCall, b: PrefetchCall) -> Bool { a.encoded == b.encoded }

    /// Hashes the stored form, which equal calls share.
    public func hash(into hasher: inout Hasher) { hasher.combine(encoded) }

    /// The request and the endpoint, in fields a store can keep.
    package struct Parts: Codable, Hashable, Sendable {
        package struct Parameter: Codable, Hashable, Sendable {
            package var name: String
            package var value: String
            package var isKey: Bool
        }

        package var endpoint: String
        package var ttl: Double
        package var maxStale: Double
        package var policy: String
        package var scope: String
        package var ttlFromServer: Bool
        package var dates: String
        package var shape: String
        package var retries: Int?
        package var nextLinkRelation: String?
        package var format: String
        package var accept: String?
        package var server: String?
        package var method: String
        package var path: String
        package var query: [Parameter]
        package var headers: [Parameter]
        package var body: Data?
        package var contentType: String?
        package var bodyIsKey: Bool

        package init(request: EndpointRequest, body: Data?, endpoint: Endpoint, rule: CacheRule) {
            self.endpoint = endpoint.name
            ttl = rule.ttl
            maxStale = rule.maxStale
            policy = rule.policy.rawValue
            scope = rule.scope.rawValue
            ttlFromServer = rule.ttlFromServer
            dates = endpoint.coding.dates.rawValue
            shape = endpoint.shape
            retries = endpoint.retry?.maxRetries
            nextLinkRelation = endpoint.nextLinkRelation
            format = endpoint.format.rawValue
            accept = endpoint.accept
            server = endpoint.server
            method = request.method
            path = request.path
            query = request.query.map { Parameter(name: $0.name, value: $0.value, isKey: $0.isKey) }
            headers = request.headers.map { Parameter(name: $0.name, value: $0.value, isKey: $0.isKey) }
                .filter { !Self.secretHeaders.contains($0.name.lowercased()) }
            self.body = body
            contentType = body == nil ? nil : request.bodyContentType
            bodyIsKey = request.bodyIsKey
        }

        /// Header names never stored, whatever an endpoint declares.
        private static let secretHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie"]

        /// The endpoint the call was made for; `nil` when a stored value names a policy,
        /// scope, date format or response format this version does not know.
        package var endpointValue: Endpoint? {
            guard let policy = CachePolicy(rawValue: policy), let scope = CacheScope(rawValue: scope),
                let dates = JSONCoding.Dates(rawValue: dates), let format = ResponseFormat(rawValue: format)
            else { return nil }
            return Endpoint(
                name: endpoint,
                cache: CacheRule(ttl: ttl, maxStale: maxStale, policy: policy, scope: scope, ttlFromServer: ttlFromServer),
                coding: JSONCoding(dates: dates), shape: shape, retry: retries.map { RetryRule(max: $0) },
                nextLinkRelation: nextLinkRelation, format: format, accept: accept, server: server)
        }

        /// The request the call was made with.
        package var request: EndpointRequest {
            var request = EndpointRequest(method: method, path: path)
            for item in query { request.appendQuery(RequestParameter(name: item.name, value: item.value, isKey: item.isKey)) }
            for item in headers {
                request.appendHeader(RequestParameter(name: item.name, value: item.value, isKey: item.isKey))
            }
            if let body { request.setDataBody(body, contentType: contentType ?? "application/octet-stream", isKey: bodyIsKey) }
            return request
        }
    }
}
