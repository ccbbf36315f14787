import CacheGenSpec

/// Live query factories: for each cached endpoint one short method in an extension of the
/// repository protocol that wraps the protocol's own method in a `CachedQuery`. Being on the
/// protocol, it serves `Live…` (whose calls tell the query their client and key), `Mock…`
/// (queries over mock data for previews) and any conformance an app writes; the runtime's
/// generic `CachedQuery` does the rest, so each endpoint costs the compiler one small body.
/// A paged endpoint also gets a `…PagedQuery` factory, a `CachedPagedQuery` over its
/// `…Pages` method. A streamed endpoint gets a `StreamedQuery` factory
/// (`Translator+StreamedQueries.swift`).
extension Translator {
    /// The attributes of the extension: where Observation is.
    package static let queryAvailability = ["@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)"]

    /// The extension, or `nil` for a repository without cached or streamed endpoints.
    package func queryExtension(_ repository: Repository, _ methods: [Method]) -> TypeDeclaration? {
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
            return [single] + (pagedQueryFactory(method).map { [.function($0)] } ?? [])
        } + methods.compactMap(streamedQueryFactory).map { Declaration.function($0) }
        guard !members.isEmpty else { return nil }
        return TypeDeclaration(
            kind: .extension, name: SwiftNaming.typeName(repository.name.name), attributes: Self.queryAvailability,
            condition: "canImport(Observation)", members: members)
    }
}
