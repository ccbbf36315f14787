import CacheGenReading
import CacheGenSpec

/// Path, query and header parameters: the path item's and the operation's merged, typed
/// by their schemas (or the schema of their `content`, sent as JSON text); cookies are left out.
package enum OpenAPIParameters {
    /// Headers OpenAPI says a document's parameters cannot set.
    package static let ignoredHeaders: Set<String> = ["accept", "content-type", "authorization"]

    /// The operation's parameters; `nil` when a required one cannot be sent, so the
    /// operation is left out.
    package static func read(
        of operation: JSONNode, shared: [(node: JSONNode, file: String)], path: JSONMember, what: String, name: String,
        file: String, context: inout OpenAPIOperationContext
    ) -> [Parameter]? {
        var declared: [(node: JSONNode, file: String)] = []
        for (node, nodeFile) in shared + (operation["parameters"]?.value.elements ?? []).map({ (node: $0, file: file) }) {
            guard let target = context.schemas.references.resolve(node, in: nodeFile, otherwise: "the parameter is left out of \(what)") else { continue }
            let key = (target.node["name"]?.value.stringValue, target.node["in"]?.value.stringValue)
            declared.removeAll { $0.node["name"]?.value.stringValue == key.0 && $0.node["in"]?.value.stringValue == key.1 }
            declared.append((target.node, target.file))
        }
        var parameters: [Parameter] = []
        for (node, parameterFile) in declared {
            guard let wireName = node["name"]?.value.stringValue, let place = node["in"]?.value.stringValue else { continue }
            let nameLocation = node["name"]?.value.location ?? node.location
            // A place the specification does not name is quoted, so the message stays on one line.
            let placeText = ["path", "query", "querystring", "header", "cookie"].contains(place) ? place : quoted(place)
            let label = "\(placeText) parameter \(quoted(wireName)) of \(what)"
            let required = place == "path" || node["required"]?.value.boolValue == true
            let kind: ParameterPlace
            switch place {
            case "path": kind = .path
            case "query": kind = .query
            case "header":
                if Self.ignoredHeaders.contains(wireName.lowercased()) { continue }
                kind = .header
            case "querystring":
                // OpenAPI 3.2: the whole query string as one value of its `content` type.
                let reason = "cachegen writes a query item by item, not as one serialized value (OpenAPI 3.2's querystring)"
                guard !required else {
                    context.leaveOut(what, "its required querystring parameter \(quoted(wireName)) cannot be sent: \(reason)", at: nameLocation)
                    return nil
                }
                context.warn("\(label) is left out: \(reason)", at: nameLocation)
                continue
            default:
                context.warn(
                    "\(label) is left out: send cookies through the client's headers provider",
                    at: nameLocation)
                continue
            }
            var mapped: OpenAPISchemas.Mapped
            let hint = SwiftNaming.typeName(name) + SwiftNaming.typeName(wireName)
            // `content`: one media type whose schema the value has, written as that type says:
            // JSON as JSON text, plain text as it is.
            var contentStyle: ParameterStyle?
            if let schema = node["schema"]?.value {
                mapped = context.schemas.type(of: schema, in: parameterFile, hint: hint)
            } else if let content = context.content(of: node["content"]?.value, file: parameterFile)?.members?.first {
                let isText = content.key.lowercased().hasPrefix("text/plain")
                if !OpenAPIMediaTypes.isJSON(content.key), !isText {
                    mapped = .leftOut("serialized as \(quoted(content.key)), which cachegen sends only as JSON or plain text")
                } else if let schema = content.value["schema"]?.value {
                    mapped = context.schemas.type(of: schema, in: parameterFile, hint: hint)
                } else {
                    mapped = .type(isText ? .scalar(.string) : .scalar(.json))
                }
                contentStyle = isText ? nil : .json
            } else {
                // Neither (as documents converted from Swagger 2 often have): text is what
                // any parameter is on the wire.
                mapped = .type(.scalar(.string))
            }
            switch mapped {
            case .type(let type):
                let location = node["schema"]?.value.location ?? nameLocation
                parameters.append(
                    Parameter(
                        name: Named(name: wireName, location: nameLocation), place: kind,
                        type: required || type.isOptional ? type : .optional(type), typeLocation: location,
                        style: node["schema"] == nil && node["content"] != nil ? contentStyle : Self.style(of: node, place: kind, type: type)))
            case .leftOut(let reason):
                guard !required else {
                    context.leaveOut(what, "its required \(place) parameter \(quoted(wireName)) is \(reason)", at: nameLocation)
                    return nil
                }
                context.warn("\(label) is left out: it is \(reason)", at: nameLocation)
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
        return distinctArguments(parameters, what: what, operation: name, context: &context)
    }

    /// How the document asks a parameter to be written (`style`, `explode`), where that
    /// differs from cachegen's own way: query arrays exploded (OpenAPI's default) or joined
    /// by spaces or `|`; query objects, dictionaries and any JSON as `deepObject`, exploded
    /// `form` (OpenAPI's default) or one text; path values as `label` or `matrix`. Headers are
    /// always `simple`, as are paths by default: arrays joined by commas, objects as one text,
    /// `k,v` or, exploded, `k=v`.
    package static func style(of node: JSONNode, place: ParameterPlace, type: TypeRef) -> ParameterStyle? {
        let style = node["style"]?.value.stringValue
        let (isObject, isArray): (Bool, Bool)
        switch type.unwrapped {
        case .model, .dictionary, .scalar(.json): (isObject, isArray) = (true, false)
        case .array: (isObject, isArray) = (false, true)
        default: (isObject, isArray) = (false, false)
        }
        switch place {
        case .query:
            guard isArray else {
                if style == "deepObject" { return .deepObject }
                // An enum or a union is one value, whatever the style says; only an object is
                // sent property by property, which the translator checks once models are built.
                guard isObject, style == nil || style == "form" else { return nil }
                return node["explode"]?.value.boolValue ?? true ? .formObject : .objectJoined
            }
            guard node["explode"]?.value.boolValue ?? (style == nil || style == "form") else {
                switch style {
                case "spaceDelimited": return .spaceDelimited
                case "pipeDelimited": return .pipeDelimited
                default: return nil
                }
            }
            return .repeated
        case .path:
            let explodedArray = isArray && node["explode"]?.value.boolValue == true
            switch style {
            case "label": return explodedArray ? .labelExploded : .label
            case "matrix": return explodedArray ? .matrixExploded : .matrix
            default: break
            }
            fallthrough
        case .header:
            // `simple`, the only style of a header and the default of a path.
            guard isObject else { return nil }
            return node["explode"]?.value.boolValue == true ? .objectPairs : .objectJoined
        }
    }

    /// The parameters, each a Swift argument of its own, as the validator requires, none
    /// dropped: the overlay's name when it gives one; a name ending in `<`, `>`, `<=` or `>=`
    /// whose plain name another parameter has becomes `…Before`, `…After`, `…OnOrBefore` or
    /// `…OnOrAfter`; a name with no letter or digit is spelled out, and a name still taken
    /// gets a number, each with a warning saying how to choose another. Required parameters
    /// claim their names first.
    private static func distinctArguments(
        _ parameters: [Parameter], what: String, operation: String, context: inout OpenAPIOperationContext
    ) -> [Parameter] {
        var result = parameters
        let plain = parameters.map { OpenAPINames.shortened(SwiftNaming.argumentName($0.name.name)) }
        var taken: Set<String> = []
        let requiredFirst = parameters.indices.filter { !parameters[$0].type.isOptional }
            + parameters.indices.filter { parameters[$0].type.isOptional }
        for index in requiredFirst {
            let parameter = parameters[index]
            let wire = parameter.name.name
            var base = plain[index]
            var isArbitrary = false
            if let rename = context.schemas.names.renamed(parameter: wire, of: operation) {
                base = rename
            } else if SwiftNaming.isNameless(wire) {
                base = OpenAPINames.spelled(wire)
                isArbitrary = true
            } else if let comparison = OpenAPINames.comparison(wire),
                plain.indices.contains(where: { $0 != index && plain[$0] == base })
            {
                base = OpenAPINames.shortened(SwiftNaming.argumentName(comparison.stem) + comparison.word)
            }
            let name = SwiftNaming.numbered(base) { taken.contains($0) }
            taken.insert(name)
            // The message is made only when there is a warning.
            let label = { "\(parameter.place.rawValue) parameter \(quoted(wire)) of \(what)" }
            let advice = { OpenAPINames.advice(parameter: wire, of: operation) }
            if isArbitrary {
                context.warn("\(label()) has no letter or digit to make a Swift name from, so it is the argument \(name); \(advice())", at: parameter.name.location)
            } else if name != base {
                context.warn("\(label()) becomes the argument \(base) like another parameter, so it is \(name); \(advice())", at: parameter.name.location)
            }
            if name != SwiftNaming.argumentName(wire) { result[index].swiftName = name }
        }
        return result
    }

    /// Parameters whose type nests (`ModelIndex.nests`: an array of objects, an object with
    /// an object inside), which no OpenAPI style writes as text, are sent as JSON text, the
    /// way the APIs that take them read them (Box's `mdfilters`, an array of filter objects).
    /// Other parameters cachegen cannot send as their style says (`ModelIndex.isSendable`: a
    /// flat object outside an exploded query, any JSON) are left out with a warning, an
    /// optional one alone, a required one with its operation. Run once the models are built,
    /// as only then is it known which models are enums, objects or unions of text.
    package static func textParameters(
        _ operations: [OpenAPIOperations.Operation], models: ModelIndex, diagnostics: inout [Diagnostic]
    ) -> [OpenAPIOperations.Operation] {
        operations.compactMap { operation in
            var operation = operation
            var keep: [Parameter] = []
            for var parameter in operation.endpoint.parameters {
                if models.isSendable(parameter) {
                    // An enum or a union in the query is one item, not one per property.
                    if parameter.style == .formObject || parameter.style == .objectJoined || parameter.style == .objectPairs,
                        models.isTextValue(parameter.type.unwrapped)
                    {
                        parameter.style = nil
                    }
                    keep.append(parameter)
                    continue
                }
                if models.nests(parameter.type) {
                    parameter.style = .json
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
