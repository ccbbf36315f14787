import CacheGenSpec

/// Decides which model-typed properties are stored out of line (in an `Indirect` box), so that build
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
package struct ModelStorage: Sendable {
    /// The most levels of models nested inline, the model itself included.
    package static let inlineDepthLimit = 4

    /// Per model, the names of its properties stored out of line.
    private let indirect: [String: Set<String>]

    package init(spec: Spec) {
        // Each model name gets a number, in name order; the first model of a name counts.
        // (Numbers instead of names in the graph: a large document has thousands of models.)
        let models = Dictionary(spec.models.map { ($0.name.name, $0) }, uniquingKeysWith: { first, _ in first })
        let names = models.keys.sorted()
        let numbers = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($0.element, $0.offset) })
        let edges: [[(property: String, target: Int)]] = names.map { name in
            guard let model = models[name], case .object(let properties) = model.kind else { return [] }
            return properties.compactMap { property in
                Self.inlineModel(property.type, in: models).flatMap { numbers[$0] }.map { (property.name.name, $0) }
            }
        }
        // Tarjan finishes a component after every component it reaches, so in that order a
        // model's targets outside its own component always have their depth already.
        var depth = Array(repeating: 0, count: names.count)
        var indirect: [String: Set<String>] = [:]
        for component in Self.components(of: edges) {
            let members = Set(component)
            for model in component {
                var deepest = 0
                for edge in edges[model] {
                    let targetDepth = depth[edge.target]
                    if members.contains(edge.target) || targetDepth >= Self.inlineDepthLimit {
                        indirect[names[model], default: []].insert(edge.property)
                    } else {
                        deepest = max(deepest, targetDepth)
                    }
                }
                depth[model] = deepest + 1
            }
        }
        self.indirect = indirect
    }

    /// Names of the properties of `model` stored out of line.
    package func indirectProperties(of model: Model) -> Set<String> {
        indirect[model.name.name] ?? []
    }

    /// The object model a property stores inline, if any.
    private static func inlineModel(_ type: TypeRef, in models: [String: Model]) -> String? {
        guard case .model(let name) = type.unwrapped, let model = models[name], case .object = model.kind else {
            return nil
        }
        return name
    }

    /// The strongly connected components of the graph of models `0..<edges.count` (each
    /// sorted), each finished after every component it reaches, by Tarjan's algorithm without
    /// recursion (so long chains of models cost linear time), from the roots in order.
    private static func components(of edges: [[(property: String, target: Int)]]) -> [[Int]] {
        let count = edges.count
        var index = [Int?](repeating: nil, count: count)
        var lowLink = Array(repeating: 0, count: count)
        var onStack = Array(repeating: false, count: count)
        var stack: [Int] = []
        var components: [[Int]] = []
        var counter = 0
        for root in 0..<count where index[root] == nil {
            var work: [(node: Int, next: Int)] = [(root, 0)]
            index[root] = counter
            lowLink[root] = counter
            counter += 1
            stack.append(root)
            onStack[root] = true
            while let (node, next) = work.last {
                let successors = edges[node]
                if next < successors.count {
                    work[work.count - 1].next += 1
                    let successor = successors[next].target
                    if let successorIndex = index[successor] {
                        if onStack[successor] { lowLink[node] = min(lowLink[node], successorIndex) }
                    } else {
                        index[successor] = counter
                        lowLink[successor] = counter
                        counter += 1
                        stack.append(successor)
                        onStack[successor] = true
                        work.append((successor, 0))
                    }
                    continue
                }
                work.removeLast()
                if let parent = work.last?.node { lowLink[parent] = min(lowLink[parent], lowLink[node]) }
                if lowLink[node] == index[node] {
                    var component: [Int] = []
                    while let member = stack.popLast() {
                        onStack[member] = false
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
