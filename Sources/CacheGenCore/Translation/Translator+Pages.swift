/// Paged endpoints: for each cached endpoint with a cursor, page or offset rule, one method in
/// an extension of the repository protocol that returns its pages as `CachedPages`, calling
/// the protocol's own method once per page (so `Live…`, `Mock…` and an app's own conformances
/// all page). Link paging needs the response's headers, which the protocol's methods do not
/// return; it has no generated method yet.
extension Translator {
    /// The extension, or `nil` for a repository without such endpoints.
    func pagesExtension(_ repository: Repository, _ methods: [Method]) -> TypeDeclaration? {
        let members = methods.compactMap { method -> Declaration? in
            guard method.isCached, let paging = method.endpoint.paging, let response = method.responseType else { return nil }
            let pagingArgument: String
            let initLabel: String
            var keyPath: String?
            switch paging.kind {
            case .link:
                return nil
            case .cursor(let path, let parameter):
                guard let text = cursorKeyPath(path, in: method.endpoint.response) else { return nil }
                keyPath = text
                pagingArgument = parameter.name
                initLabel = "load"
            case .page(let parameter):
                pagingArgument = parameter.name
                initLabel = "pageNumbers"
            case .offset(let parameter, _):
                pagingArgument = parameter.name
                initLabel = "offsets"
            }
            let closureParameter = "next"
            let forwarded = method.arguments.map { argument -> Expression.Argument in
                let value = argument.parameter?.name.name == pagingArgument ? Expression.identifier(closureParameter) : argument.value
                return Expression.Argument(label: SwiftNaming.callLabel(argument.name), value: value)
            } + [.init(label: "policy", value: .identifier("policy"))]
            let call = Expression.call(Expression.selfValue.dot(method.name), forwarded)
            let closure = Expression.Closure(parameters: [closureParameter], body: [.expression(.try(.await(call)))])
            var arguments: [Expression.Argument] = []
            if let keyPath { arguments.append(.init(label: "cursor", value: .keyPath(keyPath))) }
            arguments.append(.init(label: initLabel, value: .closure(closure)))
            var parameters = method.arguments.filter { $0.parameter?.name.name != pagingArgument }.map { argument in
                var declaration = argument.declaration
                if argument.isOptional { declaration.defaultValue = .literal(.nil) }
                return declaration
            }
            parameters.append(.init(name: "policy", type: .optional(.named("CachePolicy")), defaultValue: .literal(.nil)))
            return .function(
                FunctionDeclaration(
                    doc: [
                        "The pages of `\(method.baseName)`, first to last, each fresh or from the cache with its date;",
                        "every page is cached under its own key. See `CachedPages`.",
                    ],
                    name: SwiftNaming.escaped(method.baseName + "Pages"),
                    parameters: parameters,
                    returnType: .generic("CachedPages", [response]),
                    body: [.expression(.call(.identifier("CachedPages"), arguments, wrapping: .whenLong))]))
        }
        guard !members.isEmpty else { return nil }
        return TypeDeclaration(kind: .extension, name: SwiftNaming.typeName(repository.name.name), members: members)
    }

    /// `pageInfo?.endCursor`: the Swift key path of a validated cursor path, optional steps chained.
    private func cursorKeyPath(_ path: [String], in response: TypeRef?) -> String? {
        guard var type = response else { return nil }
        var text = ""
        for step in path {
            guard case .model(let name) = type.unwrapped, case .object(let properties)? = models[name]?.kind,
                let property = properties.first(where: { $0.wireName == step || $0.name.name == step })
            else { return nil }
            if !text.isEmpty { text += type.isOptional ? "?." : "." }
            text += SwiftNaming.escaped(SwiftNaming.memberName(property.name.name))
            type = property.type
        }
        return text
    }
}
