import CacheGenReading

/// What a schema node is, read from its keys alone (no `$ref` followed): a union's variants,
/// annotations and constraints, null, its types, a string enum's values.
package enum OpenAPISchemaShape {
    /// The one non-null variant of a `oneOf`/`anyOf`/`allOf` that only adds `null` or
    /// nothing (`anyOf: [$ref, {type: null}]`), which is that variant, maybe optional.
    package static func singleVariant(_ node: JSONNode) -> JSONNode? {
        if node["discriminator"] != nil || node["properties"] != nil { return nil }
        for key in ["oneOf", "anyOf", "allOf"] {
            guard let parts = node[key]?.value.elements else { continue }
            // An `allOf` part that only annotates (`description`, `nullable`) adds no shape.
            let real = parts.filter { !isNullSchema($0) && !(key == "allOf" && isAnnotationOnly($0)) }
            if real.count == 1, real.count < parts.count || key == "allOf" || parts.count == 1 { return real[0] }
        }
        return nil
    }

    /// The variants of a `oneOf`/`anyOf` without a discriminator and without properties of
    /// its own, `null` left aside, when there are at least two: an untagged union.
    package static func untaggedVariants(_ node: JSONNode) -> [JSONNode]? {
        guard node["discriminator"] == nil, node["properties"]?.value.members?.isEmpty != false,
            let parts = (node["oneOf"] ?? node["anyOf"])?.value.elements
        else { return nil }
        let real = parts.filter { !isNullSchema($0) }
        return real.count >= 2 ? real : nil
    }

    /// Keywords that describe or constrain a value without changing its type.
    private static let annotationKeys: Set<String> = [
        "description", "title", "nullable", "default", "readOnly", "writeOnly", "deprecated", "example", "examples",
        "externalDocs", "$comment", "xml", "minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum",
        "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties",
    ]

    /// A schema that only describes or constrains (`{description: …, nullable: true}`),
    /// which an `allOf` part may be: it adds nothing to the value's shape.
    package static func isAnnotationOnly(_ node: JSONNode) -> Bool {
        guard let members = node.members else { return false }
        return members.allSatisfy { annotationKeys.contains($0.key) || $0.key.hasPrefix("x-") }
    }

    /// A schema that only lists `required` names (with annotations), as the variants of a
    /// `oneOf` that says which properties go together do: it adds no property.
    package static func isConstraintOnly(_ node: JSONNode) -> Bool {
        guard let members = node.members, members.contains(where: { $0.key == "required" }) else { return false }
        return members.allSatisfy { $0.key == "required" || isAnnotationOnly(JSONNode(value: .object([$0]), location: node.location)) }
    }

    /// `{type: null}`, `{type: [null]}`, `{enum: [null]}`.
    package static func isNullSchema(_ node: JSONNode) -> Bool {
        types(of: node) == ["null"] || node["enum"]?.value.elements.map { $0.allSatisfy(\.isNull) } == true
    }

    /// Whether `null` is a valid value: 3.0 `nullable`, 3.1 `type: [T, "null"]`, an enum
    /// listing null, or a `oneOf`/`anyOf` with a null variant.
    package static func isNullable(_ node: JSONNode) -> Bool {
        if node["nullable"]?.value.boolValue == true { return true }
        if node["type"]?.value.elements?.contains(where: { $0.stringValue == "null" || $0.isNull }) == true { return true }
        if node["enum"]?.value.elements?.contains(where: \.isNull) == true { return true }
        for key in ["oneOf", "anyOf"] where node[key]?.value.elements?.contains(where: isNullSchema) == true { return true }
        if node["allOf"]?.value.elements?.contains(where: { isAnnotationOnly($0) && $0["nullable"]?.value.boolValue == true }) == true {
            return true
        }
        return false
    }

    /// The schema's types other than `null`: `type: string` or `type: [string, "null"]`.
    package static func types(of node: JSONNode) -> [String] {
        guard let value = node["type"]?.value else { return [] }
        if let text = value.stringValue { return text == "null" ? ["null"] : [text] }
        // YAML's unquoted `null` in `type: [string, null]` reads as null, not "null".
        let all = value.elements?.compactMap { $0.isNull ? "null" : $0.stringValue } ?? []
        let real = all.filter { $0 != "null" }
        return real.isEmpty && !all.isEmpty ? ["null"] : real
    }

    /// The type a schema without `type` implies by its keywords.
    package static func impliedType(of node: JSONNode) -> String {
        if node["items"] != nil { return "array" }
        if node["properties"] != nil || node["additionalProperties"] != nil { return "object" }
        if let values = node["enum"]?.value.elements, let first = values.first(where: { !$0.isNull }) {
            switch first.value {
            case .string: return "string"
            case .number: return first.intValue != nil ? "integer" : "number"
            case .bool: return "boolean"
            default: return ""
            }
        }
        return ""
    }

    /// The values of a string enum (`null` left aside), or `nil` for other schemas.
    package static func stringEnumValues(_ node: JSONNode) -> [JSONNode]? {
        guard let values = node["enum"]?.value.elements else { return nil }
        let real = values.filter { !$0.isNull }
        guard !real.isEmpty, real.allSatisfy({ $0.stringValue != nil }) else { return nil }
        let types = types(of: node)
        return types.isEmpty || types == ["string"] ? real : nil
    }
}
