/// Path, query and header parameters: the path item's and the operation's merged, typed
/// by their schemas; cookies and `content`-serialized parameters are left out.
extension OpenAPIOperations {
    /// Headers OpenAPI says a document's parameters cannot set.
    static let ignoredHeaders: Set<String> = ["accept", "content-type", "authorization"]

    /// The operation's parameters; `nil` when a required one cannot be sent, so the
    /// operation is left out.
    mutating func parameters(
        of operation: JSONNode, shared: [JSONNode], path: JSONMember, what: String, name: String, file: String
    ) -> [Parameter]? {
        var declared: [(node: JSONNode, file: String)] = []
        for node in shared + (operation["parameters"]?.value.elements ?? []) {
            guard let target = schemas.references.resolve(node, in: file) else { continue }
            let key = (target.node["name"]?.value.stringValue, target.node["in"]?.value.stringValue)
            declared.removeAll { $0.node["name"]?.value.stringValue == key.0 && $0.node["in"]?.value.stringValue == key.1 }
            declared.append((target.node, target.file))
        }
        var parameters: [Parameter] = []
        for (node, parameterFile) in declared {
            guard let wireName = node["name"]?.value.stringValue, let place = node["in"]?.value.stringValue else { continue }
            let nameLocation = node["name"]?.value.location ?? node.location
            let label = "\(place) parameter \(quoted(wireName)) of \(what)"
            let required = place == "path" || node["required"]?.value.boolValue == true
            let kind: ParameterPlace
            switch place {
            case "path": kind = .path
            case "query": kind = .query
            case "header":
                if Self.ignoredHeaders.contains(wireName.lowercased()) { continue }
                kind = .header
            default:
                warn(
                    "\(label) is left out: send cookies through the client's headers provider",
                    at: nameLocation)
                continue
            }
            let mapped: OpenAPISchemas.Mapped
            if let schema = node["schema"]?.value {
                mapped = schemas.type(of: schema, in: parameterFile, hint: SwiftNaming.typeName(name) + SwiftNaming.typeName(wireName))
            } else {
                mapped = .leftOut("serialized as \"content\", which cachegen does not send")
            }
            switch mapped {
            case .type(let type):
                let location = node["schema"]?.value.location ?? nameLocation
                if kind == .query, case .array = type.unwrapped, node["explode"]?.value.boolValue != false {
                    warn(
                        "\(label) is sent as one comma-separated item (\(wireName)=a,b); the document asks for one item per value (\(wireName)=a&\(wireName)=b), which cachegen does not send yet",
                        at: nameLocation)
                }
                parameters.append(
                    Parameter(
                        name: Named(name: wireName, location: nameLocation), place: kind,
                        type: required || type.isOptional ? type : .optional(type), typeLocation: location))
            case .leftOut(let reason):
                guard !required else {
                    leaveOut(what, "its required \(place) parameter \(quoted(wireName)) is \(reason)", at: nameLocation)
                    return nil
                }
                warn("\(label) is left out: it is \(reason)", at: nameLocation)
            }
        }
        for segment in PathTemplate.parameterNames(path.key) where !segment.isEmpty {
            if !parameters.contains(where: { $0.place == .path && $0.name.name == segment }) {
                parameters.append(
                    Parameter(
                        name: Named(name: segment, location: path.keyLocation), place: .path, type: .scalar(.string),
                        typeLocation: path.keyLocation))
            }
        }
        return distinctArguments(parameters, what: what)
    }

    /// The parameters, each a Swift argument of its own, as the validator requires: one with no
    /// letter or digit, or whose argument name an earlier one took, is dropped with a warning
    /// when it is optional and leaves the operation out (`nil`) when it is required. Required
    /// parameters claim their names first, so an optional one never costs the operation.
    private mutating func distinctArguments(_ parameters: [Parameter], what: String) -> [Parameter]? {
        var taken: [String: Parameter] = [:]
        var dropped: Set<Int> = []
        let requiredFirst = parameters.indices.filter { !parameters[$0].type.isOptional }
            + parameters.indices.filter { parameters[$0].type.isOptional }
        for index in requiredFirst {
            let parameter = parameters[index]
            let argument = SwiftNaming.argumentName(parameter.name.name)
            let problem: String
            if SwiftNaming.isNameless(parameter.name.name) {
                problem = "has no letter or digit to name a Swift argument"
            } else if let first = taken[argument] {
                problem = "becomes the argument \(argument), like \(first.place.rawValue) parameter \(quoted(first.name.name))"
            } else {
                taken[argument] = parameter
                continue
            }
            let label = "\(parameter.place.rawValue) parameter \(quoted(parameter.name.name))"
            guard parameter.type.isOptional else {
                leaveOut(what, "its required \(label) \(problem)", at: parameter.name.location)
                return nil
            }
            warn("\(label) of \(what) is left out: it \(problem)", at: parameter.name.location)
            dropped.insert(index)
        }
        return parameters.indices.filter { !dropped.contains($0) }.map { parameters[$0] }
    }

    /// Parameters whose type cannot be sent as text (objects, nested arrays): an optional
    /// one is dropped with a warning, a required one leaves its operation out. Run once
    /// the models are built, as only then is it known which models are enums.
    static func textParameters(_ operations: [Operation], models: ModelIndex, diagnostics: inout [Diagnostic]) -> [Operation] {
        operations.compactMap { operation in
            var operation = operation
            var keep: [Parameter] = []
            for parameter in operation.endpoint.parameters {
                var type = parameter.type.unwrapped
                if parameter.place == .query, case .array(let element) = type { type = element.unwrapped }
                if models.isTextValue(type) {
                    keep.append(parameter)
                    continue
                }
                let label = "\(parameter.place.rawValue) parameter \(quoted(parameter.name.name))"
                // An event stream's method shares its operation's parameters and its warnings.
                let what = "operation \(quoted(operation.streamOf ?? operation.endpoint.name.name))"
                if parameter.type.isOptional {
                    diagnostics.append(
                        .warning("\(label) of \(what) is left out: its type \(parameter.type) cannot be sent as text", at: parameter.name.location))
                } else {
                    diagnostics.append(
                        .warning("\(what) is left out: its required \(label) has type \(parameter.type), which cannot be sent as text", at: parameter.name.location))
                    return nil
                }
            }
            operation.endpoint.parameters = keep
            return operation
        }
    }
}
