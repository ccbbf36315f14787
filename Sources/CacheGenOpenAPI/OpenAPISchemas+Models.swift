#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CacheGenReading
import CacheGenSpec

/// The models themselves: objects (with `allOf` merged), string enums, discriminated
/// unions, and unions without a discriminator.
extension OpenAPISchemas {
    /// Builds the model named `name` from its schema.
    package mutating func buildModel(named name: Named, _ node: JSONNode, in file: String) -> Model {
        let description = (node["description"]?.value.stringValue ?? node["title"]?.value.stringValue)
            .map { $0.trimmingWhitespaceAndNewlines() }
        if let values = Self.stringEnumValues(node) {
            return Model(name: name, description: description, kind: .enumeration(enumValues(values)))
        }
        if let union = taggedUnion(node, in: file, name: name.name) {
            return Model(name: name, description: description, kind: .taggedUnion(union))
        }
        if let variants = Self.untaggedVariants(node) {
            return Model(name: name, description: description, kind: .untaggedUnion(untaggedCases(variants, in: file, union: name.name)))
        }
        let (properties, extra) = properties(of: node, in: file, model: name.name)
        var model = Model(name: name, description: description, kind: .object(properties))
        if let identity = node["x-cachegen-identity"] {
            if let property = identity.value.stringValue {
                model.identity = Named(name: property, location: identity.value.location)
            } else {
                warn("x-cachegen-identity of \(quoted(name.name))", "not a string naming a property", at: identity.value.location)
            }
        }
        if let extra { model.additionalProperties = additionalProperties(extra.node, in: extra.file, of: name.name, besides: properties) }
        return model
    }

    /// The keys other than the properties, kept in `additionalProperties` (numbered when a
    /// property has that name): any JSON for `true` or `{}`, else the schema's type; `nil`,
    /// with a warning, when the schema cannot be mapped.
    private mutating func additionalProperties(_ node: JSONNode, in file: String, of model: String, besides properties: [Property])
        -> AdditionalProperties?
    {
        var type = TypeRef.scalar(.json)
        if node.boolValue != true, node.members?.isEmpty == false {
            switch self.type(of: node, in: file, hint: model + "Value") {
            case .type(let mapped): type = mapped
            case .leftOut(let reason):
                warn("additional properties of \(quoted(model))", reason, at: node.location)
                return nil
            }
        }
        let taken = Set(properties.map { SwiftNaming.memberName($0.name.name) })
        let name = SwiftNaming.numbered("additionalProperties") { taken.contains($0) }
        return AdditionalProperties(name: name, type: type, location: node.location)
    }

    /// A case per variant, in document order, named after it: a `$ref`'s schema
    /// (`imagePart`), a type (`string`, `integer`), an array's elements (`parts`), a title,
    /// or a single enum value; a name taken already gets a number. A case name starts with a
    /// lower-case letter and is no keyword (`unionCaseName`), and is never the name of a type
    /// the enum uses, which it would hide (`_0(_0)` does not compile). A variant that is the
    /// union itself, or that cannot be mapped, is left aside: its values decode as
    /// the case that keeps any JSON.
    private mutating func untaggedCases(_ variants: [JSONNode], in file: String, union: String) -> [UntaggedUnionCase] {
        var cases: [UntaggedUnionCase] = []
        var names: Set<String> = []
        for (position, variant) in variants.enumerated() {
            let words = Self.shortened(SwiftNaming.memberName(caseBase(variant, in: file, position: position)))
            let base = Self.unionCaseName(words)
            switch type(of: variant, in: file, hint: union + SwiftNaming.typeName(words)) {
            case .leftOut:
                // A value of it decodes as the case that keeps any JSON: nothing is lost.
                continue
            case .type(let type) where type.unwrapped == .model(union):
                // The union itself (`A: anyOf [A, string]`) adds no value, and trying it would
                // decode it again without end.
                continue
            case .type(let type):
                var name = base
                var number = 2
                while names.contains(name) {
                    name = base + String(number)
                    number += 1
                }
                names.insert(name)
                cases.append(UntaggedUnionCase(name: name, type: type.unwrapped, location: variant.location))
            }
        }
        // A case named as a type the enum uses would hide that type inside the enum.
        let types = Set(cases.flatMap { Self.modelNames(in: $0.type) } + [SwiftNaming.typeName(union)])
        for index in cases.indices where types.contains(cases[index].name) {
            let others = Set(cases.map(\.name))
            cases[index].name = SwiftNaming.numbered(cases[index].name + "Value") { others.contains($0) || types.contains($0) }
        }
        return cases
    }

    /// The words a variant's case is named from.
    private func caseBase(_ variant: JSONNode, in file: String, position: Int) -> String {
        if OpenAPIReferences.reference(of: variant) != nil, let target = references.resolve(variant, in: file) {
            return placeName(of: target)
        }
        if let title = variant["title"]?.value.stringValue, !SwiftNaming.isNameless(title) { return title }
        if let values = Self.stringEnumValues(variant), values.count == 1, let value = values[0].stringValue,
            !SwiftNaming.isNameless(value)
        {
            return value
        }
        if let single = Self.singleVariant(variant) { return caseBase(single, in: file, position: position) }
        let types = Self.types(of: variant)
        switch types.count == 1 ? types[0] : Self.impliedType(of: variant) {
        case "string":
            switch variant["format"]?.value.stringValue {
            case "date-time": return "date"
            case "uuid": return "uuid"
            case "uri", "url": return "url"
            case "binary" where filesAllowed: return "file"
            default: return "string"
            }
        case "integer": return "integer"
        case "number": return "number"
        case "boolean": return "boolean"
        case "array":
            guard let items = variant["items"]?.value else { return "array" }
            return Self.plural(caseBase(items, in: file, position: position))
        case "object":
            return variant["properties"] != nil || variant["allOf"] != nil ? "object" : "dictionary"
        default:
            return variant["oneOf"] != nil || variant["anyOf"] != nil ? "choice" : "json"
        }
    }

    /// An English plural, good enough for names: `part` → `parts`, `entry` → `entries`.
    package static func plural(_ word: String) -> String {
        let lower = word.lowercased()
        if lower.hasSuffix("s") || lower.hasSuffix("x") || lower.hasSuffix("ch") || lower.hasSuffix("sh") { return word + "es" }
        if lower.hasSuffix("y"), let before = lower.dropLast().last, !"aeiou".contains(before) { return word.dropLast() + "ies" }
        return word + "s"
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

    /// The properties of an object schema and of every `allOf` part it merges, in order;
    /// a property named again replaces the earlier one in place. The object variants of a
    /// `oneOf`/`anyOf` beside properties (or in an `allOf` part) are merged too, their
    /// properties optional, so no field the server sends is lost. Parts that only annotate or
    /// constrain (`description`, `nullable`, `required`) add nothing. Parts are walked with a
    /// stack, and each referenced part is merged once, so cycles end.
    ///
    /// Also returns the first `additionalProperties` schema of the object or an `allOf` part
    /// (`true` or a schema; `false` keeps none), with its file.
    private mutating func properties(of node: JSONNode, in file: String, model: String)
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
            guard let target = references.resolve(part, in: partFile, otherwise: "what it adds to \(quoted(model)) is left out") else { continue }
            if OpenAPIReferences.reference(of: part) != nil, !visited.insert(target.key).inserted { continue }
            let shape = target.node
            let hasObjectShape = shape["properties"] != nil || shape["allOf"] != nil || Self.types(of: shape) == ["object"]
            if !isRoot, !hasObjectShape {
                if Self.isAnnotationOnly(shape) || Self.isConstraintOnly(shape) { continue }
                if let choice = shape["oneOf"] ?? shape["anyOf"], let variants = choice.value.elements {
                    for variant in variants.reversed() where !Self.isNullSchema(variant) { stack.append((variant, target.file, false, true)) }
                    continue
                }
                // No value is both an object and a string, so an `allOf` part that is not an
                // object loses nothing; a variant that is not one is a value the model cannot hold.
                if isVariant {
                    diagnostics.append(.warning("a variant of \(quoted(model))'s \(choiceKey(of: node)) is left out: it is not an object", at: part.location))
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
                for variant in variants.reversed() where !Self.isNullSchema(variant) { stack.append((variant, target.file, false, true)) }
            }
            if !isVariant, extra == nil, let schema = shape["additionalProperties"]?.value, schema.boolValue == true || schema.members != nil {
                extra = (schema, target.file)
            }
        }
        var properties: [Property] = []
        for (member, memberFile) in entries {
            switch type(of: member.value, in: memberFile, hint: model + SwiftNaming.typeName(member.key)) {
            case .leftOut(let reason):
                warn("property \(quoted(member.key)) of \(quoted(model))", reason, at: member.keyLocation)
            case .type(let type):
                let optional = !required.contains(member.key) && !type.isOptional
                var property = Property(
                    name: Named(name: member.key, location: member.keyLocation), type: optional ? .optional(type) : type,
                    typeLocation: member.value.location, description: Self.description(of: member.value, references: references, file: memberFile),
                    wireName: member.key)
                // A file part carries its header fields itself (`MultipartFile.headers`).
                if !Self.isFileType(type) { property.partHeaders = partHeaders(of: member.key, in: model) }
                properties.append(property)
            }
        }
        return (swiftNamed(properties, model: model), extra)
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
            if let rename = names.renamed(property: wire, of: model) {
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
                diagnostics.append(
                    .warning("\(what()) has no letter or digit to make a Swift name from, so it is named \(name); \(advice())", at: result[index].name.location))
            } else if name != base {
                diagnostics.append(
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

    /// A schema that only lists `required` names (with annotations), as the variants of a
    /// `oneOf` that says which properties go together do: it adds no property.
    package static func isConstraintOnly(_ node: JSONNode) -> Bool {
        guard let members = node.members, members.contains(where: { $0.key == "required" }) else { return false }
        return members.allSatisfy { $0.key == "required" || isAnnotationOnly(JSONNode(value: .object([$0]), location: node.location)) }
    }

    /// A `oneOf`/`anyOf` with a discriminator: one case per named object schema, its
    /// values from the mapping or else the schema's name; an inline variant is a model named
    /// after its title (else the union and the value), its value the one its discriminator
    /// property allows (`enum: [x]` or `const: x`, in the variant or its `allOf` parts).
    private mutating func taggedUnion(_ node: JSONNode, in file: String, name: String) -> TaggedUnion? {
        guard let propertyName = node["discriminator"]?.value["propertyName"]?.value.stringValue,
            let variants = (node["oneOf"] ?? node["anyOf"])?.value.elements
        else { return nil }
        let mapping = node["discriminator"]?.value["mapping"]?.value.members ?? []
        var cases: [TaggedUnion.Case] = []
        for variant in variants where !Self.isNullSchema(variant) {
            if OpenAPIReferences.reference(of: variant) == nil {
                guard let values = tagValues(of: variant, property: propertyName, in: file), values.count == 1, let value = values.first else {
                    warn(
                        "a variant of \(quoted(name))",
                        "not a $ref to a named schema, and its \(quoted(propertyName)) allows no single value, which a discriminator needs",
                        at: variant.location)
                    continue
                }
                let title = variant["title"]?.value.stringValue.flatMap { SwiftNaming.isNameless($0) ? nil : $0 }
                let hint = title ?? name + SwiftNaming.typeName(value)
                guard case .type(let type) = type(of: variant, in: file, hint: hint), case .model(let model) = type.unwrapped else {
                    warn("variant \(quoted(value)) of \(quoted(name))", "not an object", at: variant.location)
                    continue
                }
                cases.append(TaggedUnion.Case(value: value, model: model, location: variant.location))
                continue
            }
            guard let target = references.resolve(variant, in: file, otherwise: "the variant is left out of \(quoted(name))") else { continue }
            guard case .type(let type) = type(of: variant, in: file, hint: name + "Variant"), case .model(let model) = type.unwrapped else {
                warn("variant \(quoted(target.name)) of \(quoted(name))", "not an object", at: variant.location)
                continue
            }
            let values = mapping.filter { entry in
                guard let text = entry.value.stringValue else { return false }
                return text == target.name || references.resolve(entry.value.asReference, in: file)?.key == target.key
            }
            if values.isEmpty {
                // Without a mapping the value is the schema's name, unless the variant's own
                // property allows only other values (OpenAI's filters: `type` is `eq`, `ne`…):
                // then those are what the server sends, and the name never is.
                // A value an earlier variant claimed stays that variant's: the first decodes it.
                let own = (tagValues(of: target.node, property: propertyName, in: target.file) ?? [])
                    .filter { value in !cases.contains { $0.value == value } }
                let implied = own.isEmpty || own.contains(target.name) ? [target.name] : own
                cases += implied.map { TaggedUnion.Case(value: $0, model: model, location: variant.location) }
            } else {
                cases += values.map { TaggedUnion.Case(value: $0.key, model: model, location: $0.keyLocation) }
            }
        }
        guard !cases.isEmpty else { return nil }
        var union = TaggedUnion(propertyName: propertyName, cases: cases)
        if let fallback = node["discriminator"]?.value["defaultMapping"] {
            union.fallback = defaultCase(fallback, cases: &union.cases, in: file, union: name)
        }
        return union
    }

    /// The value of the case OpenAPI 3.2's `defaultMapping` names (a schema's name or a
    /// `$ref`), added as a case when no variant is that schema; `nil`, with a warning, when it
    /// names no object schema.
    private mutating func defaultCase(_ member: JSONMember, cases: inout [TaggedUnion.Case], in file: String, union: String) -> String? {
        guard let text = member.value.stringValue else {
            warn("the defaultMapping of \(quoted(union))", "not a string naming a schema", at: member.value.location)
            return nil
        }
        let reference = text.contains("#") || text.contains(".") || text.contains("/") ? text : "#/components/schemas/" + Self.escaped(text)
        let node = JSONNode(value: .string(reference), location: member.value.location).asReference
        guard let target = references.resolve(node, in: file, otherwise: "the defaultMapping of \(quoted(union)) is left out") else { return nil }
        guard case .type(let type) = type(of: node, in: file, hint: union + "Default"), case .model(let model) = type.unwrapped else {
            warn("the defaultMapping of \(quoted(union))", "not an object schema", at: member.value.location)
            return nil
        }
        if let existing = cases.first(where: { $0.model == model }) { return existing.value }
        var value = target.name
        while cases.contains(where: { $0.value == value }) { value += "_" }
        cases.append(TaggedUnion.Case(value: value, model: model, location: member.value.location))
        return value
    }

    /// The values `property` may take in an object schema: its `const`, or its enum of
    /// strings, looked for in the schema and its `allOf` parts, `$ref`s followed; `nil` when
    /// neither says.
    private func tagValues(of node: JSONNode, property: String, in file: String) -> [String]? {
        var stack = [(node, file)]
        var seen = 0
        while let (part, partFile) = stack.popLast(), seen < 64 {
            seen += 1
            guard let target = references.resolve(part, in: partFile) else { continue }
            if let schema = target.node["properties"]?.value[property]?.value,
                let resolved = references.resolve(schema, in: target.file)?.node
            {
                if let value = resolved["const"]?.value.stringValue { return [value] }
                if let values = Self.stringEnumValues(resolved)?.compactMap(\.stringValue), !values.isEmpty { return values }
            }
            for child in (target.node["allOf"]?.value.elements ?? []).reversed() { stack.append((child, target.file)) }
        }
        return nil
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

/// Discriminator mappings name schemas by `$ref` text.
extension JSONNode {
    /// `{"$ref": text}` at the same place, for mapping values written as bare references.
    package var asReference: JSONNode {
        guard let text = stringValue, text.contains("#") || text.contains(".") else {
            return JSONNode(value: .object([]), location: location)
        }
        return JSONNode(value: .object([JSONMember(key: "$ref", keyLocation: location, value: self)]), location: location)
    }
}
