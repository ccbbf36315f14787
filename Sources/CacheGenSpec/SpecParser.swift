import CacheGenReading

/// Reads located JSON into a `Spec`, reporting every structural problem (wrong kinds of
/// value, unknown keys, unreadable types and durations) rather than stopping at the first.
///
/// Rules that need the whole spec (names resolve, keys name parameters, …) belong to
/// `SpecValidator`, which runs on the result.
package struct SpecParser {
    package var diagnostics: [Diagnostic] = []

    /// Parses the whole spec; `nil` only when the root is not an object.
    package mutating func parse(_ root: JSONNode, file: String) -> Spec? {
        guard let members = object(root, "the spec", allowed: Keys.root) else { return nil }
        var version = 1
        if let node = members["version"]?.value {
            if let number = integer(node, "\"version\"") {
                version = number
                if number != 1 {
                    report("unsupported spec version \(number); this cachegen reads version 1", at: node.location)
                }
            }
        } else {
            report("missing \"version\"; add \"version\": 1 at the top of the spec", at: root.location)
        }
        let baseURL = members["baseURL"].flatMap { member -> String? in
            guard let text = string(member.value, "\"baseURL\"") else { return nil }
            if !Self.isAbsoluteHTTPURL(text) {
                report(
                    "\"baseURL\" must be an absolute http or https URL such as \"https://api.example.com/v1\"",
                    at: member.value.location)
            }
            return text
        }
        let defaults = members["defaults"].map { parseDefaults($0.value) } ?? .standard
        var models: [Model] = []
        if let node = members["models"]?.value, let entries = object(node, "\"models\"", allowed: nil) {
            models = entries.list.compactMap { parseModel($0, defaults: defaults) }
        }
        var repositories: [Repository] = []
        if let node = members["repositories"]?.value,
            let entries = object(node, "\"repositories\"", allowed: nil)
        {
            repositories = entries.list.compactMap { parseRepository($0, defaults: defaults) }
        } else if members["repositories"] == nil {
            report("missing \"repositories\"; add at least one repository with its endpoints", at: root.location)
        }
        let selection = Selection(
            include: members["include"].flatMap { parseFilter($0.value, key: "include") },
            exclude: members["exclude"].flatMap { parseFilter($0.value, key: "exclude") })
        var spec = Spec(
            file: file, version: version, baseURL: baseURL, defaults: defaults, models: models,
            repositories: repositories, selection: selection)
        if let node = members["generate"]?.value { spec.constructs = constructs(node) }
        return spec
    }

    // MARK: - Sections

    private mutating func parseDefaults(_ node: JSONNode) -> Defaults {
        var defaults = Defaults.standard
        guard let members = object(node, "\"defaults\"", allowed: Keys.defaults) else { return defaults }
        if let cache = members["cache"]?.value,
            let fields = object(cache, "\"defaults.cache\"", allowed: Keys.defaultCache)
        {
            defaults.cache = cacheSettings(fields, base: .standard)
        }
        if let node = members["jsonKeys"]?.value, let value = choice(node, "\"jsonKeys\"", Defaults.JSONKeys.self) {
            defaults.jsonKeys = value
        }
        if let node = members["dates"]?.value, let value = choice(node, "\"dates\"", DateFormat.self) {
            defaults.dates = value
        }
        if let node = members["retry"]?.value { defaults.retry = retryRule(node) }
        if let node = members["idempotencyHeader"]?.value, let name = idempotencyHeader(node) {
            defaults.idempotencyHeader = name
        }
        return defaults
    }

    private mutating func parseModel(_ member: JSONMember, defaults: Defaults) -> Model? {
        let name = Named(name: member.key, location: member.keyLocation)
        guard case .object(let fields) = member.value.value else {
            report(
                "model \(quoted(member.key)) must be an object with \"properties\" or \"enum\"; found \(member.value.kindName)",
                at: member.value.location)
            return nil
        }
        let isEnum = fields.contains { $0.key == "enum" }
        let allowed = isEnum ? Keys.enumModel : Keys.objectModel
        guard let members = object(member.value, "model \(quoted(member.key))", allowed: allowed) else { return nil }
        let description = members["description"].flatMap { string($0.value, "\"description\"") }
        if isEnum {
            guard let node = members["enum"]?.value else { return nil }
            guard case .array(let items) = node.value else {
                report("\"enum\" of model \(quoted(member.key)) must be an array of strings; found \(node.kindName)", at: node.location)
                return nil
            }
            let values = items.compactMap { item -> EnumValue? in
                guard let text = string(item, "an enum value") else { return nil }
                return EnumValue(value: text, location: item.location)
            }
            return Model(name: name, description: description, kind: .enumeration(values))
        }
        guard let node = members["properties"]?.value else {
            report(
                "model \(quoted(member.key)) needs \"properties\" (an object model) or \"enum\" (a list of values)",
                at: member.keyLocation)
            return nil
        }
        guard let entries = object(node, "\"properties\" of model \(quoted(member.key))", allowed: nil) else { return nil }
        let properties = entries.list.compactMap { parseProperty($0, defaults: defaults) }
        return Model(name: name, description: description, kind: .object(properties), identity: members["identity"].flatMap { identity($0.value) })
    }

    private mutating func parseProperty(_ member: JSONMember, defaults: Defaults) -> Property? {
        let name = Named(name: member.key, location: member.keyLocation)
        var description: String?
        var wireName = defaults.jsonKeys == .snakeCase ? SwiftNaming.snakeCase(member.key) : member.key
        let typeNode: JSONNode
        switch member.value.value {
        case .string:
            typeNode = member.value
        case .object:
            guard let fields = object(member.value, "property \(quoted(member.key))", allowed: Keys.property) else {
                return nil
            }
            guard let node = fields["type"]?.value else {
                report("property \(quoted(member.key)) needs a \"type\"", at: member.value.location)
                return nil
            }
            typeNode = node
            description = fields["description"].flatMap { string($0.value, "\"description\"") }
            if let json = fields["json"], let text = string(json.value, "\"json\"") {
                if text.isEmpty {
                    report("\"json\" of property \(quoted(member.key)) is empty; write the name the server uses", at: json.value.location)
                }
                wireName = text
            }
        default:
            report(
                "property \(quoted(member.key)) must be a type string such as \"string\" or an object with \"type\"; found \(member.value.kindName)",
                at: member.value.location)
            return nil
        }
        guard let type = typeRef(typeNode) else { return nil }
        return Property(name: name, type: type, typeLocation: typeNode.location, description: description, wireName: wireName)
    }

    private mutating func parseRepository(_ member: JSONMember, defaults: Defaults) -> Repository? {
        let name = Named(name: member.key, location: member.keyLocation)
        guard let members = object(member.value, "repository \(quoted(member.key))", allowed: Keys.repository) else {
            return nil
        }
        let description = members["description"].flatMap { string($0.value, "\"description\"") }
        guard let node = members["endpoints"]?.value else {
            report("repository \(quoted(member.key)) needs \"endpoints\"", at: member.keyLocation)
            return nil
        }
        guard let entries = object(node, "\"endpoints\" of repository \(quoted(member.key))", allowed: nil) else {
            return nil
        }
        let endpoints = entries.list.compactMap { parseEndpoint($0, defaults: defaults) }
        return Repository(name: name, description: description, endpoints: endpoints)
    }

    private mutating func parseEndpoint(_ member: JSONMember, defaults: Defaults) -> EndpointSpec? {
        let name = Named(name: member.key, location: member.keyLocation)
        guard let members = object(member.value, "endpoint \(quoted(member.key))", allowed: Keys.endpoint) else {
            return nil
        }
        var method = "GET"
        var methodLocation = member.keyLocation
        if let node = members["method"]?.value, let text = string(node, "\"method\"") {
            method = text.uppercased()
            methodLocation = node.location
        }
        guard let pathNode = members["path"]?.value else {
            report("endpoint \(quoted(member.key)) needs a \"path\", such as \"/accounts/{id}\"", at: member.keyLocation)
            return nil
        }
        guard let path = string(pathNode, "\"path\"") else { return nil }

        var parameters: [Parameter] = []
        let declaredPath = parameterList(members["pathParameters"]?.value, place: .path, "\"pathParameters\"")
        var seenSegments: Set<String> = []
        for segment in PathTemplate.parameterNames(path) where !segment.isEmpty && seenSegments.insert(segment).inserted {
            if let declared = declaredPath.first(where: { $0.name.name == segment }) {
                parameters.append(declared)
            } else {
                parameters.append(
                    Parameter(
                        name: Named(name: segment, location: pathNode.location), place: .path,
                        type: .scalar(.string), typeLocation: pathNode.location))
            }
        }
        for declared in declaredPath where !PathTemplate.parameterNames(path).contains(declared.name.name) {
            report(
                "path parameter \(quoted(declared.name.name)) is declared but the path has no \"{\(declared.name.name)}\"",
                at: declared.name.location)
        }
        parameters += parameterList(members["query"]?.value, place: .query, "\"query\"")
        parameters += parameterList(members["headers"]?.value, place: .header, "\"headers\"")

        let (body, bodyEncoding) = members["body"].map { requestBody($0.value) } ?? (nil, .json)
        let (response, responseFormat, channel) = members["response"].map { responseType($0.value) } ?? (nil, .json, nil)
        let bodyLocation = members["body"].map { member in
            member.value.members?.first { $0.key == "type" }?.value.location ?? member.value.location
        }
        let responseLocation = members["response"]?.value.location
        let description = members["description"].flatMap { string($0.value, "\"description\"") }
        let cache = endpointCache(members["cache"], method: method, defaults: defaults, endpoint: member)
        var invalidates: [Named] = []
        if let node = members["invalidates"]?.value {
            if case .array(let items) = node.value {
                invalidates = items.compactMap { item in
                    string(item, "an endpoint name").map { Named(name: $0, location: item.location) }
                }
            } else {
                report("\"invalidates\" must be an array of endpoint names; found \(node.kindName)", at: node.location)
            }
        }
        var endpoint = EndpointSpec(
            name: name, method: method, methodLocation: methodLocation, path: path, pathLocation: pathNode.location,
            parameters: parameters, body: body, bodyLocation: bodyLocation, response: response,
            responseLocation: responseLocation, description: description, cache: cache, invalidates: invalidates,
            retry: members["retry"].flatMap { retryRule($0.value) } ?? (method == "GET" ? defaults.retry : nil),
            paging: members["paging"].flatMap { pagingRule($0.value) }, responseFormat: responseFormat)
        endpoint.bodyEncoding = bodyEncoding
        endpoint.channel = channel
        endpoint.offline = members["offline"].flatMap { offlineRule($0.value, idempotencyHeader: defaults.idempotencyHeader) }
        if let node = members["server"]?.value, let text = string(node, "\"server\"") {
            if let server = Self.canonicalServer(text) {
                endpoint.server = server
            } else {
                report(
                    "\"server\" must be an absolute http or https URL without a query or fragment, such as \"https://upload.example.com/v1\"",
                    at: node.location)
            }
        }
        return endpoint
    }

    private mutating func endpointCache(
        _ member: JSONMember?, method: String, defaults: Defaults, endpoint: JSONMember
    ) -> EndpointCache? {
        guard let member else {
            return method == "GET"
                ? EndpointCache(settings: defaults.cache, key: nil, location: endpoint.keyLocation, origin: .defaults)
                : nil
        }
        let node = member.value
        switch node.value {
        case .bool(false):
            return nil
        case .bool(true):
            return EndpointCache(settings: defaults.cache, key: nil, location: node.location, origin: .flag)
        case .object:
            guard let fields = object(node, "\"cache\"", allowed: Keys.endpointCache) else { return nil }
            var key: [Named]?
            if let keyNode = fields["key"]?.value {
                if case .array(let items) = keyNode.value {
                    key = items.compactMap { item in string(item, "a key name").map { Named(name: $0, location: item.location) } }
                } else {
                    report("\"key\" must be an array of parameter names; found \(keyNode.kindName)", at: keyNode.location)
                }
            }
            return EndpointCache(
                settings: cacheSettings(fields, base: defaults.cache), key: key, location: node.location,
                origin: .object)
        default:
            report("\"cache\" must be true, false or an object; found \(node.kindName)", at: node.location)
            return nil
        }
    }

    /// `ttl`, `maxStale`, `policy` and `scope` over `base`; the OpenAPI overlay reads its rules with it too.
    package mutating func cacheSettings(_ fields: ObjectMembers, base: CacheSettings) -> CacheSettings {
        var settings = base
        if let node = fields["ttl"]?.value {
            if case .string("server") = node.value {
                settings.ttlFromServer = true
            } else if let seconds = duration(node) {
                settings.ttl = seconds
                settings.ttlFromServer = false
            }
        }
        if let node = fields["maxStale"]?.value, let seconds = duration(node) {
            settings.maxStale = seconds
            if seconds < settings.ttl, !settings.ttlFromServer {
                diagnostics.append(
                    .warning(
                        "\"maxStale\" (\(SpecDuration.words(seconds))) is shorter than \"ttl\" (\(SpecDuration.words(settings.ttl))); entries are kept for the ttl",
                        at: node.location))
            }
        }
        if let node = fields["policy"]?.value, let value = choice(node, "\"policy\"", SpecPolicy.self) {
            settings.policy = value
        }
        if let node = fields["scope"]?.value, let value = choice(node, "\"scope\"", SpecScope.self) {
            settings.scope = value
        }
        return settings
    }

    // MARK: - Values

    /// An object's members by key, plus their order.
    package struct ObjectMembers {
        package var list: [JSONMember]
        package subscript(key: String) -> JSONMember? { list.first { $0.key == key } }
    }

    /// The members of an object, reporting a wrong kind of value and unknown keys.
    /// - Parameter allowed: the keys this object may have; `nil` for name → value maps.
    package mutating func object(_ node: JSONNode, _ what: String, allowed: [String]?) -> ObjectMembers? {
        guard case .object(let list) = node.value else {
            report("\(what) must be an object; found \(node.kindName)", at: node.location)
            return nil
        }
        if let allowed {
            for member in list where !allowed.contains(member.key) {
                report(
                    "unknown key \(quoted(member.key)) in \(what)" + Suggestion.hint(for: member.key, among: allowed),
                    at: member.keyLocation)
            }
        }
        return ObjectMembers(list: list)
    }

    /// The text of a string value, reporting any other kind.
    package mutating func string(_ node: JSONNode, _ what: String) -> String? {
        guard case .string(let text) = node.value else {
            report("\(what) must be a string; found \(node.kindName)", at: node.location)
            return nil
        }
        return text
    }

    private mutating func integer(_ node: JSONNode, _ what: String) -> Int? {
        guard case .number(let value, let text) = node.value, let integer = Int(exactly: value),
            !text.contains(".") || value == value.rounded()
        else {
            report("\(what) must be a whole number; found \(node.kindName)", at: node.location)
            return nil
        }
        return integer
    }

    package mutating func choice<T: RawRepresentable & CaseIterable>(_ node: JSONNode, _ what: String, _: T.Type)
        -> T? where T.RawValue == String
    {
        guard let text = string(node, what) else { return nil }
        if let value = T(rawValue: text) { return value }
        let names = T.allCases.map(\.rawValue)
        report(
            "\(what) cannot be \(quoted(text))" + Suggestion.hint(for: text, among: names, noun: "values"),
            at: node.location)
        return nil
    }

    package mutating func typeRef(_ node: JSONNode) -> TypeRef? {
        guard let text = string(node, "a type") else { return nil }
        switch TypeRef.parse(text) {
        case .success(let type): return type
        case .failure(let error):
            report(error.message, at: node.location)
            return nil
        }
    }

    private mutating func duration(_ node: JSONNode) -> Int? {
        switch node.value {
        case .number(let value, let text):
            if let seconds = Int(exactly: value), seconds >= 0 { return seconds }
            report(SpecDuration.invalid(text), at: node.location)
        case .string(let text):
            if let seconds = SpecDuration.seconds(text) { return seconds }
            report(SpecDuration.invalid(quoted(text)), at: node.location)
        default:
            report(SpecDuration.invalid(node.kindName), at: node.location)
        }
        return nil
    }

    /// An endpoint's `"server"` as generated code and cache keys hold it (scheme and host
    /// lower-case, no trailing `/`), or `nil` when it is not an absolute http or https URL
    /// without a query, a fragment or a `{variable}`.
    package static func canonicalServer(_ text: String) -> String? {
        guard isAbsoluteHTTPURL(text), !text.contains(where: { "?#{}".contains($0) }) else { return nil }
        var server = text
        while server.hasSuffix("/") { server.removeLast() }
        guard let schemeEnd = server.range(of: "://") else { return nil }
        let hostEnd = server[schemeEnd.upperBound...].firstIndex(of: "/") ?? server.endIndex
        return server[..<hostEnd].lowercased() + server[hostEnd...]
    }

    private static func isAbsoluteHTTPURL(_ text: String) -> Bool {
        guard let schemeEnd = text.range(of: "://") else { return false }
        let scheme = text[..<schemeEnd.lowerBound]
        let host = text[schemeEnd.upperBound...].prefix { $0 != "/" }
        return (scheme == "https" || scheme == "http") && !host.isEmpty && !text.contains(where: \.isWhitespace)
    }

    package mutating func report(_ message: String, at location: SourceLocation) {
        diagnostics.append(.error(message, at: location))
    }

    /// A parser with no diagnostics yet.
    package init() {}
}
