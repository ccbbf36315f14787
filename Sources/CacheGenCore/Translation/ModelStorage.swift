/// Decides which model-typed properties are stored out of line (`@Indirect`), so that build
/// time and memory stay linear in the number of models whatever their shape.
///
/// A struct cannot hold itself, so a property through which a model contains itself is
/// boxed: its target is the model or lies in the same strongly connected component of the
/// graph of inline references (found once per spec by Tarjan's algorithm, iterative). And
/// the compiler's cost grows much faster than linearly with how deeply structs nest inline
/// (a chain of 40 models took 6× the time and 5× the memory of the same models in a cycle;
/// 166 exhausted the machine), so a property is also boxed when its target already nests
/// `inlineDepthLimit` levels deep: no model's inline layout is ever deeper than that.
///
/// Only direct and optional references count: arrays and dictionaries already store their
/// elements out of line. Boxing never changes the wire format, `Equatable` or value
/// semantics (`Indirect` codes as its value and copies on write).
struct ModelStorage: Sendable {
    /// The most levels of models nested inline, the model itself included.
    static let inlineDepthLimit = 4

    /// Per model, the names of its properties stored out of line.
    private let indirect: [String: Set<String>]

    init(spec: Spec) {
        let models = Dictionary(spec.models.map { ($0.name.name, $0) }, uniquingKeysWith: { first, _ in first })
        var edges: [String: [(property: String, target: String)]] = [:]
        for (name, model) in models {
            guard case .object(let properties) = model.kind else { continue }
            edges[name] = properties.compactMap { property in
                Self.inlineModel(property.type, in: models).map { (property.name.name, $0) }
            }
        }
        let components = Self.components(of: edges, names: models.keys.sorted())
        // Tarjan finishes a component after every component it reaches, so in that order a
        // model's targets outside its own component always have their depth already.
        var depth: [String: Int] = [:]
        var indirect: [String: Set<String>] = [:]
        for component in components {
            let members = Set(component)
            for name in component {
                var deepest = 0
                for edge in edges[name] ?? [] {
                    let targetDepth = depth[edge.target] ?? 0
                    if members.contains(edge.target) || targetDepth >= Self.inlineDepthLimit {
                        indirect[name, default: []].insert(edge.property)
                    } else {
                        deepest = max(deepest, targetDepth)
                    }
                }
                depth[name] = deepest + 1
            }
        }
        self.indirect = indirect
    }

    /// Names of the properties of `model` stored out of line.
    func indirectProperties(of model: Model) -> Set<String> {
        indirect[model.name.name] ?? []
    }

    /// The object model a property stores inline, if any.
    private static func inlineModel(_ type: TypeRef, in models: [String: Model]) -> String? {
        guard case .model(let name) = type.unwrapped, let model = models[name], case .object = model.kind else {
            return nil
        }
        return name
    }

    /// The strongly connected components, each finished after every component it reaches,
    /// by Tarjan's algorithm without recursion (so long chains of models cost linear time).
    private static func components(of edges: [String: [(property: String, target: String)]], names: [String]) -> [[String]] {
        var index: [String: Int] = [:]
        var lowLink: [String: Int] = [:]
        var onStack: Set<String> = []
        var stack: [String] = []
        var components: [[String]] = []
        var counter = 0
        for root in names where index[root] == nil {
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
                    let successor = successors[next].target
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
                    var component: [String] = []
                    while let member = stack.popLast() {
                        onStack.remove(member)
                        component.append(member)
                        if member == node { break }
                    }
                    components.append(component.sorted())
                }
            }
        }
        return components
    }
}
