import CacheGenReading

/// The semantic rules of spec version 1, one method per rule, every problem collected.
///
/// Runs on what `SpecParser` produced; structural problems were reported there.
package struct SpecValidator {
    package let spec: Spec
    package let models: ModelIndex
    private(set) var diagnostics: [Diagnostic] = []

    /// Swift and Foundation names a model may not take: the generated code would not
    /// compile, or would quietly shadow the real type.
    package static let reservedTypeNames: Set<String> = [
        "Any", "AnyObject", "Array", "Bool", "Character", "Codable", "Data", "Date", "Decimal", "Decodable",
        "Dictionary", "Double", "Encodable", "Equatable", "Error", "Float", "Hashable", "Identifiable", "Int",
        "Int64", "JSONDecoder", "JSONEncoder", "Locale", "Never", "Optional", "Result", "Self", "Sendable",
        "Set", "String", "Task", "TimeInterval", "Type", "URL", "UUID", "Void", "Foundation", "Calendar",
        "TimeZone", "Error", "Protocol",
        // The runtime's names, which generated code uses unqualified.
        "CachedClientRuntime", "CachedValue", "CachePolicy", "CacheScope", "CacheRule", "CachedClient",
        "CacheStore", "CacheEntry", "CacheKey", "Endpoint", "EndpointRequest", "JSONCoding", "HTTPTransport",
        "CachedClientError", "CacheEvent", "AsyncThrowingStream", "Invalidation", "Indirect", "MockNotImplemented",
        "MockStream", "CachedQuery", "RetryRule", "CachedPages", "WireKey", "JSONValue", "MultipartFile", "BodyField",
        // Protocols and nested types generated code names unqualified.
        "CaseIterable", "CodingKey", "CodingKeys", "RawRepresentable", "Endpoints", "Requests", "Decoder",
        "Encoder",
    ]

    /// The methods a spec may name; an OpenAPI document's other methods are `methodIsExtension`.
    package static let methods: Set<String> = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "QUERY"]

    /// The Swift type a built-in type word stands for, for messages.
    package static func builtInSwiftName(_ scalar: TypeRef.Scalar) -> String {
        switch scalar {
        case .string: "String"
        case .int: "Int"
        case .double: "Double"
        case .bool: "Bool"
        case .date: "Date"
        case .url: "URL"
        case .uuid: "UUID"
        case .json: "JSONValue"
        case .data: "Data"
        case .file: "MultipartFile"
        }
    }

    package init(spec: Spec) {
        self.spec = spec
        models = ModelIndex(spec)
    }

    /// Runs every rule.
    package mutating func validate() -> [Diagnostic] {
        checkTypeNames()
        for model in spec.models {
            switch model.kind {
            case .object(let properties):
                checkProperties(properties, of: model)
                if let extra = model.additionalProperties { checkTypeReference(extra.type, at: extra.location) }
            case .enumeration(let values): checkEnumValues(values, of: model)
            case .taggedUnion(let union): checkTaggedUnion(union, of: model)
            case .untaggedUnion(let cases): checkUntaggedUnion(cases)
            }
        }
        for repository in spec.repositories {
            checkEndpointNames(repository)
            for endpoint in repository.endpoints {
                checkMethodAndPath(endpoint)
                checkParameters(endpoint)
                checkTypes(endpoint)
                checkBodyEncoding(endpoint)
                checkCacheRule(endpoint)
                checkOffline(endpoint)
                checkChannel(endpoint)
                checkMultipartResponse(endpoint)
                checkInvalidates(endpoint, in: repository)
                checkPaging(endpoint)
            }
        }
        checkSelection()
        return diagnostics
    }

    // MARK: - Rules

    /// Models and repositories become types: names must be free and distinct.
    private mutating func checkTypeNames() {
        var seen: [String: Named] = [:]
        // A model named like a built-in type word (`file`, `json`) would be declared but never
        // used: that word in a type is the built-in. (`data`, `date`, `string`, … become Swift
        // names that are reserved, so they are reported as such below.)
        for model in spec.models {
            guard let scalar = TypeRef.Scalar(rawValue: model.name.name) else { continue }
            let swiftName = SwiftNaming.typeName(model.name.name)
            guard !Self.reservedTypeNames.contains(swiftName) else { continue }
            // `File`, unless another model has that Swift name already.
            let taken = spec.models.contains { $0.name.name != model.name.name && SwiftNaming.typeName($0.name.name) == swiftName }
            let suggestion = taken ? "Api" + swiftName : swiftName
            report(
                "model \(quoted(model.name.name)) has the name of the built-in type \(scalar.rawValue) (\(Self.builtInSwiftName(scalar))), which is what \(quoted(scalar.rawValue)) means in a type; rename the model, for example to \(quoted(suggestion))",
                at: model.name.location)
        }
        var declared: [Named] = spec.models.map(\.name)
        for repository in spec.repositories {
            declared.append(repository.name)
            declared.append(Named(name: "Live" + repository.name.name, location: repository.name.location))
            declared.append(Named(name: "Mock" + repository.name.name, location: repository.name.location))
        }
        for name in declared {
            let swiftName = SwiftNaming.typeName(name.name)
            if SwiftNaming.isNameless(name.name) {
                report(Self.nameless(name.name, "type"), at: name.location)
            } else if Self.reservedTypeNames.contains(swiftName) {
                report(
                    "\(quoted(name.name)) clashes with \(swiftName), a name Swift, Foundation or the generated code already uses; rename it, for example to \"Api\(swiftName)\"",
                    at: name.location)
            } else if let first = seen[swiftName] {
                report(
                    "\(quoted(name.name)) becomes the Swift type \(swiftName), like \(quoted(first.name)) at \(first.location.line):\(first.location.column); rename one of them",
                    at: name.location)
            } else {
                seen[swiftName] = name
            }
        }
    }

    private mutating func checkEndpointNames(_ repository: Repository) {
        if repository.endpoints.isEmpty {
            warn("repository \(quoted(repository.name.name)) has no endpoints", at: repository.name.location)
        }
        var methods: [String: Named] = [:]
        for endpoint in repository.endpoints {
            if endpoint.swiftName == nil, SwiftNaming.isNameless(endpoint.name.name) {
                report(Self.nameless(endpoint.name.name, "method"), at: endpoint.name.location)
                continue
            }
            var names = [endpoint.swiftName ?? SwiftNaming.memberName(endpoint.name.name)]
            if endpoint.cache != nil, endpoint.returnsValue { names += [names[0] + "Stream", names[0] + "Query"] }
            if let name = names.first(where: { methods[$0] != nil }), let first = methods[name] {
                report(
                    "endpoint \(quoted(endpoint.name.name)) becomes the method \(name), like \(quoted(first.name)) at \(first.location.line):\(first.location.column); rename one of them",
                    at: endpoint.name.location)
            }
            for name in names where methods[name] == nil { methods[name] = endpoint.name }
        }
    }

    private mutating func checkMethodAndPath(_ endpoint: EndpointSpec) {
        if !Self.methods.contains(endpoint.method), !endpoint.methodIsExtension {
            report(
                "unknown HTTP method \(quoted(endpoint.method)); use one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS, QUERY",
                at: endpoint.methodLocation)
        }
        if let problem = PathTemplate.problem(endpoint.path) {
            report(problem, at: endpoint.pathLocation)
        }
        var seen: Set<String> = []
        for name in PathTemplate.parameterNames(endpoint.path) where !name.isEmpty {
            if !seen.insert(name).inserted {
                report("path \(quoted(endpoint.path)) uses \"{\(name)}\" twice", at: endpoint.pathLocation)
            }
        }
        if endpoint.method == "GET" || endpoint.method == "HEAD", endpoint.body != nil {
            report(
                "\(endpoint.method) endpoint \(quoted(endpoint.name.name)) cannot have a body; send it as query items",
                at: endpoint.bodyLocation ?? endpoint.name.location)
        }
    }

    /// Parameters become Swift arguments: valid kinds of type, no two with one Swift name.
    private mutating func checkParameters(_ endpoint: EndpointSpec) {
        var swiftNames: [String: Parameter] = [:]
        for parameter in endpoint.parameters {
            checkTypeReference(parameter.type, at: parameter.typeLocation)
            checkParameterType(parameter)
            let swiftName = parameter.swiftName ?? SwiftNaming.argumentName(parameter.name.name)
            if parameter.swiftName == nil, SwiftNaming.isNameless(parameter.name.name) {
                report(Self.nameless(parameter.name.name, "argument"), at: parameter.name.location)
            } else if let first = swiftNames[swiftName] {
                report(
                    "\(parameter.place.rawValue) parameter \(quoted(parameter.name.name)) becomes the argument \(swiftName), like \(first.place.rawValue) parameter \(quoted(first.name.name)) at \(first.name.location.line):\(first.name.location.column); the generated method cannot take both",
                    at: parameter.name.location)
            } else {
                swiftNames[swiftName] = parameter
            }
        }
    }

    private mutating func checkParameterType(_ parameter: Parameter) {
        // Built only for a message: most parameters are fine.
        let where_ = { "\(parameter.place.rawValue) parameter \(quoted(parameter.name.name))" }
        var type = parameter.type
        if case .optional(let wrapped) = type {
            if parameter.place == .path {
                report("\(where_()) cannot be optional: every path segment needs a value", at: parameter.typeLocation)
                return
            }
            type = wrapped
        }
        if case .array(let element) = type {
            type = element
        }
        guard isParameterScalar(type) || models.isSendable(parameter) else {
            report(
                "\(where_()) has type \(parameter.type), which cannot be sent as text; use a scalar, an enum model or an array of them, or send it as JSON text with { \"type\": …, \"style\": \"json\" }",
                at: parameter.typeLocation)
            return
        }
    }

    /// Like `ModelIndex.isTextValue`, but an undeclared model passes: checkTypeReference reports it.
    private func isParameterScalar(_ type: TypeRef) -> Bool {
        if case .model(let name) = type, !models.contains(name) { return true }
        return models.isTextValue(type)
    }

    private mutating func checkTypes(_ endpoint: EndpointSpec) {
        if let body = endpoint.body {
            checkTypeReference(body, at: endpoint.bodyLocation ?? endpoint.name.location)
        }
        if let response = endpoint.response {
            checkTypeReference(response, at: endpoint.responseLocation ?? endpoint.name.location)
        }
    }

    /// A body's type fits its encoding: form and multipart bodies are object models,
    /// binary bodies `data`, text bodies `string`; `contentType` and `fields` only where
    /// they mean something, `fields` naming the model's properties.
    private mutating func checkBodyEncoding(_ endpoint: EndpointSpec) {
        guard let body = endpoint.body else { return }
        let encoding = endpoint.bodyEncoding
        let location = endpoint.bodyLocation ?? endpoint.name.location
        let what = "endpoint \(quoted(endpoint.name.name))"
        var properties: [Property]?
        switch encoding.kind {
        case .json: break
        case .form, .multipart:
            if case .model(let name) = body, case .object(let list)? = models[name]?.kind {
                properties = list
            } else if case .model(let name) = body, !models.contains(name) {
                break
            } else {
                report("the \(encoding.kind.rawValue) body of \(what) has type \(body); a \(encoding.kind.rawValue) body is an object model", at: location)
            }
        case .binary where body != .scalar(.data):
            report("the binary body of \(what) has type \(body); a binary body has type \"data\"", at: location)
        case .text where body != .scalar(.string):
            report("the text body of \(what) has type \(body); a text body has type \"string\"", at: location)
        case .binary, .text: break
        }
        if encoding.contentType != nil, encoding.kind != .binary, encoding.kind != .text {
            report(
                "\"contentType\" of the body of \(what) applies to binary and text bodies only; a \(encoding.kind.rawValue) body is sent as \(BodyEncoding(kind: encoding.kind).mediaType)",
                at: encoding.contentTypeLocation ?? location)
        }
        guard !encoding.fields.isEmpty else { return }
        guard encoding.kind == .form || encoding.kind == .multipart else {
            report(
                "\"fields\" of the body of \(what) apply to form and multipart bodies only",
                at: encoding.fields[0].name.location)
            return
        }
        guard let properties else { return }
        let names = properties.map(\.wireName)
        for field in encoding.fields where !names.contains(field.name.name) {
            report(
                "field \(quoted(field.name.name)) of the body of \(what) is not a property of \(body)"
                    + Suggestion.hint(for: field.name.name, among: names),
                at: field.name.location)
        }
    }

    private mutating func checkCacheRule(_ endpoint: EndpointSpec) {
        guard let cache = endpoint.cache else { return }
        let name = endpoint.name.name
        if endpoint.responseFormat.isStream {
            if cache.origin != .defaults {
                report(
                    "endpoint \(quoted(name)) streams its response (\"format\": \"\(endpoint.responseFormat.rawValue)\"), which is never cached; set \"cache\": false",
                    at: cache.location)
            }
            return
        }
        if !endpoint.returnsValue {
            if cache.origin != .defaults {
                report("endpoint \(quoted(name)) has no \"response\" to cache; add one or set \"cache\": false", at: cache.location)
            }
            return
        }
        // An unknown method is reported once, by checkMethodAndPath.
        if endpoint.method != "GET", Self.methods.contains(endpoint.method) || endpoint.methodIsExtension {
            if cache.origin != .object || !cache.bodyInKey {
                report(
                    "\(endpoint.method) endpoint \(quoted(name)) is cached only when its body is in the key; add \"body\" to \"cache\".\"key\" or set \"cache\": false",
                    at: cache.location)
            }
            if endpoint.body == nil, cache.bodyInKey {
                report("\(endpoint.method) endpoint \(quoted(name)) has no \"body\" to put in the key", at: cache.location)
            }
        }
        guard let key = cache.key else { return }
        var seen: Set<String> = []
        let names = endpoint.parameters.map(\.name.name) + (endpoint.body == nil ? [] : ["body"])
        for entry in key {
            if !seen.insert(entry.name).inserted {
                report("\"key\" lists \(quoted(entry.name)) twice", at: entry.location)
            } else if !names.contains(entry.name) {
                let hint = names.isEmpty
                    ? "; this endpoint has no parameters"
                    : Suggestion.hint(for: entry.name, among: names, noun: "names")
                report("\"key\" names \(quoted(entry.name)), which is not a parameter of \(quoted(name))" + hint, at: entry.location)
            }
        }
        for parameter in endpoint.parameters where parameter.place == .path && !seen.contains(parameter.name.name) {
            report(
                "\"key\" of \(quoted(name)) leaves out path parameter \(quoted(parameter.name.name)); add it, or two different resources would share one entry",
                at: cache.location)
        }
    }

    /// Only calls that change data invalidate, and only endpoints that cache something.
    private mutating func checkInvalidates(_ endpoint: EndpointSpec, in repository: Repository) {
        guard let first = endpoint.invalidates.first else { return }
        if endpoint.method == "GET" || endpoint.method == "HEAD" {
            report(
                "\(endpoint.method) endpoint \(quoted(endpoint.name.name)) cannot invalidate; only calls that change data (POST, PUT, PATCH, DELETE) do",
                at: first.location)
            return
        }
        if endpoint.responseFormat.isStream {
            report(
                "endpoint \(quoted(endpoint.name.name)) streams its response, so it cannot invalidate; remove \"invalidates\"",
                at: first.location)
            return
        }
        if endpoint.cache != nil, endpoint.returnsValue {
            report(
                "\(endpoint.method) endpoint \(quoted(endpoint.name.name)) is cached, so it cannot invalidate; set \"cache\": false or remove \"invalidates\"",
                at: first.location)
            return
        }
        let names = repository.endpoints.map(\.name.name)
        var seen: Set<String> = []
        for target in endpoint.invalidates {
            guard seen.insert(target.name).inserted else {
                report("\"invalidates\" lists \(quoted(target.name)) twice", at: target.location)
                continue
            }
            guard let other = repository.endpoints.first(where: { $0.name.name == target.name }) else {
                report(
                    "\"invalidates\" names \(quoted(target.name)), which is not an endpoint of \(repository.name.name)"
                        + Suggestion.hint(for: target.name, among: names, noun: "endpoints"),
                    at: target.location)
                continue
            }
            if other.cache == nil || !other.returnsValue {
                report(
                    "\"invalidates\" names \(quoted(target.name)), which is never cached; remove it from the list",
                    at: target.location)
            }
        }
    }

    // MARK: - Helpers

    /// The message for a name with no letter or digit to build a Swift name from.
    package static func nameless(_ name: String, _ what: String, advice: String = "rename it") -> String {
        "\(quoted(name)) has no letter or digit to make a Swift \(what) name from; \(advice)"
    }

    /// Model names in a type must be declared.
    package mutating func checkTypeReference(_ type: TypeRef, at location: SourceLocation) {
        switch type {
        case .scalar: return
        case .array(let inner), .dictionary(let inner), .optional(let inner):
            checkTypeReference(inner, at: location)
        case .model(let name):
            guard !models.contains(name) else { return }
            let candidates = spec.models.map(\.name.name) + TypeRef.Scalar.allCases.map(\.rawValue)
            var message = "unknown type \(quoted(name))"
            if let match = Suggestion.closest(to: name, in: candidates) {
                message += "; did you mean \(quoted(match))?"
            } else {
                message += "; declare it under \"models\" or use string, int, double, bool, date, url or uuid"
            }
            report(message, at: location)
        }
    }

    /// A warning: something the user loses, never a reason to stop.
    package mutating func warn(_ message: String, at location: SourceLocation) {
        diagnostics.append(.warning(message, at: location))
    }

    /// An error, once per message and place.
    package mutating func report(_ message: String, at location: SourceLocation) {
        // An operation's event stream shares its path: one problem, one error.
        let error = Diagnostic.error(message, at: location)
        guard !diagnostics.contains(error) else { return }
        diagnostics.append(error)
    }
}
