import CacheGenSpec

/// A repository's protocol, the API an app codes against (each endpoint's method, its
/// `…Stream` twin and a link-paged endpoint's `…Pages` requirement), and its extension of
/// overloads that leave out optional arguments and the policy.
package struct RepositoryProtocolTranslator: Sendable {
    /// Makes the `…Pages` requirements and their short forms.
    private let pages: PagingTranslator

    /// A translator over `context`'s spec.
    package init(context: TranslationContext) {
        pages = PagingTranslator(context: context)
    }

    /// The protocol named after the repository.
    package func repositoryProtocol(_ repository: Repository, _ methods: [RepositoryMethod]) -> TypeDeclaration {
        var members: [Declaration] = []
        for method in methods {
            members.append(
                .function(
                    FunctionDeclaration(
                        doc: method.doc, visibility: .none, name: method.name,
                        parameters: method.parameters(policy: method.isCached ? .optional : .none, optionalDefaults: false),
                        isAsync: !method.isEventStream, isThrowing: !method.isEventStream, returnType: method.returnType)))
            if method.hasStream {
                members.append(
                    .function(
                        FunctionDeclaration(
                            doc: [
                                "The stored value of `\(method.baseName)` first, if there is one, then the fresh one.",
                                "",
                                "When the network fails after a stored value was delivered, the stream finishes",
                                "normally: the caller already has the best value there is.",
                            ],
                            visibility: .none, name: method.streamName,
                            parameters: method.parameters(policy: .none, optionalDefaults: false),
                            returnType: method.streamType)))
            }
            if let paged = pages.linkPages(method, in: .requirement) { members.append(.function(paged)) }
        }
        let name = SwiftNaming.typeName(repository.name.name)
        var doc = repository.description.map(SwiftLiteral.commentLines) ?? []
        if !doc.isEmpty { doc.append("") }
        doc.append("`Live\(name)` talks to the server; conform your own type for previews and tests.")
        return TypeDeclaration(doc: doc, kind: .protocol, name: name, conformances: ["Sendable"], members: members)
    }

    /// Overloads that let callers leave out optional arguments and the policy.
    package func repositoryExtension(_ repository: Repository, _ methods: [RepositoryMethod]) -> TypeDeclaration {
        var members: [Declaration] = []
        for method in methods {
            if method.isCached {
                let policy = Expression.call(.identifier("Optional"), [.init(value: .identifier("policy"))])
                let forwarded = method.forwardedArguments + [.init(label: "policy", value: policy)]
                members.append(
                    .function(
                        FunctionDeclaration(
                            doc: ["Calls `\(method.baseName)` with the spec's default policy, `.\(method.defaultPolicy)`, unless one is given."],
                            name: method.name,
                            parameters: method.parameters(policy: .defaulted, optionalDefaults: true),
                            isAsync: true, isThrowing: true, returnType: method.returnType,
                            body: [.expression(.try(.await(.call(Expression.selfValue.dot(method.name), forwarded, wrapping: .whenLong))))])))
            } else if method.arguments.contains(where: \.isOptional) {
                members.append(
                    .function(withoutOptionals(method, name: method.name, isAsync: !method.isEventStream, returnType: method.returnType)))
            }
            if method.hasStream, method.arguments.contains(where: \.isOptional) {
                members.append(.function(withoutOptionals(method, name: method.streamName, isAsync: false, returnType: method.streamType)))
            }
            if let paged = pages.linkPagesShorthand(method) { members.append(.function(paged)) }
        }
        return TypeDeclaration(kind: .extension, name: SwiftNaming.typeName(repository.name.name), members: members)
    }

    private func withoutOptionals(_ method: RepositoryMethod, name: String, isAsync: Bool, returnType: SwiftType?) -> FunctionDeclaration {
        let required = method.parameters(policy: .none, optionalDefaults: false)
            .enumerated().filter { !method.arguments[$0.offset].isOptional }.map(\.element)
        let call = Expression.call(Expression.selfValue.dot(name), method.forwarding(omittingOptionals: true), wrapping: .whenLong)
        return FunctionDeclaration(
            doc: ["Calls `\(SwiftNaming.unescaped(name))` without the optional arguments."],
            name: name, parameters: required, isAsync: isAsync, isThrowing: isAsync, returnType: returnType,
            body: [.expression(isAsync ? .try(.await(call)) : call)])
    }
}
