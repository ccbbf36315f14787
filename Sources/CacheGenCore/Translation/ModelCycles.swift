/// Finds the properties through which a model contains itself, so the translator can
/// store them out of line (`@Indirect`); a struct cannot hold itself directly.
///
/// Only direct and optional references count: arrays and dictionaries already store
/// their elements out of line. A property of `M` of model type `N` closes a cycle when
/// `N` is `M` or both lie in one strongly connected component of that graph, found once
/// per spec (Tarjan's algorithm, iterative) so long chains of models cost linear time.
struct ModelCycles {
    private var component: [String: Int] = [:]
    private let models: [String: Model]

    init(spec: Spec) {
        models = Dictionary(spec.models.map { ($0.name.name, $0) }, uniquingKeysWith: { first, _ in first })
        component = Self.components(of: models)
    }

    /// Names of the properties of `model` whose model type leads back to `model`.
    func indirectProperties(of model: Model) -> Set<String> {
        guard case .object(let properties) = model.kind else { return [] }
        var result: Set<String> = []
        for property in properties {
            guard let target = Self.inlineModel(property.type, in: models) else { continue }
            if target == model.name.name || component[target] == component[model.name.name] {
                result.insert(property.name.name)
            }
        }
        return result
    }

    /// The object model a property stores inline, if any.
    private static func inlineModel(_ type: TypeRef, in models: [String: Model]) -> String? {
        guard case .model(let name) = type.unwrapped, let model = models[name], case .object = model.kind else {
            return nil
        }
        return name
    }

    /// The strongly connected component of every model, by Tarjan's algorithm without recursion.
    private static func components(of models: [String: Model]) -> [String: Int] {
        var edges: [String: [String]] = [:]
        for (name, model) in models {
            guard case .object(let properties) = model.kind else { continue }
            edges[name] = properties.compactMap { inlineModel($0.type, in: models) }
        }
        var index: [String: Int] = [:]
        var lowLink: [String: Int] = [:]
        var onStack: Set<String> = []
        var stack: [String] = []
        var component: [String: Int] = [:]
        var componentCount = 0
        var counter = 0
        for root in models.keys.sorted() where index[root] == nil {
            var work: [(node: String, next: Int)] = [(root, 0)]
            index[root] = counter
            lowLink[root] = counter
            counter += 1
            stack.append(root)
            onStack.insert(root)
            while let (node, next) = work.last {
                let successors = edges[node] ?? []
                if next < successors.count {
                    work[work.count - 1].next += 1
                    let successor = successors[next]
                    if index[successor] == nil {
                        index[successor] = counter
                        lowLink[successor] = counter
                        counter += 1
                        stack.append(successor)
                        onStack.insert(successor)
                        work.append((successor, 0))
                    } else if onStack.contains(successor), let successorIndex = index[successor] {
                        lowLink[node] = min(lowLink[node] ?? successorIndex, successorIndex)
                    }
                    continue
                }
                work.removeLast()
                if let parent = work.last?.node, let low = lowLink[node] {
                    lowLink[parent] = min(lowLink[parent] ?? low, low)
                }
                if lowLink[node] == index[node] {
                    while let member = stack.popLast() {
                        onStack.remove(member)
                        component[member] = componentCount
                        if member == node { break }
                    }
                    componentCount += 1
                }
            }
        }
        return component
    }
}
