import CacheGenSpec

/// The private `Requests` enum of `Live…`: per endpoint, a function building its
/// `EndpointRequest` from the method's arguments: the path, the query items and headers,
/// each marked as in the cache key or not, and the body as its encoding says.
extension EndpointTranslator {
    /// The private `Requests` enum of `Live…`.
    package func requestsEnum(_ methods: [RepositoryMethod]) -> TypeDeclaration {
        TypeDeclaration(visibility: .hidden, kind: .enum, name: "Requests", members: methods.map { .function(requestBuilder($0)) })
    }

    private func requestBuilder(_ method: RepositoryMethod) -> FunctionDeclaration {
        let endpoint = method.endpoint
        let taken = Set(method.arguments.map { SwiftNaming.parameterValue($0.name) })
        let name = taken.contains("request") ? "request_" : "request"
        let local = Expression.identifier(name)
        let create = Expression.call(
            .identifier("EndpointRequest"),
            [.init(label: "method", value: .string(endpoint.method)), .init(label: "path", value: .string(endpoint.path))])
        var statements: [Statement] = []
        let cache = method.isCached ? endpoint.cache : nil
        for item in endpoint.fixedQuery {
            let arguments: [Expression.Argument] = [
                .init(value: .string(item.name)), .init(value: .string(item.value)),
                .init(label: "isKey", value: .literal(.boolean(cache != nil))),
            ]
            statements.append(.expression(.call(local.dot("addQuery"), arguments)))
        }
        for argument in method.arguments {
            guard let parameter = argument.parameter else {
                // The body's media type, when the caller names it, goes with the body.
                if argument.isContentType { continue }
                statements += bodyFlags(of: endpoint)
                let isKey = Expression.literal(.boolean(cache?.bodyInKey ?? false))
                let contentType = method.arguments.first(where: \.isContentType)?.value
                statements.append(.expression(bodySetter(endpoint.bodyEncoding, contentType: contentType, on: local, isKey: isKey)))
                continue
            }
            let wire = Expression.Argument(value: .string(parameter.name.name))
            let value = Expression.Argument(value: parameterValue(argument.value, type: parameter.type))
            let isKey = Expression.Argument(label: "isKey", value: .literal(.boolean(cache?.contains(parameter) ?? false)))
            if parameter.style == .json {
                // JSON text with the endpoint's coding, so dates read as in a body.
                let json = Expression.Argument(label: "json", value: argument.value)
                let coding = Expression.Argument(label: "coding", value: codingExpression)
                statements.append(Self.setter(parameter.place, on: local, [wire, json, coding], isKey: isKey, wrapping: .whenLong))
                continue
            }
            if parameter.style == .objectJoined || parameter.style == .objectPairs
                || (parameter.type.unwrapped == .scalar(.json) && (parameter.style == .formObject || parameter.style == .deepObject))
            {
                // An object (or any JSON) in the styles OpenAPI gives objects, written from its JSON.
                let style: String
                switch parameter.style {
                case .objectPairs?: style = "pairs"
                case .objectJoined?: style = "joined"
                case .deepObject?: style = "deepObject"
                default: style = "form"
                }
                let object = Expression.Argument(label: "object", value: argument.value)
                let arguments = [wire, object, .init(label: "style", value: .implicitMember(style)), .init(label: "coding", value: codingExpression)]
                statements.append(Self.setter(parameter.place, on: local, arguments, isKey: isKey, wrapping: .whenLong))
                continue
            }
            if parameter.style == .labelExploded || parameter.style == .matrixExploded {
                let style = Expression.Argument(label: "style", value: .implicitMember(parameter.style == .labelExploded ? "label" : "matrix"))
                let values = Expression.Argument(label: "exploding", value: value.value)
                statements.append(.expression(.call(local.dot("setPathParameter"), [wire, values, style])))
                continue
            }
            let isDeep = parameter.style == .deepObject
            if isDeep || parameter.style == .formObject {
                if let properties = context.models.objectProperties(parameter.type) {
                    // `filter[name]=value` (deepObject) or `name=value` (form), one item per
                    // property; a `nil` object or property sends none.
                    let object = parameter.type.isOptional ? Expression.optionalChaining(argument.value) : argument.value
                    for property in properties {
                        let member = object.dot(SwiftNaming.escaped(SwiftNaming.memberName(property.name.name)))
                        let item = Expression.Argument(value: .string(isDeep ? "\(parameter.name.name)[\(property.wireName)]" : property.wireName))
                        statements.append(.expression(.call(local.dot("addQuery"), [item, .init(value: member), isKey])))
                    }
                    continue
                }
                if case .dictionary = parameter.type.unwrapped {
                    // One item per entry, sorted by key: `metadata[key]=value` or `key=value`.
                    let style = Expression.Argument(label: "style", value: .implicitMember(isDeep ? "deepObject" : "form"))
                    statements.append(.expression(.call(local.dot("addQuery"), [wire, value, style, isKey])))
                    continue
                }
            }
            // A header has no style of its own: `simple`, arrays joined by commas.
            let style = parameter.place == .header ? nil : parameter.style.flatMap(Self.runtimeStyle)
            let styled = style.map { [Expression.Argument(label: "style", value: .implicitMember($0))] } ?? []
            statements.append(Self.setter(parameter.place, on: local, [wire, value] + styled, isKey: isKey))
        }
        let body: [Statement] = statements.isEmpty
            ? [.expression(create)]
            : [.variable(isMutable: true, name: name, value: create)] + statements + [.return(local)]
        return FunctionDeclaration(
            visibility: .none, isStatic: true, name: method.name,
            parameters: method.parameters(policy: .none, optionalDefaults: false), returnType: .named("EndpointRequest"),
            body: body)
    }

    /// The request's call that sets a parameter of `place`: `setPathParameter` (a path segment
    /// is never in the key on its own: the path is), `addQuery` or `addHeader` with `isKey`.
    private static func setter(
        _ place: ParameterPlace, on request: Expression, _ arguments: [Expression.Argument], isKey: Expression.Argument,
        wrapping: Expression.Wrapping = .never
    ) -> Statement {
        switch place {
        case .path: .expression(.call(request.dot("setPathParameter"), arguments, wrapping: wrapping))
        case .query: .expression(.call(request.dot("addQuery"), arguments + [isKey], wrapping: wrapping))
        case .header: .expression(.call(request.dot("addHeader"), arguments + [isKey], wrapping: wrapping))
        }
    }

    /// `var body = body` and `body.stream = true`, for each of the endpoint's `bodyFlags`
    /// that is a property of its body model; nothing when it has none.
    private func bodyFlags(of endpoint: EndpointSpec) -> [Statement] {
        guard case .model(let name)? = endpoint.body, case .object(let properties)? = context.models[name]?.kind else { return [] }
        let body = Expression.identifier("body")
        let assignments: [Statement] = endpoint.bodyFlags.compactMap { flag in
            guard let property = properties.first(where: { $0.wireName == flag }) else { return nil }
            return .assignment(body.dot(SwiftNaming.escaped(SwiftNaming.memberName(property.name.name))), .literal(.boolean(true)))
        }
        return assignments.isEmpty ? [] : [.variable(isMutable: true, name: "body", value: body)] + assignments
    }

    /// The runtime's name for a style: `EndpointRequest.QueryArrayStyle` or `.PathStyle`.
    package static func runtimeStyle(_ style: ParameterStyle) -> String? {
        switch style {
        case .deepObject, .formObject, .json, .objectJoined, .objectPairs, .labelExploded, .matrixExploded: nil
        case .repeated: "repeated"
        case .spaceDelimited: "spaceDelimited"
        case .pipeDelimited: "pipeDelimited"
        case .label: "label"
        case .matrix: "matrix"
        }
    }

    /// The call attaching the `body` argument as its encoding says; `contentType` is the
    /// argument naming its media type, when the caller names it.
    private func bodySetter(_ encoding: BodyEncoding, contentType: Expression?, on request: Expression, isKey: Expression) -> Expression {
        var arguments: [Expression.Argument] = [.init(value: .identifier("body"))]
        let setter: String
        switch encoding.kind {
        case .json: setter = "setJSONBody"
        case .form, .multipart:
            setter = encoding.kind == .form ? "setFormBody" : "setMultipartBody"
            if !encoding.fields.isEmpty {
                arguments.append(.init(label: "fields", value: .array(encoding.fields.map(bodyField))))
            }
        case .binary, .text:
            setter = encoding.kind == .binary ? "setDataBody" : "setTextBody"
            let fixed = Expression.string(encoding.mediaType)
            arguments.append(.init(label: "contentType", value: contentType.map { .infix($0, "??", fixed) } ?? fixed))
        }
        arguments.append(.init(label: "isKey", value: isKey))
        return .call(request.dot(setter), arguments, wrapping: .whenLong)
    }

    /// `BodyField("name", style: .form, explode: false)` for one property's encoding.
    private func bodyField(_ field: BodyEncoding.Field) -> Expression {
        var arguments: [Expression.Argument] = [.init(value: .string(field.name.name))]
        if let style = field.style { arguments.append(.init(label: "style", value: .implicitMember(style.rawValue))) }
        if let explode = field.explode { arguments.append(.init(label: "explode", value: .literal(.boolean(explode)))) }
        if let contentType = field.contentType { arguments.append(.init(label: "contentType", value: .string(contentType))) }
        return .call(.identifier("BodyField"), arguments)
    }

    /// Arrays and dictionaries of enums are sent as their raw values.
    private func parameterValue(_ value: Expression, type: TypeRef) -> Expression {
        let collection = type.isOptional ? Expression.optionalChaining(value) : value
        switch type.unwrapped {
        case .array(.model(let model)) where context.models.isEnum(model):
            return .call(collection.dot("map"), [.init(value: .keyPath("rawValue"))])
        case .dictionary(.model(let model)) where context.models.isEnum(model):
            return .call(collection.dot("mapValues"), [.init(value: .keyPath("rawValue"))])
        default:
            return value
        }
    }
}
