import Foundation

/// One named request value and whether it identifies the cache entry.
public struct RequestParameter: Sendable, Hashable {
    /// The wire name.
    public var name: String
    /// The canonical text, not yet percent-encoded.
    public var value: String
    /// Whether the value is part of the cache key.
    public var isKey: Bool

    /// Creates a parameter.
    public init(name: String, value: String, isKey: Bool) {
        self.name = name
        self.value = value
        self.isKey = isKey
    }
}

/// The request a generated method describes: method, path, parameters and body.
///
/// It says nothing about the base URL, authentication or caching; `CachedClient` adds
/// those, so that a request value is cheap to build and safe to log.
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
    private var bodyEncoder: (@Sendable (JSONEncoder) throws -> Data)?

    /// Creates a request for a path template such as `/accounts/{id}`.
    public init(method: String, path: String) {
        self.method = method
        self.path = path
    }

    /// Whether a body is attached.
    public var hasBody: Bool { bodyEncoder != nil }

    /// Replaces `{name}` in the path with the percent-encoded value.
    public mutating func setPathParameter(_ name: String, _ value: some RequestParameterValue) {
        path = Self.replacing("{\(name)}", with: PercentEncoding.encode(value.requestParameterText), in: path)
    }

    /// Replaces `{name}` in the path with the percent-encoded raw value of an enum.
    public mutating func setPathParameter<E: RawRepresentable & Sendable>(_ name: String, _ value: E)
    where E.RawValue == String {
        setPathParameter(name, value.rawValue)
    }

    /// Adds a query item; a `nil` value is left out of the URL and the key.
    public mutating func addQuery(_ name: String, _ value: (some RequestParameterValue)?, isKey: Bool) {
        guard let value else { return }
        query.append(RequestParameter(name: name, value: value.requestParameterText, isKey: isKey))
    }

    /// Adds a query item holding an enum's raw value; `nil` is left out.
    public mutating func addQuery<E: RawRepresentable & Sendable>(_ name: String, _ value: E?, isKey: Bool)
    where E.RawValue == String {
        addQuery(name, value?.rawValue, isKey: isKey)
    }

    /// Adds a declared request header; a `nil` value is not sent.
    public mutating func addHeader(_ name: String, _ value: (some RequestParameterValue)?, isKey: Bool) {
        guard let value else { return }
        headers.append(RequestParameter(name: name, value: value.requestParameterText, isKey: isKey))
    }

    /// Adds a declared request header holding an enum's raw value; `nil` is not sent.
    public mutating func addHeader<E: RawRepresentable & Sendable>(_ name: String, _ value: E?, isKey: Bool)
    where E.RawValue == String {
        addHeader(name, value?.rawValue, isKey: isKey)
    }

    /// Attaches a JSON body, encoded when the request is sent with the endpoint's coding.
    public mutating func setJSONBody(_ body: some Encodable & Sendable, isKey: Bool) {
        bodyEncoder = { encoder in try encoder.encode(body) }
        bodyIsKey = isKey
    }

    /// The body bytes, encoded with the given coding; `nil` without a body.
    public func encodedBody(_ coding: JSONCoding) throws -> Data? {
        try bodyEncoder?(coding.makeEncoder())
    }

    /// Every occurrence of `target` in `text` replaced, left to right, byte for byte: the
    /// Foundation version goes through `NSString` on Linux and costs more than a cache hit.
    private static func replacing(_ target: String, with replacement: String, in text: String) -> String {
        let target = Array(target.utf8)
        let bytes = Array(text.utf8)
        guard let first = target.first, bytes.count >= target.count else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + replacement.utf8.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == first, index + target.count <= bytes.count,
                bytes[index..<index + target.count].elementsEqual(target)
            {
                result.append(contentsOf: replacement.utf8)
                index += target.count
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The percent-encoded query string without `?`, empty when there are no items.
    public var encodedQuery: String {
        query.map { "\(PercentEncoding.encode($0.name))=\(PercentEncoding.encode($0.value))" }
            .joined(separator: "&")
    }
}
