import CacheGenSpec

/// A Swift type per model: a `Codable` struct per object (`ModelTranslator+Structs.swift`),
/// an enum that keeps unlisted values (`+Enums`), and an `indirect enum` per union of
/// models, told apart by a property (`+TaggedUnions`) or by trying each type (`+UntaggedUnions`).
package struct ModelTranslator: Sendable {
    /// The spec, its model index and Swift names.
    let context: TranslationContext
    /// Which model-typed properties are boxed (cycles, and past the inline depth limit).
    let storage: ModelStorage
    /// The untagged unions sent as parameters (`ModelIndex.textUnions`), which conform to
    /// `RequestParameterValue`.
    let parameterUnions: Set<String>

    /// Works out which properties are boxed and which unions are sent as parameters.
    package init(context: TranslationContext) {
        self.context = context
        let spec = context.spec
        storage = ModelStorage(spec: spec)
        var unions: Set<String> = []
        for repository in spec.repositories {
            for endpoint in repository.endpoints {
                for parameter in endpoint.parameters { context.models.textUnions(in: parameter.type, into: &unions) }
            }
        }
        parameterUnions = unions
    }

    /// The declaration of `model`: its kind decides which of the files makes it.
    package func declaration(_ model: Model) -> Declaration {
        let name = context.typeName(of: model.name.name)
        let doc = model.description.map(SwiftLiteral.commentLines) ?? []
        switch model.kind {
        case .enumeration(let values):
            return .type(enumeration(name: name, doc: doc, values: values))
        case .taggedUnion(let union):
            return .type(taggedUnion(name: name, doc: doc, union: union))
        case .untaggedUnion(let cases):
            return .type(untaggedUnion(name: name, doc: doc, cases: cases, isParameter: parameterUnions.contains(model.name.name)))
        case .object(let properties):
            var type = structure(
                name: name, doc: doc, properties: properties, extra: model.additionalProperties,
                indirect: storage.indirectProperties(of: model))
            if let identity = model.identity,
                let property = properties.first(where: { $0.name.name == identity.name || $0.wireName == identity.name })
            {
                // The runtime finds the model in cached JSON by this key (`CachedEntity`).
                type.conformances.append("CachedEntity")
                type.members.append(
                    .property(
                        PropertyDeclaration(
                            doc: ["The JSON name of the property that identifies a value (the spec's `identity`)."],
                            isStatic: true, name: "identityKey", type: .named("String"),
                            getter: [.expression(.string(property.wireName))])))
            }
            return .type(type)
        }
    }
}
