#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The models themselves: objects (with `allOf` merged), string enums, and
/// discriminated unions.
extension OpenAPISchemas {
    /// Builds the model named `name` from its schema.
    mutating func buildModel(named name: Named, _ node: JSONNode, in file: String) -> Model {
        let description = (node["description"]?.value.stringValue ?? node["title"]?.value.stringValue)
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        if let values = Self.stringEnumValues(node) {
            return Model(name: name, description: description, kind: .enumeration(enumValues(values, of: name.name)))
        }
        if let union = taggedUnion(node, in: file, name: name.name) {
            return Model(name: name, description: description, kind: .taggedUnion(union))
        }
        return Model(name: name, description: description, kind: .object(properties(of: node, in: file, model: name.name)))
    }

    /// Non-empty, distinct values whose Swift case names differ; the others decode as
    /// the unknown case, with a warning.
    private mutating func enumValues(_ nodes: [JSONNode], of model: String) -> [EnumValue] {
        var values: [EnumValue] = []
        var seen: Set<String> = []
        var caseNames: Set<String> = []
        for node in nodes {
            guard let text = node.stringValue else { continue }
            let caseName = SwiftNaming.caseName(text, position: values.count)
            guard !text.isEmpty, !SwiftNaming.isNameless(text), !seen.contains(text), !caseNames.contains(caseName) else {
                diagnostics.append(
                    .warning(
                        "enum value \(quoted(text)) of \(quoted(model)) is left out: it has no Swift case name of its own; it decodes as the unknown case",
                        at: node.location))
                continue
            }
            seen.insert(text)
            caseNames.insert(caseName)
            values.append(EnumValue(value: text, location: node.location))
        }
        return values
    }

    /// The properties of an object schema and of every `allOf` part it merges, in order;
    /// a property named again replaces the earlier one in place. Parts are walked with a
    /// stack, and each referenced part is merged once, so cycles end.
    private mutating func properties(of node: JSONNode, in file: String, model: String) -> [Property] {
        var entries: [(member: JSONMember, file: String)] = []
        var required: Set<String> = []
        var visited: Set<String> = []
        var stack: [(node: JSONNode, file: String, isRoot: Bool)] = [(node, file, true)]
        while let (part, partFile, isRoot) = stack.popLast() {
            guard let target = references.resolve(part, in: partFile) else { continue }
            if OpenAPIReferences.reference(of: part) != nil, !visited.insert(target.key).inserted { continue }
            let shape = target.node
            let hasObjectShape = shape["properties"] != nil || shape["allOf"] != nil || Self.types(of: shape) == ["object"]
            if !isRoot, !hasObjectShape {
                diagnostics.append(
                    .warning("a part of \(quoted(model))'s allOf is left out: it is not an object", at: part.location))
                continue
            }
            for name in shape["required"]?.value.elements?.compactMap(\.stringValue) ?? [] { required.insert(name) }
            for member in shape["properties"]?.value.members ?? [] {
                if let index = entries.firstIndex(where: { $0.member.key == member.key }) {
                    entries[index] = (member, target.file)
                } else {
                    entries.append((member, target.file))
                }
            }
            for child in (shape["allOf"]?.value.elements ?? []).reversed() { stack.append((child, target.file, false)) }
            if isRoot, let choice = shape["oneOf"] ?? shape["anyOf"] {
                let reason = shape["discriminator"] == nil
                    ? "it has no discriminator" : "no variant is a $ref to an object schema"
                diagnostics.append(
                    .warning(
                        "the \(choice.key) of \(quoted(model)) is left out: \(reason); only the shared properties are kept",
                        at: choice.keyLocation))
            }
            if let extra = shape["additionalProperties"]?.value, extra.members?.isEmpty == false, shape["properties"] != nil {
                diagnostics.append(
                    .warning("additional properties of \(quoted(model)) are left out: only the named properties are kept", at: extra.location))
            }
        }
        var properties: [Property] = []
        for (member, memberFile) in entries {
            let hint = model + SwiftNaming.typeName(member.key)
            switch type(of: member.value, in: memberFile, hint: hint) {
            case .leftOut(let reason):
                warn("property \(quoted(member.key)) of \(quoted(model))", reason, at: member.keyLocation)
            case .type(let type):
                let optional = !required.contains(member.key) && !type.isOptional
                properties.append(
                    Property(
                        name: Named(name: member.key, location: member.keyLocation), type: optional ? .optional(type) : type,
                        typeLocation: member.value.location, description: Self.description(of: member.value, references: references, file: memberFile),
                        wireName: member.key))
            }
        }
        return swiftNamed(properties, model: model)
    }

    /// The properties, each with a Swift name of its own: one the overlay gives, else made
    /// from its wire name; a name with no letter or digit is spelled out and a name another
    /// property took gets a number, each with a warning saying how to choose another.
    private mutating func swiftNamed(_ properties: [Property], model: String) -> [Property] {
        var result = properties
        var taken: Set<String> = []
        for index in result.indices {
            let wire = result[index].wireName
            if let rename = names.renamed(property: wire, of: model) {
                result[index].name.name = OpenAPINames.numbered(rename) { taken.contains($0) }
                taken.insert(result[index].name.name)
                continue
            }
            let base = OpenAPINames.memberName(wire)
            let name = OpenAPINames.numbered(base) { taken.contains($0) }
            taken.insert(name)
            let what = "property \(quoted(wire)) of \(quoted(model))"
            let advice = OpenAPINames.advice(property: wire, of: model)
            if SwiftNaming.isNameless(wire) {
                diagnostics.append(
                    .warning("\(what) has no letter or digit to make a Swift name from, so it is named \(name); \(advice)", at: result[index].name.location))
            } else if name != base {
                diagnostics.append(
                    .warning("\(what) becomes \(base) in Swift like an earlier property, so it is named \(name); \(advice)", at: result[index].name.location))
            }
            if name != SwiftNaming.memberName(wire) { result[index].name.name = name }
        }
        return result
    }

    /// A `oneOf`/`anyOf` with a discriminator: one case per named object schema, its
    /// values from the mapping or else the schema's name.
    private mutating func taggedUnion(_ node: JSONNode, in file: String, name: String) -> TaggedUnion? {
        guard let propertyName = node["discriminator"]?.value["propertyName"]?.value.stringValue,
            let variants = (node["oneOf"] ?? node["anyOf"])?.value.elements
        else { return nil }
        let mapping = node["discriminator"]?.value["mapping"]?.value.members ?? []
        var cases: [TaggedUnion.Case] = []
        for variant in variants where !Self.isNullSchema(variant) {
            guard OpenAPIReferences.reference(of: variant) != nil, let target = references.resolve(variant, in: file) else {
                warn("a variant of \(quoted(name))", "not a $ref to a named schema, which a discriminator needs", at: variant.location)
                continue
            }
            guard case .type(let type) = type(of: variant, in: file, hint: name + "Variant"), case .model(let model) = type.unwrapped else {
                warn("variant \(quoted(target.name)) of \(quoted(name))", "not an object", at: variant.location)
                continue
            }
            let values = mapping.filter { entry in
                guard let text = entry.value.stringValue else { return false }
                return text == target.name || references.resolve(entry.value.asReference, in: file)?.key == target.key
            }
            if values.isEmpty {
                cases.append(TaggedUnion.Case(value: target.name, model: model, location: variant.location))
            } else {
                cases += values.map { TaggedUnion.Case(value: $0.key, model: model, location: $0.keyLocation) }
            }
        }
        return cases.isEmpty ? nil : TaggedUnion(propertyName: propertyName, cases: cases)
    }

    /// A schema's description, or the description of what it refers to.
    static func description(of node: JSONNode, references: OpenAPIReferences, file: String) -> String? {
        var text = node["description"]?.value.stringValue
        if text == nil, OpenAPIReferences.reference(of: node) != nil {
            text = references.resolve(node, in: file)?.node["description"]?.value.stringValue
        }
        return text.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }
}

/// Discriminator mappings name schemas by `$ref` text.
extension JSONNode {
    /// `{"$ref": text}` at the same place, for mapping values written as bare references.
    var asReference: JSONNode {
        guard let text = stringValue, text.contains("#") || text.contains(".") else {
            return JSONNode(value: .object([]), location: location)
        }
        return JSONNode(value: .object([JSONMember(key: "$ref", keyLocation: location, value: self)]), location: location)
    }
}
