import CacheGenReading
import CacheGenSpec

/// Cache rules for an OpenAPI document's operations, from an overlay
/// (`Name.cachegen.json` with `"openapi": "api.yaml"`) or from `x-cachegen` in the
/// document; the overlay wins. Without a rule, a GET is cached with the defaults and
/// every other method is never cached, as for a spec's endpoints.
package struct OpenAPICacheRules {
    /// Keys of each object, in the order the schema lists them.
    package enum Keys {
        /// The overlay's top level.
        package static let overlay = ["$schema", "openapi", "typePrefix", "defaults", "generate", "include", "exclude", "operations", "names"]
        /// `x-cachegen` at the document's root.
        package static let documentRoot = ["defaults"]
        /// `defaults` in either place.
        package static let defaults = ["cache", "retry", "idempotencyHeader"]
        /// One operation's rule.
        package static let operation = [
            "cache", "ttl", "key", "policy", "maxStale", "scope", "invalidates", "retry", "paging", "offline", "channel",
        ]
    }

    /// Put before every model and repository name, so two documents' `Pet`s can live
    /// in one module (`"typePrefix": "Store"` → `StorePet`).
    private(set) var typePrefix = ""
    /// Settings every rule starts from.
    private(set) var defaults: CacheSettings = .standard
    /// The retry rule of GET operations that state none.
    private(set) var defaultRetry: SpecRetry?
    /// The constructs the overlay turns off (`generate`).
    private(set) var constructs = Constructs()
    /// The header field of idempotency keys of queued operations.
    private(set) var idempotencyHeader = SpecParser.standardIdempotencyHeader
    /// The overlay's rules by operation name.
    private var rules: [String: JSONMember] = [:]
    /// Problems in the rules, read through the spec parser's value readers.
    private var values = SpecParser()

    /// Errors and warnings found in the rules.
    package var diagnostics: [Diagnostic] { values.diagnostics }

    /// Reads an overlay's members (its `openapi` key was read by the caller) and the
    /// document's root `x-cachegen`.
    package mutating func read(overlay: JSONNode?, document: JSONNode) {
        if let root = document["x-cachegen"]?.value,
            let members = values.object(root, "\"x-cachegen\"", allowed: Keys.documentRoot),
            let node = members["defaults"]?.value
        {
            readDefaults(node)
        }
        guard let overlay, let members = values.object(overlay, "the overlay", allowed: Keys.overlay) else { return }
        if let node = members["defaults"]?.value { readDefaults(node) }
        if let node = members["generate"]?.value { constructs = values.constructs(node) }
        if let node = members["typePrefix"]?.value, let text = values.string(node, "\"typePrefix\"") {
            if text.isEmpty || SwiftNaming.typeName(text) != text {
                values.diagnostics.append(
                    .error("\"typePrefix\" must be a Swift type name such as \"Store\"; found \(quoted(text))", at: node.location))
            } else {
                typePrefix = text
            }
        }
        if let node = members["operations"]?.value, let entries = values.object(node, "\"operations\"", allowed: nil) {
            for entry in entries.list { rules[entry.key] = entry }
        }
    }

    /// `defaults.cache` of the overlay or of the root `x-cachegen`.
    private mutating func readDefaults(_ node: JSONNode) {
        guard let members = values.object(node, "\"defaults\"", allowed: Keys.defaults) else { return }
        if let retry = members["retry"]?.value { defaultRetry = values.retryRule(retry) }
        if let node = members["idempotencyHeader"]?.value, let name = values.idempotencyHeader(node) { idempotencyHeader = name }
        guard let cache = members["cache"]?.value,
            let fields = values.object(cache, "\"defaults.cache\"", allowed: SpecParser.Keys.defaultCache)
        else { return }
        defaults = values.cacheSettings(fields, base: .standard)
    }

    /// Reports overlay rules for operations the document does not have, and rules that
    /// have no effect because their operation is left out.
    package mutating func checkNames(_ names: [String], generated: Set<String>, documentName: String) {
        let known = Set(names)
        for rule in rules.values.sorted(by: { $0.keyLocation < $1.keyLocation }) where known.contains(rule.key) && !generated.contains(rule.key) {
            values.diagnostics.append(
                .warning("the rule for \(quoted(rule.key)) has no effect: the operation is left out (see the warning in \(documentName))", at: rule.keyLocation))
        }
        for rule in rules.values.sorted(by: { $0.keyLocation < $1.keyLocation }) where !known.contains(rule.key) {
            let hint = names.isEmpty
                ? "; the document has no operations"
                : Suggestion.closest(to: rule.key, in: names).map { "; did you mean \(quoted($0))?" } ?? ""
            values.diagnostics.append(
                .error("\"operations\" names \(quoted(rule.key)), which is not an operation of \(documentName)" + hint, at: rule.keyLocation))
        }
    }

    /// Sets the endpoint's cache rule and invalidations from its rule, if any.
    ///
    /// - Parameter hasEventStream: whether the operation's event stream is a method of its own
    ///   (the operation also answers in another format), which takes the rule's `channel`.
    package mutating func apply(to endpoint: inout EndpointSpec, operation: JSONNode, hasEventStream: Bool = false) {
        let rule = rules[endpoint.name.name]?.value ?? operation["x-cachegen"]?.value
        endpoint.retry = endpoint.method == "GET" ? defaultRetry : nil
        guard let rule, let fields = values.object(rule, "the rule of \(quoted(endpoint.name.name))", allowed: Keys.operation) else {
            endpoint.cache = endpoint.method == "GET"
                ? EndpointCache(settings: defaults, key: nil, location: endpoint.name.location, origin: .defaults) : nil
            return
        }
        if let member = fields["channel"] {
            let channel = values.channelFlag(member)
            if !hasEventStream || endpoint.responseFormat.isStream { endpoint.channel = channel }
        }
        if let node = fields["invalidates"]?.value {
            endpoint.invalidates = names(node, "\"invalidates\"", "an operation name")
        }
        if let node = fields["retry"]?.value { endpoint.retry = values.retryRule(node) }
        if let node = fields["paging"]?.value { endpoint.paging = values.pagingRule(node) }
        if let node = fields["offline"]?.value { endpoint.offline = values.offlineRule(node, idempotencyHeader: idempotencyHeader) }
        let settingKeys = ["ttl", "key", "policy", "maxStale", "scope"]
        if let node = fields["cache"]?.value {
            guard let flag = node.boolValue else {
                values.diagnostics.append(.error("\"cache\" must be true or false; found \(node.kindName)", at: node.location))
                return
            }
            if !flag {
                endpoint.cache = nil
                if let extra = fields.list.first(where: { settingKeys.contains($0.key) }) {
                    values.diagnostics.append(
                        .warning("\(quoted(extra.key)) has no effect with \"cache\": false", at: extra.keyLocation))
                }
                return
            }
        }
        let hasSettings = fields.list.contains { settingKeys.contains($0.key) }
        let key = fields["key"].map { names($0.value, "\"key\"", "a key name") }
        if hasSettings {
            endpoint.cache = EndpointCache(
                settings: values.cacheSettings(fields, base: defaults), key: key, location: rule.location, origin: .object)
        } else if fields["cache"] != nil {
            endpoint.cache = EndpointCache(settings: defaults, key: nil, location: rule.location, origin: .flag)
        } else {
            endpoint.cache = endpoint.method == "GET"
                ? EndpointCache(settings: defaults, key: nil, location: rule.location, origin: .defaults) : nil
        }
    }

    /// Marks the event-stream method of operation `name` (one that also answers in another
    /// format) as a long-lived channel when the operation's rule says `"channel": true`; it
    /// takes none of the rule's other keys, and `apply` reports what is wrong in the rule.
    package func applyChannel(to events: inout EndpointSpec, of name: String, operation: JSONNode) {
        guard let rule = rules[name]?.value ?? operation["x-cachegen"]?.value, let member = rule["channel"],
            member.value.boolValue == true
        else { return }
        events.channel = member.keyLocation
    }

    /// An array of names, each with where it is written.
    private mutating func names(_ node: JSONNode, _ what: String, _ item: String) -> [Named] {
        guard let items = node.elements else {
            values.diagnostics.append(.error("\(what) must be an array of names; found \(node.kindName)", at: node.location))
            return []
        }
        return items.compactMap { entry in values.string(entry, item).map { Named(name: $0, location: entry.location) } }
    }
}
