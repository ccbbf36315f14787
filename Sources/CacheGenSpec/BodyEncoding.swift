import CacheGenReading

/// How an endpoint's request body is written on the wire.
public struct BodyEncoding: Sendable, Hashable {
    /// The kinds of body.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The type as JSON.
        case json
        /// A model as `application/x-www-form-urlencoded` fields.
        case form
        /// A model as `multipart/form-data` parts.
        case multipart
        /// `data` sent as it is.
        case binary
        /// `string` sent as UTF-8 text.
        case text
    }

    /// How one property of a form or multipart body is written (OpenAPI's `encoding`).
    public struct Field: Sendable, Hashable {
        /// The property's wire name and where it is written.
        public var name: Named
        /// `form`, `spaceDelimited`, `pipeDelimited` or `deepObject`; `nil` for the default.
        public var style: Style?
        /// Whether arrays repeat the name; `nil` for the default.
        public var explode: Bool?
        /// The value's media type; `nil` for the default.
        public var contentType: String?

        /// A property's encoding; the defaults unless given.
        public init(name: Named, style: Style? = nil, explode: Bool? = nil, contentType: String? = nil) {
            self.name = name
            self.style = style
            self.explode = explode
            self.contentType = contentType
        }
    }

    /// The styles a form property may have, as OpenAPI names them.
    public enum Style: String, Sendable, Hashable, CaseIterable {
        /// `a=1&a=2` (exploded) or `a=1,2`; an object's pairs as fields of their own.
        case form
        /// `a=1 2`.
        case spaceDelimited
        /// `a=1|2`.
        case pipeDelimited
        /// `a[key]=value`, as deep as the value goes.
        case deepObject
    }

    /// The kind of body.
    public var kind: Kind
    /// The media type sent, when it is not the kind's own; `nil` for the kind's default.
    public var contentType: String?
    /// Where `contentType` is written.
    public var contentTypeLocation: SourceLocation?
    /// Whether the caller names the media type sent, for bytes or text the document accepts
    /// in a range of types (`image/*`, `*/*`): the method takes a `contentType` argument,
    /// and `mediaType` is what it sends without one.
    public var callerContentType = false
    /// Property encodings, for form and multipart bodies.
    public var fields: [Field] = []

    /// The kind's media type (`application/json`, `application/x-www-form-urlencoded`, …)
    /// unless another is given.
    public var mediaType: String {
        if let contentType { return contentType }
        switch kind {
        case .json: return "application/json"
        case .form: return "application/x-www-form-urlencoded"
        case .multipart: return "multipart/form-data"
        case .binary: return "application/octet-stream"
        case .text: return "text/plain"
        }
    }

    /// An encoding of this kind, with the kind's media type unless another is given.
    public init(kind: Kind, contentType: String? = nil, fields: [Field] = []) {
        self.kind = kind
        self.contentType = contentType
        self.fields = fields
    }

    /// A JSON body, as a plain `"body": "T"` says.
    public static let json = BodyEncoding(kind: .json)
}
