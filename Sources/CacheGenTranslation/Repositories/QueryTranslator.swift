import CacheGenSpec

/// Live query factories: for each cached endpoint one short method in an extension of the
/// repository protocol that wraps the protocol's own method in a `CachedQuery`. Being on the
/// protocol, it serves `Live…` (whose calls tell the query their client and key), `Mock…`
/// (queries over mock data for previews) and any conformance an app writes; the runtime's
/// generic `CachedQuery` does the rest, so each endpoint costs the compiler one small body.
/// An endpoint with parameters also gets `…Query(updating:…)`, which points a query at new
/// arguments (`CachedQuery.update(_:)`: the old value stays, a placeholder, until the new
/// one arrives). A paged endpoint also gets a `…PagedQuery` factory, a `CachedPagedQuery`
/// over its `…Pages` method.
/// A streamed endpoint gets a `StreamedQuery` factory (`QueryTranslator+Streamed.swift`).
package struct QueryTranslator: Sendable {
    /// Makes the `…PagedQuery` factories.
    private let pages: PagingTranslator

    /// A translator over `context`'s spec.
    package init(context: TranslationContext) {
        pages = PagingTranslator(context: context)
    }

    /// The attributes of the extension: where Observation is.
    package static let queryAvailability = ["@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)"]

    /// The extension, or `nil` for a repository without cached or streamed endpoints.
    package func queryExtension(_ repository: Repository, _ methods: [RepositoryMethod]) -> TypeDeclaration? {
        let members = methods.filter(\.isCached).flatMap { method -> [Declaration] in
            let forwarded = method.forwardedArguments + [.init(label: "policy", value: .identifier("policy"))]
            let call = Expression.call(Expression.selfValue.dot(method.name), forwarded)
            let query = Expression.call(
                .identifier("CachedQuery"), [], trailingClosure: .init(parameters: ["policy"], body: [.expression(.try(.await(call)))]))
            let single = Declaration.function(
                FunctionDeclaration(
                    doc: [
                        "`\(method.baseName)` as a live query for a screen: it loads with the spec's policy, refetches",
                        "after the mutations that invalidate it, and clears on sign-out. See `CachedQuery`.",
                    ],
                    name: SwiftNaming.escaped(method.baseName + "Query"),
                    parameters: method.parameters(policy: .none, optionalDefaults: true),
                    returnType: .generic("CachedQuery", [method.responseType ?? .void]),
                    body: [.expression(query)]))
            return [single] + (updatingQueryFactory(method).map { [.function($0)] } ?? [])
                + (pages.pagedQueryFactory(method).map { [.function($0)] } ?? [])
        } + methods.compactMap(streamedQueryFactory).map { Declaration.function($0) }
        guard !members.isEmpty else { return nil }
        return TypeDeclaration(
            kind: .extension, name: SwiftNaming.typeName(repository.name.name), attributes: Self.queryAvailability,
            condition: "canImport(Observation)", members: members)
    }

    /// `…Query(updating: query, …)` for an endpoint with parameters: `query.update(_:)` with
    /// the repository's method for the new arguments. `nil` without parameters.
    package func updatingQueryFactory(_ method: RepositoryMethod) -> FunctionDeclaration? {
        guard !method.arguments.isEmpty else { return nil }
        let taken = Set(method.arguments.map(\.name))
        let name = SwiftNaming.numbered("query") { taken.contains($0) }
        let forwarded = method.forwardedArguments + [.init(label: "policy", value: .identifier("policy"))]
        let call = Expression.call(Expression.selfValue.dot(method.name), forwarded)
        let update = Expression.call(
            Expression.identifier(name).dot("update"), [],
            trailingClosure: .init(parameters: ["policy"], body: [.expression(.try(.await(call)))]))
        return FunctionDeclaration(
            doc: [
                "Points `\(name)` (a `\(method.baseName)Query`) at new arguments: it keeps its value on screen, with",
                "`isPlaceholder` set, until theirs arrives, and cancels the fetch for the old ones.",
                "See `CachedQuery.update(_:)`.",
            ],
            attributes: ["@MainActor"],
            name: SwiftNaming.escaped(method.baseName + "Query"),
            parameters: [.init(label: "updating", name: name, type: .generic("CachedQuery", [method.responseType ?? .void]))]
                + method.parameters(policy: .none, optionalDefaults: true),
            body: [.expression(update)])
    }
}
