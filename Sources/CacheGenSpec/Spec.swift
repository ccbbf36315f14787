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
