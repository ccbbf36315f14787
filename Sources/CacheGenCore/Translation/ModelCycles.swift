/// Finds the properties through which a model contains itself, so the translator can
/// store them out of line (`@Indirect`); a struct cannot hold itself directly.
///
/// Only direct and optional references count: arrays and dictionaries already store
/// their elements out of line.
struct ModelCycles {
    let spec: Spec

    /// Names of the properties of `model` whose model type leads back to `model`.
    func indirectProperties(of model: Model) -> Set<String> {
        guard case .object(let properties) = model.kind else { return [] }
        var result: Set<String> = []
        for property in properties {
            guard let target = inlineModel(property.type) else { continue }
            if target == model.name.name || reaches(from: target, to: model.name.name) {
                result.insert(property.name.name)
            }
        }
        return result
    }

    /// The object model a property stores inline, if any.
    private func inlineModel(_ type: TypeRef) -> String? {
        guard case .model(let name) = type.unwrapped,
            let model = spec.models.first(where: { $0.name.name == name }), case .object = model.kind
        else { return nil }
        return name
    }

    private func reaches(from start: String, to goal: String) -> Bool {
        var visited: Set<String> = []
        var stack = [start]
        while let name = stack.popLast() {
            guard visited.insert(name).inserted,
                let model = spec.models.first(where: { $0.name.name == name }),
                case .object(let properties) = model.kind
            else { continue }
            for property in properties {
                guard let next = inlineModel(property.type) else { continue }
                if next == goal { return true }
                stack.append(next)
            }
        }
        return false
    }
}
