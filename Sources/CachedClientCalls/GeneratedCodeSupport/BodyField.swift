/// How one property of a form or multipart request body is written, when the document
/// says more than the defaults (OpenAPI's `encoding`).
@_spi(Generated)
public struct BodyField: Sendable, Hashable {
    /// How an array or object property of a form body is laid out.
    public enum Style: String, Sendable, Hashable {
        /// `a=1&a=2` exploded, `a=1,2` not; objects as `k=v` pairs (exploded) or `a=k,v`.
        case form
        /// `a=1%202` (arrays only, never exploded).
        case spaceDelimited
        /// `a=1|2` (arrays only, never exploded).
        case pipeDelimited
        /// `a[k]=v`, nested as deep as the value: the default for objects.
        case deepObject
    }

    /// The property's wire name.
    public var name: String
    /// Its style; `nil` for the default (`form` for arrays, `deepObject` for objects).
    public var style: Style?
    /// Whether arrays repeat the name (`a=1&a=2`); `nil` for the default (`true` for `form`).
    public var explode: Bool?
    /// The media type of its value: `application/json` writes it as JSON; in a multipart
    /// body, the part's `Content-Type`.
    public var contentType: String?

    /// Creates a property's encoding.
    public init(_ name: String, style: Style? = nil, explode: Bool? = nil, contentType: String? = nil) {
        self.name = name
        self.style = style
        self.explode = explode
        self.contentType = contentType
    }
}
