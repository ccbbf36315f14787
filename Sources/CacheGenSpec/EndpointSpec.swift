import CacheGenReading

/// One endpoint of a repository.
public struct EndpointSpec: Sendable, Hashable {
    /// The method name and where it is declared.
    public var name: Named
    /// The HTTP method, upper case (an OpenAPI 3.2 additional operation's as written).
    public var method: String
    /// Whether `method` is one an OpenAPI document names through `additionalOperations`
    /// (`LINK`, `PURGE`), which the validator takes as it is rather than as a typo.
    public var methodIsExtension = false
    /// Where the method is written (or the endpoint, when defaulted).
    public var methodLocation: SourceLocation
    /// The path template.
    public var path: String
    /// Where the path is written.
    public var pathLocation: SourceLocation
    /// Path, query and header parameters, in that order, each in spec order.
    public var parameters: [Parameter]
    /// The request body type, if any, and where it is written.
    public var body: TypeRef?
    /// Where the body type is written.
    public var bodyLocation: SourceLocation?
    /// How the body is sent, with its media type and per-property encodings.
    public var bodyEncoding = BodyEncoding.json
    /// Boolean properties of the body model, by wire name, that the request sets to `true`
    /// whatever the caller gave: `stream` for the event-stream method of an OpenAPI operation
    /// that streams only when asked to.
    public var bodyFlags: [String] = []
    /// The response type; `nil` when the response has no body.
    public var response: TypeRef?
    /// Where the response type is written.
    public var responseLocation: SourceLocation?
    /// Its description, for the doc comment.
    public var description: String?
    /// The cache rule; `nil` when never cached.
    public var cache: EndpointCache?
    /// Endpoints of the same repository whose entries a successful call removes.
    public var invalidates: [Named] = []
    /// How often the request is sent again after a transient failure, as the spec (or, for
    /// a GET, its defaults) says; `nil` when it says nothing.
    public var retry: SpecRetry?
    /// How the next page is found, for endpoints that return lists in pages.
    public var paging: SpecPaging?
    /// The Swift method name when the OpenAPI front stage chose one (the overlay renames it,
    /// or the name is too long or taken); `nil` makes it from `name`.
    public var swiftName: String?
    /// Query items sent with every call, as an OpenAPI path writes them (`/responses?beta=true`).
    public var fixedQuery: [FixedQueryItem] = []
    /// How the response body is read: JSON of `response`, bytes, text, or a stream of
    /// `response` values.
    public var responseFormat: SpecResponseFormat = .json
    /// The media types the response may come in, for `Accept`; `nil` for the format's own.
    public var accept: String?
    /// For a stream that is a long-lived channel (`"channel": true`: the server ends the
    /// response only to make the client connect again), where that is written; `nil` for a
    /// stream that is over when its response ends, the default.
    public var channel: SourceLocation?
    /// `"offline": "queue"`: a call that cannot reach the server waits in the outbox; `nil`
    /// when it fails instead.
    public var offline: SpecOffline?
    /// `"server"`: the absolute URL this endpoint's requests go to instead of the client's
    /// base URL (an upload host), scheme and host lower-case and without a trailing `/`;
    /// `nil` for the client's own.
    public var server: String?

    /// Whether a call returns one value that may be cached: a JSON or multipart response
    /// with a type, bytes or text; never a stream.
    public var returnsValue: Bool {
        switch responseFormat {
        case .json, .multipart: response != nil
        case .data, .text: true
        case .events, .jsonLines, .jsonSequence: false
        }
    }

    /// The memberwise initializer, for the package's other modules.
    package init(
        name: Named, method: String, methodLocation: SourceLocation, path: String, pathLocation: SourceLocation,
        parameters: [Parameter], body: TypeRef? = nil, bodyLocation: SourceLocation? = nil,
        bodyEncoding: BodyEncoding = .json, bodyFlags: [String] = [], response: TypeRef? = nil,
        responseLocation: SourceLocation? = nil, description: String? = nil, cache: EndpointCache? = nil,
        invalidates: [Named] = [], retry: SpecRetry? = nil, paging: SpecPaging? = nil, swiftName: String? = nil,
        fixedQuery: [FixedQueryItem] = [], responseFormat: SpecResponseFormat = .json, accept: String? = nil,
        offline: SpecOffline? = nil
    ) {
        self.bodyEncoding = bodyEncoding
        self.name = name
        self.method = method
        self.methodLocation = methodLocation
        self.path = path
        self.pathLocation = pathLocation
        self.parameters = parameters
        self.body = body
        self.bodyLocation = bodyLocation
        self.bodyFlags = bodyFlags
        self.response = response
        self.responseLocation = responseLocation
        self.description = description
        self.cache = cache
        self.invalidates = invalidates
        self.retry = retry
        self.paging = paging
        self.swiftName = swiftName
        self.fixedQuery = fixedQuery
        self.responseFormat = responseFormat
        self.accept = accept
        self.offline = offline
    }
}

/// An endpoint's cache rule after defaults are applied.
public struct EndpointCache: Sendable, Hashable {
    /// ttl, maxStale, policy and scope.
    public var settings: CacheSettings
    /// The names of the parameters in the key (plus `body`), each with where it is
    /// written; `nil` when the spec leaves the default (all path and query parameters).
    public var key: [Named]?
    /// Where the `cache` value is written (the endpoint's name when defaulted).
    public var location: SourceLocation
    /// How caching was asked for.
    public var origin: Origin

    /// How an endpoint came to be cached.
    public enum Origin: Sendable, Hashable {
        /// No `cache` key: a GET with a response takes the defaults.
        case defaults
        /// `"cache": true`.
        case flag
        /// `"cache": { … }`, the only explicit opt-in for methods other than GET.
        case object
    }

    /// Whether the request body is part of the key.
    public var bodyInKey: Bool { key?.contains { $0.name == "body" } ?? false }

    /// Whether a parameter is part of the key.
    public func contains(_ parameter: Parameter) -> Bool {
        guard let key else { return parameter.place != .header }
        return key.contains { $0.name == parameter.name.name }
    }

    /// The memberwise initializer, for the package's other modules.
    package init(settings: CacheSettings, key: [Named]? = nil, location: SourceLocation, origin: Origin) {
        self.settings = settings
        self.key = key
        self.location = location
        self.origin = origin
    }
}
