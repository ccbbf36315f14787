import CacheGenSpec

/// The `Live…` repository: each method sends its request through a `CachedClient`, with
/// the endpoint's constant and, for a mutation, the entries a success removes; its
/// `Endpoints` and `Requests` enums are `EndpointTranslator`'s.
package struct LiveRepositoryTranslator: Sendable {
    /// The spec (its server), its model index and Swift names.
    private let context: TranslationContext
    /// Makes the `Endpoints` and `Requests` enums.
    private let endpoints: EndpointTranslator
    /// Makes link-paged endpoints' `…Pages` methods.
    private let pages: PagingTranslator

    /// A translator over `context`'s spec, with the `endpoints` translator that holds its
    /// response shapes.
    package init(context: TranslationContext, endpoints: EndpointTranslator) {
        self.context = context
        self.endpoints = endpoints
        pages = PagingTranslator(context: context)
    }

    /// `Live…`, conforming to the repository's protocol.
    package func liveRepository(_ repository: Repository, _ methods: [RepositoryMethod]) -> TypeDeclaration {
        let name = SwiftNaming.typeName(repository.name.name)
        let client = Expression.selfValue.dot("client")
        var members: [Declaration] = [
            .property(
                PropertyDeclaration(
                    doc: ["Does the HTTP, the caching and the storage."], name: "client", type: .named("CachedClient"))),
            .function(
                FunctionDeclaration(
                    doc: ["Creates a repository that sends its requests through `client`."], name: "init",
                    parameters: [.init(name: "client", type: .named("CachedClient"))],
                    body: [.assignment(client, .identifier("client"))] + entityReaders(methods))),
        ]
        for method in methods {
            let request = Expression.call(
                Expression.identifier("Requests").dot(method.name), method.forwardedArguments, wrapping: .whenLong)
            let target = Expression.Argument(label: "endpoint", value: method.endpointConstant)
            if method.isEventStream {
                members.append(
                    .function(
                        FunctionDeclaration(
                            doc: method.doc, name: method.name,
                            parameters: method.parameters(policy: .none, optionalDefaults: false), returnType: method.returnType,
                            body: [
                                .expression(
                                    .call(client.dot("eventStream"), [.init(label: "for", value: request), target], wrapping: .whenLong))
                            ])))
                continue
            }
            let call: Expression
            if method.isCached {
                call = .call(
                    client.dot("value"), [.init(label: "for", value: request), target, .init(label: "policy", value: .identifier("policy"))],
                    wrapping: .whenLong)
            } else {
                var arguments: [Expression.Argument] = [.init(label: method.responseType == nil ? nil : "for", value: request), target]
                let invalidations = invalidations(of: method, in: repository)
                if !invalidations.isEmpty {
                    arguments.append(.init(label: "invalidating", value: .array(invalidations, wrapping: .whenLong)))
                }
                let function = method.isQueued
                    ? (method.responseType == nil ? "queueablePerform" : "queueableResponse")
                    : (method.responseType == nil ? "perform" : "response")
                call = .call(client.dot(function), arguments, wrapping: .whenLong)
            }
            members.append(
                .function(
                    FunctionDeclaration(
                        doc: method.doc, name: method.name,
                        parameters: method.parameters(policy: method.isCached ? .optional : .none, optionalDefaults: false),
                        isAsync: true, isThrowing: true, returnType: method.returnType,
                        body: [.expression(.try(.await(call)))])))
            if method.hasStream {
                members.append(
                    .function(
                        FunctionDeclaration(
                            doc: ["The stored value of `\(method.baseName)` first, if there is one, then the fresh one."],
                            name: method.streamName, parameters: method.parameters(policy: .none, optionalDefaults: false),
                            returnType: method.streamType,
                            body: [
                                .expression(
                                    .call(client.dot("updates"), [.init(label: "for", value: request), target], wrapping: .whenLong))
                            ])))
            }
            if let paged = pages.linkPages(method, in: .live) { members.append(.function(paged)) }
        }
        members.append(.type(endpoints.endpointsEnum(methods, of: Self.typeName(of: repository))))
        members.append(.type(endpoints.requestsEnum(methods)))
        var doc = ["The `\(name)` that calls the server through a `CachedClient`."]
        if let baseURL = context.spec.baseURL { doc += ["", "The spec's server: \(baseURL)"] }
        return TypeDeclaration(doc: doc, kind: .struct, name: Self.typeName(of: repository), conformances: [name], members: members)
    }

    /// For each queued mutation whose answer is an entity (a model with an identity) or an
    /// array of them, `client.readsEntities(of:as:)`: a replay after a relaunch then replaces
    /// the entity everywhere without the method being called first.
    private func entityReaders(_ methods: [RepositoryMethod]) -> [Statement] {
        methods.compactMap { method in
            guard method.isQueued, method.endpoint.responseFormat == .json, let response = method.endpoint.response,
                let type = entityType(response)
            else { return nil }
            return .expression(
                .call(
                    Expression.identifier("client").dot("readsEntities"),
                    [.init(label: "of", value: method.endpointConstant), .init(label: "as", value: Expression.identifier(type).dot("self"))],
                    wrapping: .whenLong))
        }
    }

    /// The Swift type of a response that is an entity or an array of entities, as text.
    private func entityType(_ type: TypeRef) -> String? {
        switch type {
        case .model(let name) where context.models[name]?.identity != nil: context.typeName(of: name)
        case .array(.model(let name)) where context.models[name]?.identity != nil: "[\(context.typeName(of: name))]"
        default: nil
        }
    }

    /// `Live…`, the repository's live type.
    package static func typeName(of repository: Repository) -> String { "Live" + SwiftNaming.typeName(repository.name.name) }

    /// `Invalidation`s for the endpoints a mutation lists: the entries of one path when
    /// the mutation has a required argument for each of the target's path parameters,
    /// otherwise every entry of the target (all pages, all paths).
    private func invalidations(of method: RepositoryMethod, in repository: Repository) -> [Expression] {
        method.endpoint.invalidates.compactMap { target in
            guard let endpoint = repository.endpoints.first(where: { $0.name.name == target.name }) else { return nil }
            let constant = Expression.identifier("Endpoints").dot(SwiftNaming.escaped(endpoint.swiftName ?? SwiftNaming.memberName(endpoint.name.name)))
            let pathParameters = endpoint.parameters.filter { $0.place == .path }
            let fills = pathParameters.compactMap { parameter -> Statement? in
                guard let argument = method.arguments.first(where: { $0.parameter?.name.name == parameter.name.name }),
                    !argument.isOptional, argument.parameter?.type.unwrapped == argument.parameter?.type,
                    argument.parameter.map({ context.models.isTextValue($0.type) }) == true
                else { return nil }
                return .expression(
                    .call(
                        Expression.identifier("$0").dot("setPathParameter"),
                        [.init(value: .string(parameter.name.name)), .init(value: argument.value)]
                            + (parameter.style.flatMap(EndpointTranslator.runtimeStyle).map { [.init(label: "style", value: .implicitMember($0))] } ?? [])))
            }
            let invalidation = Expression.identifier("Invalidation")
            guard !pathParameters.isEmpty, fills.count == pathParameters.count else {
                return .call(invalidation, [.init(value: constant)])
            }
            return .call(
                invalidation, [.init(value: constant), .init(label: "path", value: .string(endpoint.path))],
                trailingClosure: .init(body: fills))
        }
    }
}
