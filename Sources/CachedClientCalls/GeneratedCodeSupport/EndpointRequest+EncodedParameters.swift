@_spi(Generated) import CachedClientValues
import Foundation

/// Parameters written from any `Encodable` value through the endpoint's JSON coding, so
/// dates and numbers read as they do in a body:
/// - as JSON text: an OpenAPI parameter serialized as `content: application/json`, a value no
///   OpenAPI style can write as text (an array of objects in the query, as Box's
///   `mdfilters`), and a spec parameter written with `"style": "json"`;
/// - as an object in the styles OpenAPI gives objects (`ObjectStyle`): a flat object or any
///   JSON value in a header, in a path, or in the query not exploded.
///
/// JSON text is compact with sorted keys, and objects are written in key order, so equal
/// values make equal URLs and cache keys. A value that cannot be encoded (a `Double` that is
/// not finite) fails the call with `CachedClientError.encodingFailed` when it is sent, as a
/// body would.
extension EndpointRequest {
    /// Adds a query item holding `value` as JSON text; `nil` is left out of the URL and the key.
    public mutating func addQuery(_ name: String, json value: (some Encodable)?, coding: JSONCoding, isKey: Bool) {
        guard let value, let data = encoded(value, name: name, coding: coding) else { return }
        appendQuery(RequestParameter(name: name, value: String(decoding: data, as: UTF8.self), isKey: isKey))
    }

    /// Replaces `{name}` in the path with `value` as JSON text, percent-encoded as one segment.
    public mutating func setPathParameter(_ name: String, json value: some Encodable, coding: JSONCoding) {
        guard let data = encoded(value, name: name, coding: coding) else { return }
        setPathParameter(name, String(decoding: data, as: UTF8.self))
    }

    /// Adds a declared request header holding `value` as JSON text; `nil` is not sent.
    public mutating func addHeader(_ name: String, json value: (some Encodable)?, coding: JSONCoding, isKey: Bool) {
        guard let value, let data = encoded(value, name: name, coding: coding) else { return }
        appendHeader(RequestParameter(name: name, value: String(decoding: data, as: UTF8.self), isKey: isKey))
    }

    /// How an object parameter is written, as OpenAPI's `style` and `explode` say for objects;
    /// each property's value as text the way a parameter of its own would be, `null`s left out.
    /// A value that is no object is written as its text.
    public enum ObjectStyle: Sendable {
        /// One query item per property, `key=value` (`form`, exploded).
        case form
        /// One query item per property, `name[key]=value` (`deepObject`).
        case deepObject
        /// One text, keys and values joined by commas, `key1,value1,key2,value2` (`form` or
        /// `simple`, not exploded).
        case joined
        /// One text, `key1=value1,key2=value2` (`simple`, exploded).
        case pairs
    }

    /// Adds an object query parameter written in `style`; `nil` is left out of the URL and the key.
    public mutating func addQuery(_ name: String, object value: (some Encodable)?, style: ObjectStyle, coding: JSONCoding, isKey: Bool) {
        guard let value, let json = jsonValue(of: value, name: name, coding: coding) else { return }
        guard case .object(let members) = json, style == .form || style == .deepObject else {
            appendQuery(RequestParameter(name: name, value: Self.text(of: json, style: style), isKey: isKey))
            return
        }
        for (key, member) in members.sorted(by: { $0.key < $1.key }) where member != .null {
            let item = style == .form ? key : name + "[" + key + "]"
            appendQuery(RequestParameter(name: item, value: member.requestParameterText, isKey: isKey))
        }
    }

    /// Adds an object header written in `style` (`.form` and `.deepObject` as `.joined`); `nil`
    /// is not sent.
    public mutating func addHeader(_ name: String, object value: (some Encodable)?, style: ObjectStyle, coding: JSONCoding, isKey: Bool) {
        guard let value, let json = jsonValue(of: value, name: name, coding: coding) else { return }
        appendHeader(RequestParameter(name: name, value: Self.text(of: json, style: style), isKey: isKey))
    }

    /// Replaces `{name}` in the path with an object written in `style` (`.form` and
    /// `.deepObject` as `.joined`): each key and value percent-encoded, the commas and `=`
    /// between them as they are, so the whole stays one segment.
    public mutating func setPathParameter(_ name: String, object value: some Encodable, style: ObjectStyle, coding: JSONCoding) {
        guard let json = jsonValue(of: value, name: name, coding: coding) else { return }
        replacePlaceholder(name, with: Self.text(of: json, style: style, encoding: PercentEncoding.encodePathSegment))
    }

    /// An object's one text in `style`: `k1,v1,k2,v2`, or `k1=v1,k2=v2` for `.pairs`, each key
    /// and value passed through `encoding`.
    private static func text(of json: JSONValue, style: ObjectStyle, encoding: (String) -> String = { $0 }) -> String {
        guard case .object(let members) = json else { return encoding(json.requestParameterText) }
        let present = members.filter { $0.value != .null }.sorted { $0.key < $1.key }
        let pairs = present.map { (encoding($0.key), encoding($0.value.requestParameterText)) }
        if style == .pairs { return pairs.map { $0.0 + "=" + $0.1 }.joined(separator: ",") }
        return pairs.flatMap { [$0.0, $0.1] }.joined(separator: ",")
    }

    /// `value` as JSON, or `nil` with the reason kept for when the request is sent.
    private mutating func encoded(_ value: some Encodable, name: String, coding: JSONCoding) -> Data? {
        do {
            return try coding.makeEncoder().encode(value)
        } catch {
            if parameterFailure == nil { parameterFailure = "parameter \"\(name)\" cannot be written as JSON: \(error)" }
            return nil
        }
    }

    /// `value` as a `JSONValue`, through its JSON, or `nil` as `encoded` says.
    private mutating func jsonValue(of value: some Encodable, name: String, coding: JSONCoding) -> JSONValue? {
        if let json = value as? JSONValue { return json }
        guard let data = encoded(value, name: name, coding: coding) else { return nil }
        return try? JSONDecoder().decode(JSONValue.self, from: data)
    }
}

/// A parameter that could not be written as JSON text, reported as the endpoint's
/// `encodingFailed` error.
package struct JSONParameterError: Error, CustomStringConvertible {
    package var reason: String
    package var description: String { reason }
}
