#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CacheGenReading
import CacheGenSpec

/// Objects: the properties of a schema and of every `allOf` part it merges, with their Swift
/// names, and the keys besides them (`additionalProperties`).
extension OpenAPIModelBuilder {
    /// The properties of an object schema and of every `allOf` part it merges, in order;
    /// a property named again replaces the earlier one in place. The object variants of a
    /// `oneOf`/`anyOf` beside properties (or in an `allOf` part) are merged too, their
    /// properties optional, so no field the server sends is lost. Parts that only annotate or
    /// constrain (`description`, `nullable`, `required`) add nothing. Parts are walked with a
    /// stack, and each referenced part is merged once, so cycles end.
    ///
    /// Also returns the first `additionalProperties` schema of the object or an `allOf` part
    /// (`true` or a schema; `false` keeps none), with its file.
    mutating func properties(of node: JSONNode, in file: String, model: String)
        -> (properties: [Property], extra: (node: JSONNode, file: String)?)
    {
        var entries: [(member: JSONMember, file: String)] = []
        var extra: (node: JSONNode, file: String)?
        // Where each key is in `entries`, so a property named again is found without a scan.
        var positions: [String: Int] = [:]
        var required: Set<String> = []
        var visited: Set<String> = []
        var stack: [(node: JSONNode, file: String, isRoot: Bool, isVariant: Bool)] = [(node, file, true, false)]
        while let (part, partFile, isRoot, isVariant) = stack.popLast() {
            guard let target = schemas.references.resolve(part, in: partFile, otherwise: "what it adds to \(quoted(model)) is left out") else { continue }
            if OpenAPIReferences.reference(of: part) != nil, !visited.insert(target.key).inserted { continue }
            let shape = target.node
            let hasObjectShape = shape["properties"] != nil || shape["allOf"] != nil || OpenAPISchemaShape.types(of: shape) == ["object"]
            if !isRoot, !hasObjectShape {
                if OpenAPISchemaShape.isAnnotationOnly(shape) || OpenAPISchemaShape.isConstraintOnly(shape) { continue }
                if let choice = shape["oneOf"] ?? shape["anyOf"], let variants = choice.value.elements {
                    for variant in variants.reversed() where !OpenAPISchemaShape.isNullSchema(variant) { stack.append((variant, target.file, false, true)) }
                    continue
                }
                // No value is both an object and a string, so an `allOf` part that is not an
                // object loses nothing; a variant that is not one is a value the model cannot hold.
                if isVariant {
                    schemas.diagnostics.append(.warning("a variant of \(quoted(model))'s \(choiceKey(of: node)) is left out: it is not an object", at: part.location))
                }
                continue
            }
            if !isVariant {
                for name in shape["required"]?.value.elements?.compactMap(\.stringValue) ?? [] { required.insert(name) }
            }
            for member in shape["properties"]?.value.members ?? [] {
                if let index = positions[member.key] {
                    entries[index] = (member, target.file)
                } else {
                    positions[member.key] = entries.count
                    entries.append((member, target.file))
                }
            }
            for child in (shape["allOf"]?.value.elements ?? []).reversed() { stack.append((child, target.file, false, isVariant)) }
            if isRoot, let choice = shape["oneOf"] ?? shape["anyOf"], let variants = choice.value.elements {
                for variant in variants.reversed() where !OpenAPISchemaShape.isNullSchema(variant) { stack.append((variant, target.file, false, true)) }
            }
            if !isVariant, extra == nil, let schema = shape["additionalProperties"]?.value, schema.boolValue == true || schema.members != nil {
                extra = (schema, target.file)
            }
        }
        var properties: [Property] = []
        for (member, memberFile) in entries {
            switch schemas.type(of: member.value, in: memberFile, hint: model + SwiftNaming.typeName(member.key)) {
            case .leftOut(let reason):
                schemas.warn("property \(quoted(member.key)) of \(quoted(model))", reason, at: member.keyLocation)
            case .type(let type):
                let optional = !required.contains(member.key) && !type.isOptional
                var property = Property(
                    name: Named(name: member.key, location: member.keyLocation), type: optional ? .optional(type) : type,
                    typeLocation: member.value.location, description: Self.description(of: member.value, references: schemas.references, file: memberFile),
                    wireName: member.key)
                // A file part carries its header fields itself (`MultipartFile.headers`).
                if !Self.isFileType(type) { property.partHeaders = schemas.partHeaders(of: member.key, in: model) }
                properties.append(property)
            }
        }
        return (swiftNamed(properties, model: model), extra)
    }

    /// The keys other than the properties, kept in `additionalProperties` (numbered when a
    /// property has that name): any JSON for `true` or `{}`, else the schema's type; `nil`,
    /// with a warning, when the schema cannot be mapped.
    mutating func additionalProperties(_ node: JSONNode, in file: String, of model: String, besides properties: [Property])
        -> AdditionalProperties?
    {
        var type = TypeRef.scalar(.json)
        if node.boolValue != true, node.members?.isEmpty == false {
            switch schemas.type(of: node, in: file, hint: model + "Value") {
            case .type(let mapped): type = mapped
            case .leftOut(let reason):
                schemas.warn("additional properties of \(quoted(model))", reason, at: node.location)
                return nil
            }
        }
        let taken = Set(properties.map { SwiftNaming.memberName($0.name.name) })
        let name = SwiftNaming.numbered("additionalProperties") { taken.contains($0) }
        return AdditionalProperties(name: name, type: type, location: node.location)
    }

    /// Whether a property's type is a file, or an array of files, optional or not.
    private static func isFileType(_ type: TypeRef) -> Bool {
        switch type {
        case .scalar(.file): true
        case .optional(let wrapped), .array(let wrapped): isFileType(wrapped)
        default: false
        }
    }

    /// The properties, each with a Swift name of its own: one the overlay gives, else made
    /// from its wire name; a name with no letter or digit is spelled out and a name another
    /// property took gets a number, each with a warning saying how to choose another.
    private mutating func swiftNamed(_ properties: [Property], model: String) -> [Property] {
        var result = properties
        var taken: Set<String> = []
        for index in result.indices {
            let wire = result[index].wireName
            if let rename = schemas.names.renamed(property: wire, of: model) {
                result[index].name.name = SwiftNaming.numbered(rename) { taken.contains($0) }
                taken.insert(result[index].name.name)
                continue
            }
            // `OpenAPINames.memberName(wire)`, with the plain Swift name kept for the end.
            let plain = SwiftNaming.memberName(wire)
            let base = SwiftNaming.isNameless(wire) ? OpenAPINames.spelled(wire) : OpenAPINames.shortened(plain)
            let name = SwiftNaming.numbered(base) { taken.contains($0) }
            taken.insert(name)
            // The message is made only when there is a warning: most properties need none.
            let what = { "property \(quoted(wire)) of \(quoted(model))" }
            let advice = { OpenAPINames.advice(property: wire, of: model) }
            if SwiftNaming.isNameless(wire) {
                schemas.diagnostics.append(
                    .warning("\(what()) has no letter or digit to make a Swift name from, so it is named \(name); \(advice())", at: result[index].name.location))
            } else if name != base {
                schemas.diagnostics.append(
                    .warning("\(what()) becomes \(base) in Swift like an earlier property, so it is named \(name); \(advice())", at: result[index].name.location))
            }
            if name != plain { result[index].name.name = name }
        }
        return result
    }

    /// `oneOf` or `anyOf`, whichever the schema uses.
    private func choiceKey(of node: JSONNode) -> String {
        node["oneOf"] != nil ? "oneOf" : "anyOf"
    }

    /// A schema's description, or the description of what it refers to.
    package static func description(of node: JSONNode, references: OpenAPIReferences, file: String) -> String? {
        var text = node["description"]?.value.stringValue
        if text == nil, OpenAPIReferences.reference(of: node) != nil {
            text = references.resolve(node, in: file)?.node["description"]?.value.stringValue
        }
        return text.map { $0.trimmingWhitespaceAndNewlines() }
    }
}
