import CacheGenReading

// `"offline": "queue"` on an endpoint and `"idempotencyHeader"` in the defaults; the spec
// parser and the OpenAPI rules read them with these.
extension SpecParser {
    /// The default header field of idempotency keys.
    package static let standardIdempotencyHeader = "Idempotency-Key"

    /// `"offline": "queue"`; any other value is reported.
    package mutating func offlineRule(_ node: JSONNode, idempotencyHeader: String) -> SpecOffline? {
        guard let text = string(node, "\"offline\"") else { return nil }
        guard text == "queue" else {
            report(
                "\"offline\" cannot be \(quoted(text)); the only value is \"queue\" (leave \"offline\" out for a call that fails offline)",
                at: node.location)
            return nil
        }
        return SpecOffline(idempotencyHeader: idempotencyHeader, location: node.location)
    }

    /// `"idempotencyHeader"`: a header field name (RFC 9110 token characters).
    package mutating func idempotencyHeader(_ node: JSONNode) -> String? {
        guard let text = string(node, "\"idempotencyHeader\"") else { return nil }
        let allowed = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        guard !text.isEmpty, text.utf8.allSatisfy({ allowed.contains($0) }) else {
            report(
                "\"idempotencyHeader\" must be a header field name such as \"Idempotency-Key\"; found \(quoted(text))",
                at: node.location)
            return nil
        }
        return text
    }
}
