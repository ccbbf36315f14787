/// The spec's models by name, built once: every stage looks models up by name for each
/// type it meets, and a spec may declare hundreds.
///
/// When two models share a name (an error the validator reports), the first one counts.
struct ModelIndex: Sendable {
    private let models: [String: Model]

    init(_ spec: Spec) {
        models = Dictionary(spec.models.map { ($0.name.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The model declared under `name`.
    subscript(name: String) -> Model? { models[name] }

    /// Whether `name` is declared as a model.
    func contains(_ name: String) -> Bool { models[name] != nil }

    /// Whether `name` is declared as an enum model.
    func isEnum(_ name: String) -> Bool {
        guard case .enumeration = models[name]?.kind else { return false }
        return true
    }

    /// Whether a value of `type` can be sent as text in a path segment, query item or
    /// header: a scalar or an enum, not bytes, a file, any JSON, an object or a collection.
    func isTextValue(_ type: TypeRef) -> Bool {
        switch type {
        case .scalar(.data), .scalar(.file), .scalar(.json): false
        case .scalar: true
        case .model(let name): isEnum(name)
        default: false
        }
    }

    /// The properties of an object model whose every property is a text value, which a
    /// `deepObject` query parameter sends as `name[property]=value`; `nil` for any other type.
    func deepObjectProperties(_ type: TypeRef) -> [Property]? {
        guard case .model(let name) = type.unwrapped, case .object(let properties)? = models[name]?.kind,
            !properties.isEmpty, properties.allSatisfy({ isTextValue($0.type.unwrapped) })
        else { return nil }
        return properties
    }
}
