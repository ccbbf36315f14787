@_spi(Generated) import CachedClientValues

/// What the runtime needs to know about one generated endpoint besides its request.
///
/// Generated code builds one per method from literals; apps rarely build one by hand.
@_spi(Generated)
public struct Endpoint: Sendable, Hashable {
    /// `Repository.method`, as in the spec; names events and `removeAll(endpoint:)`.
    public var name: String
    /// The cache rule, or `nil` for `cache: false` endpoints, whose answers never touch disk.
    public var cache: CacheRule?
    /// How dates are written in this API's JSON.
    public var coding: JSONCoding
    /// A fingerprint of the response type's shape, part of the key so that a changed
    /// model never decodes bytes stored by an older one.
    public var shape: String
    /// How often the request may be sent again after a transient failure, as the spec says;
    /// `nil` when it says nothing (GET follows the client's `RetryPolicy`, other methods
    /// are sent once).
    public var retry: RetryRule?
    /// For an endpoint that pages by `Link` header (RFC 8288), the relation of the link to the
    /// next page (`"next"`); `nil` otherwise. Each answer's `Link` field is then kept in the
    /// store beside the answer, so that the next page is known offline too.
    public var nextLinkRelation: String?
    /// How the response body becomes the value: JSON, bytes, text, or a stream of events.
    public var format: ResponseFormat
    /// The `Accept` field sent with the request; `nil` for the format's own (`application/json`
    /// for JSON).
    public var accept: String?
    /// For a mutation marked `"offline": "queue"`, how it waits for the network; `nil`
    /// otherwise (it fails when the network does).
    public var offline: OfflineRule?
    /// Whether a stream is a long-lived channel (`"channel": true`): the server ends the
    /// response only to make the client connect again, so the client does, as
    /// `RetryPolicy.maxReconnects` allows. `false` (the default): a stream whose response ends
    /// is over.
    public var isChannel: Bool
    /// The server this endpoint's requests go to instead of the client's `baseURL`, for an
    /// operation the API serves elsewhere (an upload host); `nil` for the client's own.
    ///
    /// An absolute URL written as the cache key holds a base: scheme and host lower-case, no
    /// trailing `/` (generated code writes it so). It takes `baseURL`'s place in the request's
    /// URL and in its cache key, so two servers never share an entry.
    public var server: String?

    /// Creates an endpoint description.
    // Inlinable: generated code builds one from literals on every call.
    @inlinable public init(
        name: String, cache: CacheRule?, coding: JSONCoding = JSONCoding(), shape: String = "", retry: RetryRule? = nil,
        nextLinkRelation: String? = nil, format: ResponseFormat = .json, accept: String? = nil,
        offline: OfflineRule? = nil, isChannel: Bool = false, server: String? = nil
    ) {
        self.name = name
        self.cache = cache
        self.coding = coding
        self.shape = shape
        self.retry = retry
        self.nextLinkRelation = nextLinkRelation
        self.format = format
        self.accept = accept
        self.offline = offline
        self.isChannel = isChannel
        self.server = server
    }

    /// The `Accept` field sent with the request.
    package var acceptField: String { accept ?? format.defaultAccept }
}
