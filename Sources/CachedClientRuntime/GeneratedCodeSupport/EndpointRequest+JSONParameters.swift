import Foundation

/// Parameters sent as JSON text: an OpenAPI parameter serialized as `content:
/// application/json`, a value no OpenAPI style can write as text (an array of objects in the
/// query, as Box's `mdfilters`), and a spec parameter written with `"style": "json"`.
///
/// The text is what the endpoint's coding writes for a body, compact with sorted keys, so
/// equal values make equal URLs and cache keys. A value that cannot be encoded (a `Double`
/// that is not finite) fails the call with `CachedClientError.encodingFailed` when it is
/// sent, as a body would.
extension EndpointRequest {
    /// Adds a query item holding `value` as JSON text; `nil` is left out of the URL and the key.
    public mutating func addQuery(_ name: String, json value: (some Encodable)?, coding: JSONCoding, isKey: Bool) {
        guard let value, let text = jsonText(of: value, name: name, coding: coding) else { return }
        appendQuery(RequestParameter(name: name, value: text, isKey: isKey))
    }

    /// Replaces `{name}` in the path with `value` as JSON text, percent-encoded as one segment.
    public mutating func setPathParameter(_ name: String, json value: some Encodable, coding: JSONCoding) {
        guard let text = jsonText(of: value, name: name, coding: coding) else { return }
        setPathParameter(name, text)
    }

    /// Adds a declared request header holding `value` as JSON text; `nil` is not sent.
    public mutating func addHeader(_ name: String, json value: (some Encodable)?, coding: JSONCoding, isKey: Bool) {
        guard let value, let text = jsonText(of: value, name: name, coding: coding) else { return }
        appendHeader(RequestParameter(name: name, value: text, isKey: isKey))
    }

    /// The JSON text of `value`, or `nil` with the reason kept for when the request is sent.
    private mutating func jsonText(of value: some Encodable, name: String, coding: JSONCoding) -> String? {
        do {
            return String(decoding: try coding.makeEncoder().encode(value), as: UTF8.self)
        } catch {
            if parameterFailure == nil { parameterFailure = "parameter \"\(name)\" cannot be written as JSON: \(error)" }
            return nil
        }
    }
}

/// A parameter that could not be written as JSON text, reported as the endpoint's
/// `encodingFailed` error.
struct JSONParameterError: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}
