import CacheGenSpec

/// What every part of the translation reads: the spec, its model index and each model's
/// Swift name, made once per run and shared by value (`Translator` makes it; the model,
/// repository, endpoint, paging, query and mock translators each keep a copy).
package struct TranslationContext: Sendable {
    /// The spec being translated, its selection applied.
    package let spec: Spec
    /// The spec's models by name, with the questions the translators ask of them.
    package let models: ModelIndex
    /// The Swift name of each model, named once.
    private let typeNames: [String: String]

    /// Indexes `spec`'s models and names each once.
    package init(spec: Spec) {
        self.spec = spec
        models = ModelIndex(spec)
        typeNames = Dictionary(
            spec.models.map { ($0.name.name, SwiftNaming.typeName($0.name.name)) }, uniquingKeysWith: { first, _ in first })
    }

    /// The Swift name of the model named `name`, made once in `init`.
    package func typeName(of name: String) -> String {
        typeNames[name] ?? SwiftNaming.typeName(name)
    }

    /// The Swift type of a spec type.
    package func swiftType(_ type: TypeRef) -> SwiftType {
        switch type {
        case .scalar(let scalar):
            switch scalar {
            case .string: .named("String")
            case .int: .named("Int")
            case .double: .named("Double")
            case .bool: .named("Bool")
            case .date: .named("Date")
            case .url: .named("URL")
            case .uuid: .named("UUID")
            case .json: .named("JSONValue")
            case .data: .named("Data")
            case .file: .named("MultipartFile")
            }
        case .model(let name): .named(typeName(of: name))
        case .array(let element): .array(swiftType(element))
        case .dictionary(let value): .dictionary(key: .named("String"), value: swiftType(value))
        case .optional(let wrapped): .optional(swiftType(wrapped))
        }
    }
}
