import Foundation

extension CachedClientError {
    /// How the reason of a `decodingFailed` starts when its body was not JSON at all (see
    /// `bodyNotJSONReason(_:contentType:)`), so that the advice points away from the spec.
    package static let bodyNotJSONMarker = "the body is "

    /// The most bytes of a body a reason quotes.
    package static let quotedBodyLimit = 64

    /// The reason of a `decodingFailed` whose body is not valid JSON at all: an HTML page from a
    /// proxy, a captive portal or a server's error page, a body cut short under a `Content-Length`
    /// that lied, an empty body. It says what arrived instead (its `Content-Type`, its length and
    /// its first bytes, escaped), which a decoder's "not valid JSON" does not; it goes only into
    /// the error thrown to the developer, never into an event.
    package static func bodyNotJSONReason(_ body: Data, contentType: String?) -> String {
        let type = contentType.map { "Content-Type: \($0)" } ?? "no Content-Type"
        guard !body.isEmpty else { return "\(bodyNotJSONMarker)empty (\(type))" }
        let quoted = String(decoding: body.prefix(quotedBodyLimit), as: UTF8.self).debugDescription
        let bytes = body.count == 1 ? "1 byte" : "\(body.count) bytes"
        let shown = body.count > quotedBodyLimit ? "\(bytes), beginning \(quoted)" : "\(bytes): \(quoted)"
        return "\(bodyNotJSONMarker)not valid JSON (\(type)): \(shown)"
    }

    /// Whether this is a `decodingFailed` whose body was not JSON at all.
    package var bodyIsNotJSON: Bool {
        guard case .decodingFailed(_, let reason) = self else { return false }
        return reason.hasPrefix(Self.bodyNotJSONMarker)
    }
}
