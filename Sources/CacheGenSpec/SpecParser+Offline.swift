import CacheGenReading

// `"offline": "queue"` on an endpoint and `"idempotencyHeader"` in the defaults; the spec
// parser and the OpenAPI rules read them with these.
extension SpecParser {
    /// The default header field of idempotency keys.
    package static let standardIdempotencyHeader = "Idempotency-Key"

    /// The keys of `"offline"` written as an object.
    package static let offlineKeys = ["mode", "scope"]

    /// `"offline": "queue"`, or `{"mode": "queue", "scope": "notes"}` to name the queue the
    /// endpoint's mutations share; any other value is reported.
    package mutating func offlineRule(_ node: JSONNode, idempotencyHeader: String) -> SpecOffline? {
        switch node.value {
        case .string:
            guard offlineMode(node) else { return nil }
            return SpecOffline(idempotencyHeader: idempotencyHeader, location: node.location)
        case .object:
            guard let members = object(node, "\"offline\"", allowed: Self.offlineKeys) else { return nil }
            guard let mode = members["mode"]?.value else {
                report("\"offline\" needs \"mode\": \"queue\"", at: node.location)
                return nil
            }
            var valid = offlineMode(mode)
            var scope: String?
            if let node = members["scope"]?.value {
                scope = string(node, "\"scope\" of \"offline\"")
                if scope == nil {
                    valid = false
                } else if scope?.isEmpty == true {
                    report(
                        "\"scope\" of \"offline\" must name a queue, such as \"notes\"; leave it out to queue by path",
                        at: node.location)
                    valid = false
                }
            }
            guard valid else { return nil }
            return SpecOffline(idempotencyHeader: idempotencyHeader, scope: scope, location: node.location)
        default:
            report(
                "\"offline\" must be \"queue\" or an object with \"mode\" and \"scope\"; found \(node.kindName)",
                at: node.location)
            return nil
        }
    }

    /// Whether `node` is the string `"queue"`; anything else is reported.
    private mutating func offlineMode(_ node: JSONNode) -> Bool {
        guard let text = string(node, "\"offline\"") else { return false }
        guard text == "queue" else {
            report(
                "\"offline\" cannot be \(quoted(text)); the only value is \"queue\" (leave \"offline\" out for a call that fails offline)",
                at: node.location)
            return false
        }
        return true
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
