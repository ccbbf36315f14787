/// Applying `include` and `exclude`: the spec as if it described only the chosen endpoints.
extension Spec {
    /// The spec with only the selected endpoints, the repositories that keep at least one,
    /// and the models those endpoints reach (through bodies, responses, parameters and
    /// properties), in spec order. An invalidation of an endpoint left out is dropped: this
    /// app never calls that endpoint, so it never caches its answers.
    package func selected() -> Spec {
        guard !selection.selectsEverything else { return self }
        var result = self
        result.repositories = repositories.compactMap { repository in
            let chosen = repository.endpoints.filter { selection.selects($0, in: repository) }
            guard !chosen.isEmpty else { return nil }
            let names = Set(chosen.map(\.name.name))
            var kept = repository
            kept.endpoints = chosen.map { endpoint in
                var endpoint = endpoint
                endpoint.invalidates = endpoint.invalidates.filter { names.contains($0.name) }
                return endpoint
            }
            return kept
        }
        let byName = Dictionary(models.map { ($0.name.name, $0) }, uniquingKeysWith: { first, _ in first })
        var pending: [String] = []
        for endpoint in result.repositories.flatMap(\.endpoints) {
            for type in [endpoint.body, endpoint.response].compactMap({ $0 }) + endpoint.parameters.map(\.type) {
                Self.modelNames(in: type, into: &pending)
            }
        }
        var reached: Set<String> = []
        while let name = pending.popLast() {
            guard reached.insert(name).inserted, let kind = byName[name]?.kind else { continue }
            switch kind {
            case .object(let properties): for property in properties { Self.modelNames(in: property.type, into: &pending) }
            case .taggedUnion(let union): pending += union.cases.map(\.model)
            case .untaggedUnion(let cases): for choice in cases { Self.modelNames(in: choice.type, into: &pending) }
            case .enumeration: break
            }
        }
        result.models = models.filter { reached.contains($0.name.name) }
        return result
    }

    /// Appends the models `type` names.
    private static func modelNames(in type: TypeRef, into names: inout [String]) {
        switch type {
        case .scalar: break
        case .model(let name): names.append(name)
        case .array(let element), .dictionary(let element), .optional(let element): modelNames(in: element, into: &names)
        }
    }
}
