import CacheGenSpec

/// `Mock…` repositories answering from closures, for previews and tests; a missing
/// handler throws `MockNotImplemented` rather than inventing data.
package struct MockTranslator: Sendable {
    /// Makes link-paged endpoints' `…Pages` methods, one page from the handler.
    private let pages: PagingTranslator

    /// A translator over `context`'s spec.
    package init(context: TranslationContext) {
        pages = PagingTranslator(context: context)
    }

    /// In an app's target, whose mocks are generated where its tests are: a declaration of
    /// the mock's name that cannot be used, whose message says where the mock went, so a test
    /// written before mocks moved fails with that message instead of "cannot find in scope".
    /// A test target's own mock of the name shadows it.
    package func mockElsewhere(_ repository: Repository) -> TypeDeclaration {
        let name = "Mock" + SwiftNaming.typeName(repository.name.name)
        let message =
            "\(name) is generated in test targets: add plugins: [.plugin(name: \"CacheGenPlugin\", package: \"cachegen\")] to the test target; in the app, use the live repository (README: Testing with mocks)"
        return TypeDeclaration(
            doc: ["`\(name)` is generated in the targets that test this one; see the README's \"Testing with mocks\"."],
            kind: .struct, name: name, attributes: ["@available(*, unavailable, message: \(SwiftLiteral.string(message)))"])
    }

    /// `Mock…`, conforming to the repository's protocol, with a handler per method.
    package func mockRepository(_ repository: Repository, _ methods: [RepositoryMethod]) -> TypeDeclaration {
        let name = SwiftNaming.typeName(repository.name.name)
        var handlers: [Declaration] = []
        var initParameters: [FunctionDeclaration.Parameter] = []
        var initBody: [Statement] = []
        var functions: [Declaration] = []
        for method in methods {
            let parameters = method.parameters(policy: method.isCached ? .optional : .none, optionalDefaults: false)
            let handlerName = SwiftNaming.escaped(method.baseName + "Handler")
            let handler = Expression.selfValue.dot(handlerName)
            let isAsync = !method.isEventStream
            let closureType = SwiftType.function(
                .init(
                    parameters: parameters.map { .init(name: $0.label ?? $0.name, type: $0.type) }, isSendable: true, isAsync: isAsync,
                    isThrowing: isAsync, result: method.returnType ?? .void))
            let notImplemented = Expression.call(
                .identifier("MockNotImplemented"),
                [.init(label: "endpoint", value: .string("\(method.repository).\(method.endpoint.name.name)"))])
            // A stream's handler returns its events; without one the stream fails when iterated.
            let missing: Statement = isAsync
                ? .throw(notImplemented)
                : .expression(.call(.identifier("EventStream"), [.init(label: "failing", value: notImplemented)]))
            handlers.append(
                .property(
                    PropertyDeclaration(
                        doc: ["Answers `\(method.baseName)`."], isMutable: true, name: handlerName, type: closureType)))
            initParameters.append(
                .init(
                    swiftName: method.baseName, type: .escaping(closureType),
                    defaultValue: .closure(.init(parameters: parameters.map { _ in "_" }, body: [missing]))))
            initBody.append(.assignment(handler, .identifier(SwiftNaming.parameterValue(method.baseName))))
            let values = parameters.map { Expression.Argument(value: $0.value) }
            functions.append(
                .function(
                    FunctionDeclaration(
                        doc: ["Calls `\(SwiftNaming.unescaped(handlerName))`."], name: method.name, parameters: parameters,
                        isAsync: isAsync, isThrowing: isAsync, returnType: method.returnType,
                        body: [.expression(isAsync ? .try(.await(.call(handler, values))) : .call(handler, values))])))
            if method.hasStream {
                // The stream has no policy of its own: the handler gets `nil`, as for a call without one.
                let local = Expression.identifier("handler")
                let once = Expression.Closure(
                    body: [.expression(.try(.await(.call(local, values.dropLast() + [.init(value: .literal(.nil))]))))])
                functions.append(
                    .function(
                        FunctionDeclaration(
                            doc: ["Yields the value of `\(SwiftNaming.unescaped(handlerName))` once."], name: method.streamName,
                            parameters: method.parameters(policy: .none, optionalDefaults: false),
                            returnType: method.streamType,
                            body: [
                                .variable(isMutable: false, name: "handler", value: handler),
                                .return(.call(Expression.identifier("MockStream").dot("once"), [], trailingClosure: once)),
                            ])))
            }
            if let paged = pages.linkPages(method, in: .mock) { functions.append(.function(paged)) }
        }
        let initializer = FunctionDeclaration(
            doc: ["Creates a mock; endpoints without a handler throw `MockNotImplemented`."], name: "init",
            parameters: initParameters, body: initBody)
        return TypeDeclaration(
            doc: ["An `\(name)` that answers from closures, for previews and tests."], kind: .struct,
            name: "Mock" + name, conformances: [name], members: handlers + [.function(initializer)] + functions)
    }
}
