import CacheGenSpec

/// What the live repository sends, per endpoint: an `Endpoint` constant (its name, cache
/// rule, coding and response shape) in the private `Endpoints` enum of `Live…`, a function
/// building its request from the method's arguments in the private `Requests` enum
/// (`EndpointTranslator+Requests.swift`), and the response shape of each cached endpoint.
///
/// The shapes go in a file of their own: a model edit changes the shape of every response
/// that reaches the model, and with the shapes apart only that file changes, so the build
/// recompiles it instead of every repository.
package struct EndpointTranslator: Sendable {
    /// The spec (its date coding), its model index and Swift types.
    let context: TranslationContext
    /// The shape fingerprint of each cached response type, computed once per type.
    private let fingerprints: [TypeRef: String]

    /// Describes the shape of each cached response type once.
    package init(context: TranslationContext) {
        self.context = context
        var shapes = ShapeFingerprint(spec: context.spec)
        var fingerprints: [TypeRef: String] = [:]
        for repository in context.spec.repositories {
            for endpoint in repository.endpoints where endpoint.cache != nil {
                guard let response = endpoint.response, fingerprints[response] == nil else { continue }
                fingerprints[response] = shapes.of(response)
            }
        }
        self.fingerprints = fingerprints
    }

    /// The private `Endpoints` enum of `Live…` (named `live`).
    package func endpointsEnum(_ methods: [RepositoryMethod], of live: String) -> TypeDeclaration {
        TypeDeclaration(
            visibility: .hidden, kind: .enum, name: "Endpoints", members: methods.map { .property(endpointConstant($0, of: live)) })
    }

    /// `static var name: Endpoint { Endpoint(name: …, cache: …, coding: …) }`: one method's
    /// constant, its shape read from `live`'s shapes extension.
    private func endpointConstant(_ method: RepositoryMethod, of live: String) -> PropertyDeclaration {
        var arguments: [Expression.Argument] = [
            .init(label: "name", value: .string("\(method.repository).\(method.endpoint.name.name)"))
        ]
        if method.isCached, let cache = method.endpoint.cache {
            var rule: [Expression.Argument] = [
                .init(label: "ttl", value: .literal(.integer(cache.settings.ttl))),
                .init(label: "maxStale", value: .literal(.integer(cache.settings.maxStale))),
                .init(label: "policy", value: .implicitMember(cache.settings.policy.rawValue)),
                .init(label: "scope", value: .implicitMember(cache.settings.scope.rawValue)),
            ]
            if cache.settings.ttlFromServer { rule.append(.init(label: "ttlFromServer", value: .literal(.boolean(true)))) }
            arguments.append(.init(label: "cache", value: .call(.identifier("CacheRule"), rule, wrapping: .whenLong)))
        } else {
            arguments.append(.init(label: "cache", value: .literal(.nil)))
        }
        arguments.append(.init(label: "coding", value: codingExpression))
        let format = method.endpoint.responseFormat
        if method.endpoint.response != nil, method.isCached, format == .json || format == .multipart {
            arguments.append(.init(label: "shape", value: Expression.identifier(live).dot(method.shapeName)))
        } else if method.isCached {
            arguments.append(.init(label: "shape", value: .string(format.rawValue)))
        }
        if let retry = method.endpoint.retry {
            let rule: Expression = retry.max == 0
                ? .implicitMember("never")
                : .call(.identifier("RetryRule"), [.init(label: "max", value: .literal(.integer(retry.max)))])
            arguments.append(.init(label: "retry", value: rule))
        }
        if method.isCached, let relation = method.linkRelation {
            arguments.append(.init(label: "nextLinkRelation", value: .string(relation)))
        }
        if format != .json {
            arguments.append(.init(label: "format", value: .implicitMember(format.rawValue)))
        }
        if let accept = method.endpoint.accept {
            arguments.append(.init(label: "accept", value: .string(accept)))
        }
        if method.isQueued, let offline = method.endpoint.offline {
            var fields: [Expression.Argument] = []
            if offline.idempotencyHeader != SpecParser.standardIdempotencyHeader {
                fields.append(.init(label: "idempotencyHeader", value: .string(offline.idempotencyHeader)))
            }
            if let scope = offline.scope { fields.append(.init(label: "scope", value: .string(scope))) }
            let rule: Expression = fields.isEmpty ? .implicitMember("queue") : .call(.identifier("OfflineRule"), fields)
            arguments.append(.init(label: "offline", value: rule))
        }
        if method.isChannel {
            arguments.append(.init(label: "isChannel", value: .literal(.boolean(true))))
        }
        if let server = method.endpoint.server {
            arguments.append(.init(label: "server", value: .string(server)))
        }
        // Computed, not a `static let`: a stored constant costs the compiler a lazy global
        // (initialiser, token, accessor) per endpoint and is checked again by every build's
        // module job, while building the value per call costs about 300 instructions (+2% on
        // an in-memory hit; Benchmarks/LOG.md).
        return PropertyDeclaration(
            visibility: .none, isStatic: true, name: method.name, type: .named("Endpoint"),
            getter: [.expression(.call(.identifier("Endpoint"), arguments, wrapping: .whenLong))])
    }

    /// `JSONCoding(dates: …)`: how the spec's bodies and JSON parameters are written.
    var codingExpression: Expression {
        let dates = Expression.Argument(label: "dates", value: .implicitMember(context.spec.defaults.dates.rawValue))
        return .call(.identifier("JSONCoding"), [dates], wrapping: .whenLong)
    }

    /// A repository's part of the shapes file, or `nil` without a cached endpoint: an
    /// extension of `Live…` with one static computed property per cached endpoint. Computed,
    /// not stored: the compiler does not count a getter's body as part of what other files
    /// see, so a new value recompiles no other file. Static properties may share a name with
    /// the repository's methods, so `…Shape` never collides with anything a spec can name.
    package func shapeExtension(_ repository: Repository, _ methods: [RepositoryMethod]) -> TypeDeclaration? {
        let shapes = methods.compactMap { method -> Declaration? in
            guard method.isCached, let response = method.endpoint.response else { return nil }
            return .property(
                PropertyDeclaration(
                    visibility: .none, isStatic: true, name: method.shapeName, type: .named("String"),
                    getter: [.expression(.string(fingerprints[response] ?? ""))]))
        }
        guard !shapes.isEmpty else { return nil }
        return TypeDeclaration(
            doc: [
                "A fingerprint of each cached response type and the models it reaches: an entry",
                "stored under another shape is never read.",
            ],
            kind: .extension, name: LiveRepositoryTranslator.typeName(of: repository), members: shapes)
    }
}
