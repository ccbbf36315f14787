import CacheGenSpec

/// Paged endpoints: for each cached endpoint with a paging rule, a method that returns its
/// pages as `CachedPages`.
///
/// Cursor, page and offset paging call the protocol's own method once per page, so the
/// method is in an extension of the protocol and `Live…`, `Mock…` and an app's own
/// conformances all page. Link paging needs each response's `Link` header, which the
/// protocol's methods do not return: its `…Pages` method is a requirement of the protocol,
/// which `Live…` answers through the client (`CachedClient.linkedPages`) and `Mock…` with
/// one page from its handler.
///
/// A paged endpoint also gets a `…PagedQuery` factory (`pagedQueryFactory(_:)`), a
/// `CachedPagedQuery` over its `…Pages` method, which `QueryTranslator` places.
package struct PagingTranslator: Sendable {
    /// The spec (whether it makes pages), its model index and Swift types.
    private let context: TranslationContext

    /// A translator over `context`'s spec.
    package init(context: TranslationContext) {
        self.context = context
    }

    /// The extension, or `nil` for a repository without cursor, page or offset paging.
    package func pagesExtension(_ repository: Repository, _ methods: [RepositoryMethod]) -> TypeDeclaration? {
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
            var declaration = pagesDeclaration(method, response: response)
            declaration.body = [.expression(.call(.identifier("CachedPages"), arguments, wrapping: .whenLong))]
            return .function(declaration)
        }
        guard !members.isEmpty else { return nil }
        return TypeDeclaration(kind: .extension, name: SwiftNaming.typeName(repository.name.name), members: members)
    }

    /// The `…Pages` method of a paged endpoint, without a body: the method's arguments but the
    /// paging parameter (link paging keeps them all), optional ones defaulted, and the policy.
    private func pagesDeclaration(_ method: RepositoryMethod, response: SwiftType, visibility: Visibility = .api)
        -> FunctionDeclaration
    {
        var parameters = pagesArguments(method).map { argument in
            var declaration = argument.declaration
            if argument.isOptional { declaration.defaultValue = .literal(.nil) }
            return declaration
        }
        parameters.append(.init(name: "policy", type: .optional(.named("CachePolicy")), defaultValue: .literal(.nil)))
        return FunctionDeclaration(
            doc: [
                "The pages of `\(method.baseName)`, first to last, each fresh or from the cache with its date;",
                "every page is cached under its own key. See `CachedPages`.",
            ],
            visibility: visibility,
            name: SwiftNaming.escaped(method.baseName + "Pages"),
            parameters: parameters,
            returnType: .generic("CachedPages", [response]))
    }

    /// The method's arguments that its `…Pages` method takes: all but the paging parameter.
    private func pagesArguments(_ method: RepositoryMethod) -> [RepositoryMethod.Argument] {
        let pagingArgument: String? =
            switch method.endpoint.paging?.kind {
            case .cursor(_, let parameter)?, .page(let parameter)?, .offset(let parameter, _)?: parameter.name
            case .link?, nil: nil
            }
        return method.arguments.filter { $0.parameter == nil || $0.parameter?.name.name != pagingArgument }
    }

    /// The `…Pages` method of a cached endpoint with link paging, for the protocol (`body` nil),
    /// `Live…` (through the client) or `Mock…` (one page from its handler); `nil` for others.
    package func linkPages(_ method: RepositoryMethod, in place: LinkPagesPlace) -> FunctionDeclaration? {
        guard context.spec.constructs.pages, method.isCached, method.linkRelation != nil, let response = method.responseType else { return nil }
        var declaration = pagesDeclaration(method, response: response, visibility: place == .requirement ? .none : .api)
        // As the protocol's other requirements: no defaults (the extension has the short form).
        declaration.parameters = declaration.parameters.map { parameter in
            var parameter = parameter
            parameter.defaultValue = nil
            return parameter
        }
        switch place {
        case .requirement:
            break
        case .live:
            let request = Expression.call(Expression.identifier("Requests").dot(method.name), method.forwardedArguments, wrapping: .whenLong)
            let call = Expression.call(
                Expression.selfValue.dot("client").dot("linkedPages"),
                [
                    .init(label: "for", value: request), .init(label: "endpoint", value: method.endpointConstant),
                    .init(label: "policy", value: .identifier("policy")),
                ],
                wrapping: .whenLong)
            declaration.body = [.expression(call)]
        case .mock:
            declaration.doc = ["One page: the value of `\(method.baseName)Handler`."]
            let forwarded = method.forwardedArguments + [.init(label: "policy", value: .identifier("policy"))]
            let first = Expression.Closure(body: [.expression(.try(.await(.call(Expression.selfValue.dot(method.name), forwarded))))])
            let next = Expression.Closure(parameters: ["_"], body: [.expression(.literal(.nil))])
            let hasNext = Expression.Closure(parameters: ["_"], body: [.expression(.literal(.boolean(false)))])
            declaration.body = [
                .expression(
                    .call(
                        .identifier("CachedPages"),
                        [
                            .init(label: "first", value: .closure(first)), .init(label: "next", value: .closure(next)),
                            .init(label: "hasNext", value: .closure(hasNext)),
                        ],
                        wrapping: .whenLong))
            ]
        }
        return declaration
    }

    /// The short form of a link-paged endpoint's `…Pages` requirement, for the protocol's
    /// extension: the required arguments only, the optional ones and the policy `nil`.
    package func linkPagesShorthand(_ method: RepositoryMethod) -> FunctionDeclaration? {
        guard var declaration = linkPages(method, in: .requirement) else { return nil }
        let required = method.arguments.filter { !$0.isOptional }
        declaration.doc = ["Calls `\(method.baseName)Pages` without the optional arguments, with the spec's policy."]
        declaration.visibility = .api
        declaration.parameters = required.map(\.declaration)
        let forwarded =
            method.forwarding(omittingOptionals: true) + [.init(label: "policy", value: .literal(.nil))]
        declaration.body = [.expression(.call(Expression.selfValue.dot(declaration.name), forwarded, wrapping: .whenLong))]
        return declaration
    }

    /// Where a link-paged endpoint's `…Pages` method goes.
    package enum LinkPagesPlace {
        case requirement, live, mock
    }

    /// The paged live query factory of a paged endpoint, for the query extension: a
    /// `CachedPagedQuery` over its `…Pages` method.
    package func pagedQueryFactory(_ method: RepositoryMethod) -> FunctionDeclaration? {
        guard context.spec.constructs.pages, method.isCached, method.endpoint.paging != nil, let response = method.responseType,
            let responseRef = method.endpoint.response
        else { return nil }
        if case .cursor(let path, _)? = method.endpoint.paging?.kind, cursorKeyPath(path, in: responseRef) == nil { return nil }
        let pages = pagesDeclaration(method, response: response)
        let parameters = Array(pages.parameters.dropLast())
        let forwarded =
            pagesArguments(method).map { Expression.Argument(label: SwiftNaming.callLabel($0.name), value: $0.value) }
            + [.init(label: "policy", value: .identifier("policy"))]
        let pagesCall = Expression.call(Expression.selfValue.dot(pages.name), forwarded)
        let (item, items) = pageItems(responseRef, response: response)
        let query = Expression.call(
            .identifier("CachedPagedQuery"),
            [
                .init(label: "pages", value: .closure(.init(parameters: ["policy"], body: [.expression(pagesCall)]))),
                .init(label: "items", value: items),
            ],
            wrapping: .whenLong)
        return FunctionDeclaration(
            doc: [
                "`\(method.baseName)` as a paged live query for a \"load more\" list: the items of every page",
                "loaded, `hasMore` and `loadMore()`; a refetch after an invalidation starts again from",
                "the first page. See `CachedPagedQuery`.",
            ],
            name: SwiftNaming.escaped(method.baseName + "PagedQuery"),
            parameters: parameters,
            returnType: .generic("CachedPagedQuery", [response, item]),
            body: [.expression(query)])
    }

    /// The items of a page: an array's elements; the one array property of an object model
    /// (`items`, `data`, `results`); otherwise the page itself is the one item.
    private func pageItems(_ page: TypeRef, response: SwiftType) -> (item: SwiftType, items: Expression) {
        if case .array(let element) = page {
            return (context.swiftType(element), .closure(.init(body: [.expression(.identifier("$0"))])))
        }
        if case .model(let name) = page, case .object(let properties)? = context.models[name]?.kind {
            let arrays = properties.filter { if case .array = $0.type { true } else { false } }
            if arrays.count == 1, case .array(let element) = arrays[0].type {
                return (context.swiftType(element), .keyPath(SwiftNaming.escaped(SwiftNaming.memberName(arrays[0].name.name))))
            }
        }
        return (response, .closure(.init(body: [.expression(.array([.identifier("$0")]))])))
    }

    /// `pageInfo?.endCursor`: the Swift key path of a validated cursor path, optional steps chained.
    private func cursorKeyPath(_ path: [String], in response: TypeRef?) -> String? {
        guard var type = response else { return nil }
        var text = ""
        for step in path {
            guard case .model(let name) = type.unwrapped, case .object(let properties)? = context.models[name]?.kind,
                let property = properties.first(where: { $0.wireName == step || $0.name.name == step })
            else { return nil }
            if !text.isEmpty { text += type.isOptional ? "?." : "." }
            text += SwiftNaming.escaped(SwiftNaming.memberName(property.name.name))
            type = property.type
        }
        return text
    }
}
