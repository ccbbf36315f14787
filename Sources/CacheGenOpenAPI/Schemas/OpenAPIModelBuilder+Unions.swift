#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CacheGenReading
import CacheGenSpec

/// Unions: a `oneOf`/`anyOf` with a discriminator (a case per object schema, by the values
/// of its discriminator property), one without (a case per variant, tried in order, named
/// after it), and the cycles among unions that decoding would follow without end.
extension OpenAPIModelBuilder {
    /// A `oneOf`/`anyOf` with a discriminator: one case per named object schema, its
    /// values from the mapping or else the schema's name; an inline variant is a model named
    /// after its title (else the union and the value), its value the one its discriminator
    /// property allows (`enum: [x]` or `const: x`, in the variant or its `allOf` parts).
    mutating func taggedUnion(_ node: JSONNode, in file: String, name: String) -> TaggedUnion? {
        guard let propertyName = node["discriminator"]?.value["propertyName"]?.value.stringValue,
            let variants = (node["oneOf"] ?? node["anyOf"])?.value.elements
        else { return nil }
        let mapping = node["discriminator"]?.value["mapping"]?.value.members ?? []
        var cases: [TaggedUnion.Case] = []
        for variant in variants where !OpenAPISchemaShape.isNullSchema(variant) {
            if OpenAPIReferences.reference(of: variant) == nil {
                guard let values = tagValues(of: variant, property: propertyName, in: file), values.count == 1, let value = values.first else {
                    schemas.warn(
                        "a variant of \(quoted(name))",
                        "not a $ref to a named schema, and its \(quoted(propertyName)) allows no single value, which a discriminator needs",
                        at: variant.location)
                    continue
                }
                let title = variant["title"]?.value.stringValue.flatMap { SwiftNaming.isNameless($0) ? nil : $0 }
                let hint = title ?? name + SwiftNaming.typeName(value)
                guard case .type(let type) = schemas.type(of: variant, in: file, hint: hint), case .model(let model) = type.unwrapped else {
                    schemas.warn("variant \(quoted(value)) of \(quoted(name))", "not an object", at: variant.location)
                    continue
                }
                cases.append(TaggedUnion.Case(value: value, model: model, location: variant.location))
                continue
            }
            guard let target = schemas.references.resolve(variant, in: file, otherwise: "the variant is left out of \(quoted(name))") else { continue }
            guard case .type(let type) = schemas.type(of: variant, in: file, hint: name + "Variant"), case .model(let model) = type.unwrapped else {
                schemas.warn("variant \(quoted(target.name)) of \(quoted(name))", "not an object", at: variant.location)
                continue
            }
            let values = mapping.filter { entry in
                guard let text = entry.value.stringValue else { return false }
                return text == target.name || schemas.references.resolve(entry.value.asReference, in: file)?.key == target.key
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
            schemas.warn("the defaultMapping of \(quoted(union))", "not a string naming a schema", at: member.value.location)
            return nil
        }
        let reference = text.contains("#") || text.contains(".") || text.contains("/") ? text : "#/components/schemas/" + OpenAPIReferences.escaped(text)
        let node = JSONNode(value: .string(reference), location: member.value.location).asReference
        guard let target = schemas.references.resolve(node, in: file, otherwise: "the defaultMapping of \(quoted(union)) is left out") else { return nil }
        guard case .type(let type) = schemas.type(of: node, in: file, hint: union + "Default"), case .model(let model) = type.unwrapped else {
            schemas.warn("the defaultMapping of \(quoted(union))", "not an object schema", at: member.value.location)
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
            guard let target = schemas.references.resolve(part, in: partFile) else { continue }
            if let schema = target.node["properties"]?.value[property]?.value,
                let resolved = schemas.references.resolve(schema, in: target.file)?.node
            {
                if let value = resolved["const"]?.value.stringValue { return [value] }
                if let values = OpenAPISchemaShape.stringEnumValues(resolved)?.compactMap(\.stringValue), !values.isEmpty { return values }
            }
            for child in (target.node["allOf"]?.value.elements ?? []).reversed() { stack.append((child, target.file)) }
        }
        return nil
    }

    /// A case per variant, in document order, named after it: a `$ref`'s schema
    /// (`imagePart`), a type (`string`, `integer`), an array's elements (`parts`), a title,
    /// or a single enum value; a name taken already gets a number. A case name starts with a
    /// lower-case letter and is no keyword (`unionCaseName`), and is never the name of a type
    /// the enum uses, which it would hide (`_0(_0)` does not compile). A variant that is the
    /// union itself, or that cannot be mapped, is left aside: its values decode as
    /// the case that keeps any JSON.
    mutating func untaggedCases(_ variants: [JSONNode], in file: String, union: String) -> [UntaggedUnionCase] {
        var cases: [UntaggedUnionCase] = []
        var names: Set<String> = []
        for (position, variant) in variants.enumerated() {
            let words = OpenAPIModelRegistry.shortened(SwiftNaming.memberName(caseBase(variant, in: file, position: position)))
            let base = Self.unionCaseName(words)
            switch schemas.type(of: variant, in: file, hint: union + SwiftNaming.typeName(words)) {
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
        if OpenAPIReferences.reference(of: variant) != nil, let target = schemas.references.resolve(variant, in: file) {
            return OpenAPIPlaceName.name(of: target, references: schemas.references)
        }
        if let title = variant["title"]?.value.stringValue, !SwiftNaming.isNameless(title) { return title }
        if let values = OpenAPISchemaShape.stringEnumValues(variant), values.count == 1, let value = values[0].stringValue,
            !SwiftNaming.isNameless(value)
        {
            return value
        }
        if let single = OpenAPISchemaShape.singleVariant(variant) { return caseBase(single, in: file, position: position) }
        let types = OpenAPISchemaShape.types(of: variant)
        switch types.count == 1 ? types[0] : OpenAPISchemaShape.impliedType(of: variant) {
        case "string":
            switch variant["format"]?.value.stringValue {
            case "date-time": return "date"
            case "uuid": return "uuid"
            case "uri", "url": return "url"
            case "binary" where schemas.filesAllowed: return "file"
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

    /// A union case's name that cannot be read as anything else in the enum: it starts with a
    /// lower-case letter, so no type name (upper case, or `_` and a digit) is ever the same
    /// (`_0` → `value0`), and it is no keyword (`default` → `defaultValue`).
    package static func unionCaseName(_ name: String) -> String {
        var name = name
        if let first = name.utf8.first, !(first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z")) {
            let rest = name.drop { $0 == "_" }
            name = "value" + (rest.first.map { $0.uppercased() + rest.dropFirst() } ?? "")
        }
        return SwiftNaming.keywords.contains(name) ? name + "Value" : name
    }

    /// The Swift type names of the models a type uses, which a case name must not be.
    package static func modelNames(in type: TypeRef) -> [String] {
        switch type {
        case .model(let name): [SwiftNaming.typeName(name)]
        case .optional(let wrapped), .array(let wrapped), .dictionary(let wrapped): modelNames(in: wrapped)
        default: []
        }
    }

    /// Leaves out a union's case whose type is a union that leads back to it through cases
    /// alone (`A: anyOf [B, string]`, `B: anyOf [A, integer]`): trying it would decode the
    /// same value again without end. Such values still decode through the other cases.
    package static func breakUnionCycles(_ models: inout [Model]) {
        var index: [String: Int] = [:]
        for (position, model) in models.enumerated() where index[model.name.name] == nil { index[model.name.name] = position }
        func unionCases(_ name: String) -> [UntaggedUnionCase] {
            guard let position = index[name], case .untaggedUnion(let cases) = models[position].kind else { return [] }
            return cases
        }
        func leadsBack(from start: String, to target: String) -> Bool {
            var seen: Set<String> = []
            var stack = [start]
            while let name = stack.popLast() {
                if name == target { return true }
                guard seen.insert(name).inserted else { continue }
                for choice in unionCases(name) {
                    if case .model(let next) = choice.type { stack.append(next) }
                }
            }
            return false
        }
        for position in models.indices {
            guard case .untaggedUnion(let cases) = models[position].kind else { continue }
            let name = models[position].name.name
            let kept = cases.filter { choice in
                guard case .model(let next) = choice.type, !unionCases(next).isEmpty else { return true }
                return !leadsBack(from: next, to: name)
            }
            if kept.count != cases.count { models[position].kind = .untaggedUnion(kept) }
        }
    }
}
