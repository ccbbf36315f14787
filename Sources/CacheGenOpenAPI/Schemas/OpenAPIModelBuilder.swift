#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CacheGenReading
import CacheGenSpec

/// Builds the models `OpenAPISchemas` named and queued, once the operations are mapped:
/// objects with their `allOf` parts merged (`OpenAPIModelBuilder+Objects.swift`), string
/// enums, and unions with and without a discriminator (`OpenAPIModelBuilder+Unions.swift`).
/// Properties and cases are typed through the schema mapper, which may name and queue more
/// models; they are built in turn, until the queue is empty.
package struct OpenAPIModelBuilder {
    /// The schema mapper, with its queue and warnings; handed back when the models are built.
    var schemas: OpenAPISchemas

    /// Builds every queued model, and the models named while building them; returns every
    /// model named, in the order it was named.
    mutating func buildQueued() -> [Model] {
        // First in, first out, so models built later keep the order they were named in.
        while let next = schemas.registry.next() {
            schemas.filesAllowed = next.name.map { schemas.takesFiles($0.name) } ?? false
            let model = buildModel(named: next.name ?? Named(name: "", location: next.node.location), next.node, in: next.file)
            schemas.registry.store(model, at: next.slot)
        }
        schemas.filesAllowed = false
        var models = schemas.registry.models
        Self.breakUnionCycles(&models)
        return models
    }

    /// Builds the model named `name` from its schema.
    mutating func buildModel(named name: Named, _ node: JSONNode, in file: String) -> Model {
        let description = (node["description"]?.value.stringValue ?? node["title"]?.value.stringValue)
            .map { $0.trimmingWhitespaceAndNewlines() }
        if let values = OpenAPISchemaShape.stringEnumValues(node) {
            return Model(name: name, description: description, kind: .enumeration(enumValues(values)))
        }
        if let union = taggedUnion(node, in: file, name: name.name) {
            return Model(name: name, description: description, kind: .taggedUnion(union))
        }
        if let variants = OpenAPISchemaShape.untaggedVariants(node) {
            return Model(name: name, description: description, kind: .untaggedUnion(untaggedCases(variants, in: file, union: name.name)))
        }
        let (properties, extra) = properties(of: node, in: file, model: name.name)
        var model = Model(name: name, description: description, kind: .object(properties))
        if let identity = node["x-cachegen-identity"] {
            if let property = identity.value.stringValue {
                model.identity = Named(name: property, location: identity.value.location)
            } else {
                schemas.warn("x-cachegen-identity of \(quoted(name.name))", "not a string naming a property", at: identity.value.location)
            }
        }
        if let extra { model.additionalProperties = additionalProperties(extra.node, in: extra.file, of: name.name, besides: properties) }
        return model
    }

    /// Every distinct value, each with a Swift case name of its own: made from the value, a
    /// value with no letter or digit spelled out (`""` → `empty`, `-` → `minus`), and a name
    /// an earlier value took numbered (`Water` after `water` → `water2`). Nothing is lost, so
    /// nothing is warned about; a value listed twice is one case.
    private func enumValues(_ nodes: [JSONNode]) -> [EnumValue] {
        var values: [EnumValue] = []
        var seen: Set<String> = []
        var caseNames: Set<String> = []
        for node in nodes {
            guard let text = node.stringValue, seen.insert(text).inserted else { continue }
            let name = SwiftNaming.numbered(OpenAPINames.memberName(text)) { caseNames.contains($0) }
            caseNames.insert(name)
            var value = EnumValue(value: text, location: node.location)
            if name != SwiftNaming.caseName(text, position: values.count) { value.swiftName = name }
            values.append(value)
        }
        return values
    }
}
