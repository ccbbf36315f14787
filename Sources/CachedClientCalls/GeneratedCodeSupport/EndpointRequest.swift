@_spi(Generated) import CachedClientValues
import Foundation

/// The request a generated method describes: method, path, parameters and body.
///
/// It says nothing about the base URL, authentication or caching; `CachedClient` adds
/// those, so that a request value is cheap to build and safe to log.
@_spi(Generated)
public struct EndpointRequest: Sendable {
    /// The HTTP method, upper case.
    public var method: String
    /// The path with every `{name}` replaced by its percent-encoded value.
    public private(set) var path: String
    /// Query items in call order.
    public private(set) var query: [RequestParameter] = []
    /// Declared request headers in call order. Never written to disk.
    public private(set) var headers: [RequestParameter] = []
    /// Whether the encoded body is part of the cache key (as a digest).
    public private(set) var bodyIsKey = false
    /// Writes the body with the endpoint's coding and a multipart boundary.
    private var bodyEncoder: (@Sendable (JSONCoding, String) throws -> Data)?
    /// The body's media type without the boundary; JSON unless set otherwise.
    private var bodyMediaType = "application/json"
    /// The multipart boundary of this request, chosen when its body is set.
    private var boundary: String?
    /// Why a parameter could not be written as JSON text (`EndpointRequest+JSONParameters`),
    /// thrown when the request is sent, as a body that cannot be encoded is.
    package var parameterFailure: String?

    /// Creates a request for a path template such as `/accounts/{id}`.
    public init(method: String, path: String) {
        self.method = method
        self.path = path
    }

    /// Whether a body is attached.
    public var hasBody: Bool { bodyEncoder != nil }

    /// The path its entries are grouped under for removals (`CacheKey.path`): `path`, but for
    /// a followed link's pages, which are grouped with the first page, so that an
    /// `Invalidation` of that resource removes them all, wherever the links point.
    package var groupPath: String { firstPagePath ?? path }
    /// The first page's path, for a request made by following a link.
    private var firstPagePath: String?

    /// This request sent to another path and query, as a next page's link names them: the
    /// method and the declared headers kept, every query item part of the key, and its entries
    /// grouped under the first page's path.
    package func following(path: String, query: [RequestParameter]) -> EndpointRequest {
        var request = EndpointRequest(method: method, path: path)
        request.query = query
        request.headers = headers
        request.firstPagePath = groupPath
        return request
    }

    /// Replaces `{name}` in the path with the value percent-encoded as exactly one segment
    /// (`/` as `%2F`, a whole `.` or `..` as `%2E` / `%2E%2E`), so that no value can make the
    /// request, or its cache key, reach another resource.
    public mutating func setPathParameter(_ name: String, _ value: some RequestParameterValue) {
        path = Self.replacingPlaceholder(
            name, with: PercentEncoding.encodePathSegment(value.requestParameterText), in: path)
    }

    /// Replaces `{name}` in the path with the percent-encoded raw value of an enum.
    public mutating func setPathParameter<E: RawRepresentable & Sendable>(_ name: String, _ value: E)
    where E.RawValue == String {
        setPathParameter(name, value.rawValue)
    }

    // The generic `add…` methods are inlinable so that generated code, which calls them for
    // every request, gets them specialised for its types: unspecialised, each call looked up
    // the metadata of `Optional<Value>` at run time, a good part of building a request.

    /// Adds a query item; a `nil` value is left out of the URL and the key.
    @inlinable
    public mutating func addQuery(_ name: String, _ value: (some RequestParameterValue)?, isKey: Bool) {
        guard let value else { return }
        appendQuery(RequestParameter(name: name, value: value.requestParameterText, isKey: isKey))
    }

    /// Adds a query item holding an enum's raw value; `nil` is left out.
    @inlinable
    public mutating func addQuery<E: RawRepresentable & Sendable>(_ name: String, _ value: E?, isKey: Bool)
    where E.RawValue == String {
        addQuery(name, value?.rawValue, isKey: isKey)
    }

    /// How an array query parameter is written, as an OpenAPI document's `style` and
    /// `explode` say.
    public enum QueryArrayStyle: Sendable {
        /// One item per value, `tags=a&tags=b` (`form`, exploded: OpenAPI's default).
        case repeated
        /// One item, the values joined by commas, `tags=a,b` (`form`, not exploded).
        case commaSeparated
        /// One item, the values joined by spaces, `tags=a%20b` (`spaceDelimited`).
        case spaceDelimited
        /// One item, the values joined by `|`, `tags=a%7Cb` (`pipeDelimited`).
        case pipeDelimited
    }

    /// Adds an array query parameter written in `style`; `nil` is left out of the URL and the key.
    @inlinable
    public mutating func addQuery<Element: RequestParameterValue>(
        _ name: String, _ values: [Element]?, style: QueryArrayStyle, isKey: Bool
    ) {
        guard let values else { return }
        let separator: String
        switch style {
        case .repeated:
            for value in values { appendQuery(RequestParameter(name: name, value: value.requestParameterText, isKey: isKey)) }
            return
        case .commaSeparated: separator = ","
        case .spaceDelimited: separator = " "
        case .pipeDelimited: separator = "|"
        }
        let text = values.map(\.requestParameterText).joined(separator: separator)
        appendQuery(RequestParameter(name: name, value: text, isKey: isKey))
    }

    /// How a dictionary query parameter is written, as an OpenAPI document's `style` says.
    public enum QueryObjectStyle: Sendable {
        /// One item per entry, `key=value` (`form`, exploded: OpenAPI's default).
        case form
        /// One item per entry, `name[key]=value` (`deepObject`).
        case deepObject
    }

    /// Adds a dictionary query parameter, one item per entry in the order of the keys, written
    /// in `style`; `nil` is left out of the URL and the key.
    @inlinable
    public mutating func addQuery<Value: RequestParameterValue>(
        _ name: String, _ values: [String: Value]?, style: QueryObjectStyle, isKey: Bool
    ) {
        guard let values else { return }
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            let item: String
            switch style {
            case .form: item = key
            case .deepObject: item = name + "[" + key + "]"
            }
            appendQuery(RequestParameter(name: item, value: value.requestParameterText, isKey: isKey))
        }
    }

    /// How a path parameter is written in its segment, as an OpenAPI document's `style` says
    /// (`simple`, the default, is `setPathParameter(_:_:)`).
    public enum PathStyle: Sendable {
        /// `.value` (`label`).
        case label
        /// `;name=value` (`matrix`).
        case matrix
    }

    /// Replaces `{name}` in the path with the value percent-encoded as one segment, written in `style`.
    public mutating func setPathParameter(_ name: String, _ value: some RequestParameterValue, style: PathStyle) {
        let encoded = PercentEncoding.encodePathSegment(value.requestParameterText)
        let written: String
        switch style {
        case .label: written = "." + encoded
        case .matrix: written = ";" + PercentEncoding.encodePathSegment(name) + "=" + encoded
        }
        path = Self.replacingPlaceholder(name, with: written, in: path)
    }

    /// Replaces `{name}` in the path with `text`, already percent-encoded.
    package mutating func replacePlaceholder(_ name: String, with text: String) {
        path = Self.replacingPlaceholder(name, with: text, in: path)
    }

    /// Replaces `{name}` in the path with an array written in `style`, exploded: `.a.b`
    /// (`label`) or `;name=a;name=b` (`matrix`), each value percent-encoded.
    public mutating func setPathParameter<Element: RequestParameterValue>(_ name: String, exploding values: [Element], style: PathStyle) {
        let encoded = values.map { PercentEncoding.encodePathSegment($0.requestParameterText) }
        let written: String
        switch style {
        case .label: written = encoded.map { "." + $0 }.joined()
        case .matrix:
            let prefix = ";" + PercentEncoding.encodePathSegment(name) + "="
            written = encoded.map { prefix + $0 }.joined()
        }
        path = Self.replacingPlaceholder(name, with: written, in: path)
    }

    /// Replaces `{name}` in the path with an enum's raw value, written in `style`.
    public mutating func setPathParameter<E: RawRepresentable & Sendable>(_ name: String, _ value: E, style: PathStyle)
    where E.RawValue == String {
        setPathParameter(name, value.rawValue, style: style)
    }

    /// Adds a declared request header; a `nil` value is not sent.
    @inlinable
    public mutating func addHeader(_ name: String, _ value: (some RequestParameterValue)?, isKey: Bool) {
        guard let value else { return }
        appendHeader(RequestParameter(name: name, value: value.requestParameterText, isKey: isKey))
    }

    /// Adds a declared request header holding an enum's raw value; `nil` is not sent.
    @inlinable
    public mutating func addHeader<E: RawRepresentable & Sendable>(_ name: String, _ value: E?, isKey: Bool)
    where E.RawValue == String {
        addHeader(name, value?.rawValue, isKey: isKey)
    }

    /// The non-generic half of `addQuery`, which inlined code calls.
    @usableFromInline
    package mutating func appendQuery(_ parameter: RequestParameter) {
        query.append(parameter)
    }

    /// The non-generic half of `addHeader`, which inlined code calls.
    @usableFromInline
    package mutating func appendHeader(_ parameter: RequestParameter) {
        headers.append(parameter)
    }

    /// Attaches a JSON body, encoded when the request is sent with the endpoint's coding.
    public mutating func setJSONBody(_ body: some Encodable & Sendable, isKey: Bool) {
        bodyEncoder = { coding, _ in try coding.makeEncoder().encode(body) }
        bodyIsKey = isKey
    }

    /// Attaches an `application/x-www-form-urlencoded` body: the model's properties as
    /// `name=value` pairs, as `fields` and the defaults say (`BodyField`), dates in the
    /// endpoint's coding.
    public mutating func setFormBody(_ body: some Encodable & Sendable, fields: [BodyField] = [], isKey: Bool) {
        bodyEncoder = { coding, _ in FormBody.urlEncoded(try FormValue.of(body, coding: coding), fields: fields) }
        bodyMediaType = "application/x-www-form-urlencoded"
        bodyIsKey = isKey
    }

    /// Attaches a `multipart/form-data` body (RFC 7578): one part per property, files
    /// with their name and type, objects as JSON, arrays as repeated parts; a fresh
    /// boundary for each request.
    public mutating func setMultipartBody(_ body: some Encodable & Sendable, fields: [BodyField] = [], isKey: Bool) {
        bodyEncoder = { coding, boundary in
            FormBody.multipart(try FormValue.of(body, coding: coding), fields: fields, boundary: boundary)
        }
        bodyMediaType = "multipart/form-data"
        boundary = FormBody.makeBoundary()
        bodyIsKey = isKey
    }

    /// Attaches bytes sent as they are, with their media type (`application/octet-stream`,
    /// `image/png`).
    public mutating func setDataBody(_ body: Data, contentType: String, isKey: Bool) {
        bodyEncoder = { _, _ in body }
        bodyMediaType = contentType
        bodyIsKey = isKey
    }

    /// Attaches text sent as UTF-8, with its media type (`text/plain`).
    public mutating func setTextBody(_ body: String, contentType: String, isKey: Bool) {
        bodyEncoder = { _, _ in Data(body.utf8) }
        bodyMediaType = contentType
        bodyIsKey = isKey
    }

    /// The `Content-Type` of the body: its media type, with the boundary for multipart.
    public var bodyContentType: String {
        guard let boundary else { return bodyMediaType }
        return bodyMediaType + "; boundary=" + boundary
    }

    /// The body bytes, encoded with the given coding; `nil` without a body.
    public func encodedBody(_ coding: JSONCoding) throws -> Data? {
        if let parameterFailure { throw JSONParameterError(reason: parameterFailure) }
        return try bodyEncoder?(coding, boundary ?? "")
    }

    /// The bytes the cache key's digest is taken of: the body, but a multipart body with a
    /// fixed boundary, so that equal bodies give equal keys.
    package func keyedBody(_ coding: JSONCoding, encoded: Data?) throws -> Data? {
        guard boundary != nil else { return encoded }
        return try bodyEncoder?(coding, "cachegen-key")
    }

    /// `text` with every `{name}` replaced, left to right, byte for byte, and allocated once
    /// at its final size: the Foundation version goes through `NSString` on Linux, and even
    /// an array-based one cost more than the rest of a cache hit in memory.
    private static func replacingPlaceholder(_ name: String, with replacement: String, in text: String) -> String {
        var text = text
        var name = name
        var replacement = replacement
        let replaced = text.withUTF8 { text in
            name.withUTF8 { name in
                replacement.withUTF8 { replacement -> String? in
                    let width = name.count + 2
                    func isPlaceholder(at index: Int) -> Bool {
                        guard index + width <= text.count, text[index] == UInt8(ascii: "{"),
                            text[index + width - 1] == UInt8(ascii: "}")
                        else { return false }
                        return name.indices.allSatisfy { text[index + 1 + $0] == name[$0] }
                    }
                    var matches = 0
                    var index = 0
                    while index < text.count {
                        if isPlaceholder(at: index) {
                            matches += 1
                            index += width
                        } else {
                            index += 1
                        }
                    }
                    guard matches > 0 else { return nil }
                    return String(unsafeUninitializedCapacity: text.count + matches * (replacement.count - width)) { result in
                        var written = 0
                        var index = 0
                        while index < text.count {
                            if isPlaceholder(at: index) {
                                for byte in replacement {
                                    result[written] = byte
                                    written += 1
                                }
                                index += width
                            } else {
                                result[written] = text[index]
                                written += 1
                                index += 1
                            }
                        }
                        return written
                    }
                }
            }
        }
        return replaced ?? text
    }

    /// The percent-encoded query string without `?`, empty when there are no items.
    public var encodedQuery: String {
        query.map { "\(PercentEncoding.encode($0.name))=\(PercentEncoding.encode($0.value))" }
            .joined(separator: "&")
    }
}
