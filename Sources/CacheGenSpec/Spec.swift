import CacheGenReading

/// A parsed spec (format version 1): everything the generator knows, in spec order.
///
/// Produced by `SpecParser` from located JSON; every declaration keeps its location so
/// that the validator can point at it.
public struct Spec: Sendable, Hashable {
    /// The spec's file path, as given.
    public var file: String
    /// The format version (1).
    public var version: Int
    /// The server the spec describes, if stated.
    public var baseURL: String?
    /// Defaults for every endpoint and model.
    public var defaults: Defaults
    /// Models in spec order.
    public var models: [Model]
    /// Repositories in spec order.
    public var repositories: [Repository]
    /// Which endpoints to generate (`include` / `exclude`); all by default.
    public var selection = Selection()
    /// Which constructs each endpoint gets besides its method (`generate`); all by default.
    public var constructs = Constructs()

    /// The memberwise initializer, for the package's other modules.
    package init(
        file: String, version: Int, baseURL: String? = nil, defaults: Defaults, models: [Model], repositories: [Repository],
        selection: Selection = Selection(), constructs: Constructs = Constructs()
    ) {
        self.selection = selection
        self.constructs = constructs
        self.file = file
        self.version = version
        self.baseURL = baseURL
        self.defaults = defaults
        self.models = models
        self.repositories = repositories
    }
}

/// The `generate` object: the constructs an app may turn off when it does not use them, so
/// that it does not compile them. Each is on unless set to `false`.
public struct Constructs: Sendable, Hashable {
    /// `…Query` live query factories (and `…PagedQuery` for paged endpoints).
    public var queries = true
    /// `…Stream` methods: the stored value, then the fresh one.
    public var streams = true
    /// `…Pages` sequences of paged endpoints (and their paged queries).
    public var pages = true
    /// Overloads that leave out optional arguments and the policy.
    public var overloads = true

    /// Every construct on.
    public init() {}
}

/// Where something was written, and under which name.
public struct Named: Sendable, Hashable {
    /// The name as written in the spec.
    public var name: String
    /// Where the name's key starts.
    public var location: SourceLocation

    /// The memberwise initializer, for the package's other modules.
    package init(name: String, location: SourceLocation) {
        self.name = name
        self.location = location
    }
}

/// The `defaults` object.
public struct Defaults: Sendable, Hashable {
    /// How property and parameter names relate to JSON names.
    public enum JSONKeys: String, Sendable, Hashable, CaseIterable {
        /// The JSON name is the spec name as written.
        case exact
        /// The JSON name is the spec name in snake_case (`openedAt` → `opened_at`).
        case snakeCase = "snake_case"
    }

    /// Cache settings an endpoint's `cache` starts from.
    public var cache: CacheSettings
    /// How JSON names are formed.
    public var jsonKeys: JSONKeys
    /// How dates are written on the wire.
    public var dates: DateFormat
    /// The retry rule of GET endpoints that state none; `nil` leaves it to the client's `RetryPolicy`.
    public var retry: SpecRetry?
    /// The header field of the idempotency key of `"offline": "queue"` endpoints.
    public var idempotencyHeader = SpecParser.standardIdempotencyHeader

    /// The defaults of a spec that states none.
    public static let standard = Defaults(cache: .standard, jsonKeys: .exact, dates: .iso8601)

    /// The memberwise initializer, for the package's other modules.
    package init(
        cache: CacheSettings, jsonKeys: JSONKeys, dates: DateFormat, retry: SpecRetry? = nil,
        idempotencyHeader: String = SpecParser.standardIdempotencyHeader
    ) {
        self.idempotencyHeader = idempotencyHeader
        self.cache = cache
        self.jsonKeys = jsonKeys
        self.dates = dates
        self.retry = retry
    }
}

/// How dates are written on the wire.
public enum DateFormat: String, Sendable, Hashable, CaseIterable {
    /// ISO 8601, with or without fractional seconds.
    case iso8601
    /// Seconds since 1970, as a number.
    case secondsSince1970
    /// Milliseconds since 1970, as a number.
    case millisecondsSince1970
}

/// The cache policies a spec can name.
public enum SpecPolicy: String, Sendable, Hashable, CaseIterable {
    /// Network, then cache on failure.
    case networkFirst
    /// Cache within ttl, then network.
    case cacheFirst
    /// Cache at once, refresh in the background.
    case staleWhileRevalidate
    /// Cache or an error.
    case cacheOnly
    /// Network only, still stored.
    case networkOnly
}

/// Whose entries an endpoint's answers are.
public enum SpecScope: String, Sendable, Hashable, CaseIterable {
    /// The current partition's (user's).
    case user
    /// Everybody's.
    case shared
}

/// Cache settings after defaults are applied.
public struct CacheSettings: Sendable, Hashable {
    /// Fresh for this many seconds (the fallback when `ttlFromServer` is set).
    public var ttl: Int
    /// `ttl: "server"`: freshness comes from the response's `Cache-Control`, `Expires`
    /// and `Age`, falling back to `ttl` when the server says nothing.
    public var ttlFromServer = false
    /// Never shown when older than this many seconds.
    public var maxStale: Int
    /// The policy when a call names none.
    public var policy: SpecPolicy
    /// Whose entries these are.
    public var scope: SpecScope

    /// 5 minutes fresh, shown up to 7 days, networkFirst, per user.
    public static let standard = CacheSettings(ttl: 300, maxStale: 7 * 86_400, policy: .networkFirst, scope: .user)
}

/// A type as written in the spec: `string`, `[Account]`, `[string: double]`, `Account?`.
public indirect enum TypeRef: Sendable, Hashable, CustomStringConvertible {
    /// A built-in scalar.
    case scalar(Scalar)
    /// A model declared in the spec.
    case model(String)
    /// `[T]`.
    case array(TypeRef)
    /// `[string: T]`.
    case dictionary(TypeRef)
    /// `T?`.
    case optional(TypeRef)

    /// The built-in scalar types.
    public enum Scalar: String, Sendable, Hashable, CaseIterable {
        /// `String`.
        case string
        /// `Int`.
        case int
        /// `Double`.
        case double
        /// `Bool`.
        case bool
        /// `Date`, coded per `defaults.dates`.
        case date
        /// `URL`.
        case url
        /// `UUID`.
        case uuid
        /// `JSONValue`: any JSON, kept as the server sent it.
        case json
        /// `Data`: the bytes of a `binary` request body (base64 in JSON).
        case data
        /// `MultipartFile`: a file with its name and media type, for a `multipart` body.
        case file
    }

    /// The spec spelling, for messages.
    public var description: String {
        switch self {
        case .scalar(let scalar): scalar.rawValue
        case .model(let name): name
        case .array(let element): "[\(element)]"
        case .dictionary(let value): "[string: \(value)]"
        case .optional(let wrapped): "\(wrapped)?"
        }
    }

    /// Whether the type is `T?`.
    public var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }

    /// The type without its outer `?`.
    public var unwrapped: TypeRef {
        if case .optional(let wrapped) = self { return wrapped }
        return self
    }
}

/// A model: an object with properties, or a string enum.
public struct Model: Sendable, Hashable {
    /// The model's name and where it is declared.
    public var name: Named
    /// Its description, for the doc comment.
    public var description: String?
    /// Properties or enum values.
    public var kind: Kind
    /// For an object, the keys other than its properties, when they are kept.
    public var additionalProperties: AdditionalProperties? = nil
    /// For an object, the property that identifies it (`"identity": "id"`, OpenAPI's
    /// `x-cachegen-identity`), with where it is named: the runtime then replaces it by that
    /// value in every cached value that holds it.
    public var identity: Named? = nil

    /// What a model is.
    public enum Kind: Sendable, Hashable {
        /// A struct.
        case object([Property])
        /// A string enum.
        case enumeration([EnumValue])
        /// One of several object models, told apart by a property's value (an OpenAPI
        /// `oneOf`/`anyOf` with a `discriminator`): an enum with a payload per model.
        case taggedUnion(TaggedUnion)
        /// One of several types with nothing on the wire to say which (an OpenAPI
        /// `oneOf`/`anyOf` without a `discriminator`): an enum with a case per type, the
        /// first that decodes winning, and a case that keeps any other value as JSON.
        case untaggedUnion([UntaggedUnionCase])
    }

    /// The memberwise initializer, for the package's other modules.
    package init(
        name: Named, description: String? = nil, kind: Kind, additionalProperties: AdditionalProperties? = nil,
        identity: Named? = nil
    ) {
        self.name = name
        self.description = description
        self.kind = kind
        self.additionalProperties = additionalProperties
        self.identity = identity
    }
}

/// One choice of an untagged union: a case name and the type it decodes as.
public struct UntaggedUnionCase: Sendable, Hashable {
    /// The case's spec name, a lowerCamelCase identifier.
    public var name: String
    /// The type the value decodes as.
    public var type: TypeRef
    /// Where the choice is written.
    public var location: SourceLocation

    /// The memberwise initializer, for the package's other modules.
    package init(name: String, type: TypeRef, location: SourceLocation) {
        self.name = name
        self.type = type
        self.location = location
    }
}

/// A choice between models that one JSON property names, such as `"kind": "walk"`.
public struct TaggedUnion: Sendable, Hashable {
    /// The JSON name of the property whose value says which model follows.
    public var propertyName: String
    /// The choices, in document order.
    public var cases: [Case]

    /// One choice: the property's value and the model the rest of the object decodes as.
    public struct Case: Sendable, Hashable {
        /// The property's value on the wire.
        public var value: String
        /// The model the object decodes as.
        public var model: String
        /// Where the choice is written.
        public var location: SourceLocation

        /// The memberwise initializer, for the package's other modules.
        package init(value: String, model: String, location: SourceLocation) {
            self.value = value
            self.model = model
            self.location = location
        }
    }

    /// The memberwise initializer, for the package's other modules.
    package init(propertyName: String, cases: [Case]) {
        self.propertyName = propertyName
        self.cases = cases
    }
}

/// One property of an object model.
public struct Property: Sendable, Hashable {
    /// The spec name and where it is.
    public var name: Named
    /// The type.
    public var type: TypeRef
    /// Where the type is written.
    public var typeLocation: SourceLocation
    /// Its description, for the doc comment.
    public var description: String?
    /// The JSON name, after `json` and `defaults.jsonKeys`.
    public var wireName: String

    /// The memberwise initializer, for the package's other modules.
    package init(name: Named, type: TypeRef, typeLocation: SourceLocation, description: String? = nil, wireName: String) {
        self.name = name
        self.type = type
        self.typeLocation = typeLocation
        self.description = description
        self.wireName = wireName
    }
}

/// One value of an enum model.
public struct EnumValue: Sendable, Hashable {
    /// The raw value as sent on the wire.
    public var value: String
    /// Where it is written.
    public var location: SourceLocation
    /// The Swift case name when the OpenAPI front stage chose one (the value has no letter or
    /// digit, or another value's case name took it); `nil` makes it from `value`.
    public var swiftName: String? = nil

    /// The memberwise initializer, for the package's other modules.
    package init(value: String, location: SourceLocation, swiftName: String? = nil) {
        self.value = value
        self.location = location
        self.swiftName = swiftName
    }
}

/// A repository: a group of endpoints that becomes a protocol and its implementations.
public struct Repository: Sendable, Hashable {
    /// The name and where it is declared.
    public var name: Named
    /// Its description, for the doc comment.
    public var description: String?
    /// Endpoints in spec order.
    public var endpoints: [EndpointSpec]

    /// The memberwise initializer, for the package's other modules.
    package init(name: Named, description: String? = nil, endpoints: [EndpointSpec]) {
        self.name = name
        self.description = description
        self.endpoints = endpoints
    }
}

/// Where a request parameter goes.
public enum ParameterPlace: String, Sendable, Hashable {
    /// A `{name}` segment of the path.
    case path
    /// A query item.
    case query
    /// A request header.
    case header
}

/// A path, query or header parameter.
public struct Parameter: Sendable, Hashable {
    /// The wire name and where it is declared.
    public var name: Named
    /// Where it goes.
    public var place: ParameterPlace
    /// Its type.
    public var type: TypeRef
    /// Where the type is written.
    public var typeLocation: SourceLocation
    /// The Swift argument name when the OpenAPI front stage chose one (the wire name has no
    /// letter or digit, or another parameter's name took it); `nil` makes it from `name`.
    public var swiftName: String?
    /// How an OpenAPI document asks the value to be written, where that differs from
    /// cachegen's own way (query arrays comma-separated, path values as they are).
    public var style: ParameterStyle?

    /// The memberwise initializer, for the package's other modules.
    package init(name: Named, place: ParameterPlace, type: TypeRef, typeLocation: SourceLocation, swiftName: String? = nil, style: ParameterStyle? = nil) {
        self.name = name
        self.place = place
        self.type = type
        self.typeLocation = typeLocation
        self.swiftName = swiftName
        self.style = style
    }
}

/// One endpoint of a repository.
public struct EndpointSpec: Sendable, Hashable {
    /// The method name and where it is declared.
    public var name: Named
    /// The HTTP method, upper case.
    public var method: String
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
    /// `"offline": "queue"`: a call that cannot reach the server waits in the outbox; `nil`
    /// when it fails instead.
    public var offline: SpecOffline?

    /// Whether a call returns one value that may be cached: a JSON response with a type,
    /// bytes or text; never a stream.
    public var returnsValue: Bool {
        switch responseFormat {
        case .json: response != nil
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
