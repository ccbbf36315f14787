#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns OpenAPI schemas into cachegen types, and the schemas that need a Swift type of
/// their own (objects, string enums, discriminated `oneOf`s) into models.
///
/// Component schemas are named once, by their key; a `$ref` to one becomes `.model(name)`
/// at once and the model is built later from a queue, so recursive schemas become
/// recursive models and a cycle of `$ref`s ends. Schemas that only rename another type
/// (`Pets: [Pet]`, `DOB: date-time`) are followed inline, with a guard against cycles.
/// Recursion elsewhere follows the document's nesting, which the readers bound.
struct OpenAPISchemas {
    /// What a schema maps to: a type, or why it cannot be mapped faithfully.
    enum Mapped: Equatable {
        /// The cachegen type.
        case type(TypeRef)
        /// Left out; the text finishes "… is left out: it is <reason>".
        case leftOut(String)
    }

    /// Follows `$ref`s, shared with the operations.
    let references: OpenAPIReferences
    /// Warnings about what was left out, each at the schema that caused it.
    var diagnostics: [Diagnostic] = []
    /// Models in the order they were named; `nil` until built.
    private var slots: [Model?] = []
    /// Model schemas named but not built yet.
    private var pending: [(slot: Int, node: JSONNode, file: String)] = []
    /// The model name of each component schema, by reference key.
    private var componentNames: [String: String] = [:]
    /// What each renaming component schema maps to, by reference key.
    private var aliases: [String: Mapped] = [:]
    /// Renaming components being mapped, to end cycles among them.
    private var inProgress: Set<String> = []
    /// Swift type names already taken, by models and by names reserved up front.
    private var taken: Set<String> = []
    /// Models sent as multipart bodies, and the models first named inside them, whose
    /// `format: binary` strings are files.
    private var fileModels: Set<String> = []
    /// Whether the model being built is one of `fileModels`.
    private var filesAllowed = false

    /// Put before every model name.
    private let prefix: String

    /// - Parameter prefix: put before every model name.
    init(references: OpenAPIReferences, prefix: String = "") {
        self.references = references
        self.prefix = prefix
        taken = SpecValidator.reservedTypeNames
    }

    /// Every model built so far, after building the ones still queued.
    mutating func finishModels() -> [Model] {
        // First in, first out, so models built later keep the order they were named in.
        var index = 0
        while index < pending.count {
            let next = pending[index]
            index += 1
            filesAllowed = slots[next.slot].map { fileModels.contains($0.name.name) } ?? false
            slots[next.slot] = buildModel(named: slots[next.slot]?.name ?? Named(name: "", location: next.node.location), next.node, in: next.file)
        }
        pending.removeAll()
        filesAllowed = false
        return slots.compactMap { $0 }
    }

    /// Marks a model as a multipart body's: its `format: binary` strings become files.
    mutating func allowFiles(in model: String) {
        fileModels.insert(model)
    }

    /// Names a component schema ahead of its first use, so models follow document order.
    mutating func declareComponent(_ member: JSONMember, in file: String) {
        let key = file + "#/components/schemas/" + Self.escaped(member.key)
        guard componentNames[key] == nil, isModelSchema(member.value, in: file) else { return }
        componentNames[key] = register(member.key, at: member.keyLocation, node: member.value, file: file)
    }

    /// Warns about a component schema that is neither a model nor a type, even when no
    /// operation uses it, so nothing in `components` disappears silently.
    mutating func checkComponent(_ member: JSONMember, in file: String) {
        let reference = JSONNode(
            value: .object([
                JSONMember(
                    key: "$ref", keyLocation: member.keyLocation,
                    value: JSONNode(value: .string("#/components/schemas/" + Self.escaped(member.key)), location: member.keyLocation))
            ]), location: member.keyLocation)
        if case .leftOut(let reason) = type(of: reference, in: file, hint: member.key) {
            warn("schema \(quoted(member.key))", reason, at: member.keyLocation)
        }
    }

    /// A key as a JSON pointer segment (`/` as `~1`, `~` as `~0`).
    static func escaped(_ key: String) -> String {
        guard key.contains(where: { $0 == "~" || $0 == "/" }) else { return key }
        return key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// The type of `node`; `hint` names a model made for an inline schema.
    mutating func type(of node: JSONNode, in file: String, hint: String) -> Mapped {
        if OpenAPIReferences.reference(of: node) != nil {
            guard let target = references.resolve(node, in: file) else { return .leftOut(Self.brokenReference) }
            return referencedType(target)
        }
        let nullable = Self.isNullable(node)
        let mapped = inlineType(of: node, in: file, hint: hint)
        guard nullable, case .type(let type) = mapped, !type.isOptional else { return mapped }
        return .type(.optional(type))
    }

    /// A component reached through `$ref`: its model, or what it renames.
    private mutating func referencedType(_ target: OpenAPIReferences.Target) -> Mapped {
        if let name = componentNames[target.key] { return .type(wrap(.model(name), Self.isNullable(target.node))) }
        if isModelSchema(target.node, in: target.file) {
            let name = register(target.name, at: target.node.location, node: target.node, file: target.file)
            componentNames[target.key] = name
            return .type(wrap(.model(name), Self.isNullable(target.node)))
        }
        if let known = aliases[target.key] { return known }
        guard inProgress.insert(target.key).inserted else {
            return .leftOut("a schema that contains itself with no object in between")
        }
        let mapped = type(of: target.node, in: target.file, hint: target.name)
        inProgress.remove(target.key)
        aliases[target.key] = mapped
        return mapped
    }

    /// An inline schema's type, without its nullability.
    private mutating func inlineType(of node: JSONNode, in file: String, hint: String) -> Mapped {
        if let single = Self.singleVariant(node) { return type(of: single, in: file, hint: hint) }
        if isModelSchema(node, in: file) {
            return .type(.model(register(hint, at: node.location, node: node, file: file)))
        }
        if node["oneOf"] != nil || node["anyOf"] != nil {
            return .leftOut((node["oneOf"] != nil ? "a oneOf" : "an anyOf") + " without a discriminator, which cannot be decoded faithfully")
        }
        if let parts = node["allOf"]?.value.elements, let first = parts.first {
            return type(of: first, in: file, hint: hint)
        }
        let types = Self.types(of: node)
        guard types.count <= 1 else { return .leftOut("a value of several types (\(types.joined(separator: ", ")))") }
        switch types.first ?? Self.impliedType(of: node) {
        case "string":
            let format = node["format"]?.value.stringValue
            if filesAllowed, format == "binary" { return .type(.scalar(.file)) }
            return Self.stringType(format: format)
        case "integer": return .type(.scalar(.int))
        case "number": return .type(.scalar(.double))
        case "boolean": return .type(.scalar(.bool))
        case "array":
            guard let items = node["items"]?.value else { return .leftOut("an array without \"items\"") }
            let element = type(of: items, in: file, hint: hint + "Item")
            guard case .type(let elementType) = element else { return element }
            return .type(.array(elementType))
        case "object":
            guard let extra = node["additionalProperties"]?.value, extra.members != nil else {
                return .leftOut("an object without properties (any JSON)")
            }
            let value = type(of: extra, in: file, hint: hint + "Value")
            guard case .type(let valueType) = value else { return value }
            return .type(.dictionary(valueType))
        case "null": return .leftOut("always null")
        default: return .leftOut("a schema without a type (any JSON)")
        }
    }

    /// `string` by format: dates, UUIDs and URLs get their Swift types; `date`, `byte`
    /// and other formats stay text; `binary` is not JSON.
    static func stringType(format: String?) -> Mapped {
        switch format {
        case "date-time": .type(.scalar(.date))
        case "uuid": .type(.scalar(.uuid))
        case "uri", "url": .type(.scalar(.url))
        case "binary": .leftOut("binary data, which JSON cannot carry")
        default: .type(.scalar(.string))
        }
    }

    // MARK: - Shapes

    /// Whether a schema needs a Swift type of its own.
    func isModelSchema(_ node: JSONNode, in file: String) -> Bool {
        if Self.singleVariant(node) != nil { return false }
        if Self.stringEnumValues(node) != nil { return true }
        if node["discriminator"]?.value["propertyName"] != nil, node["oneOf"] != nil || node["anyOf"] != nil { return true }
        if node["properties"]?.value.members?.isEmpty == false { return true }
        guard let parts = node["allOf"]?.value.elements else { return false }
        if node["properties"] != nil { return true }
        return parts.contains { part in
            guard let target = references.resolve(part, in: file) else { return false }
            let shape = target.node
            return shape["properties"] != nil || shape["allOf"] != nil || Self.types(of: shape) == ["object"]
        }
    }

    /// The one non-null variant of a `oneOf`/`anyOf`/`allOf` that only adds `null` or
    /// nothing (`anyOf: [$ref, {type: null}]`), which is that variant, maybe optional.
    static func singleVariant(_ node: JSONNode) -> JSONNode? {
        if node["discriminator"] != nil || node["properties"] != nil { return nil }
        for key in ["oneOf", "anyOf", "allOf"] {
            guard let parts = node[key]?.value.elements else { continue }
            let real = parts.filter { !isNullSchema($0) }
            if real.count == 1, real.count < parts.count || key == "allOf" || parts.count == 1 { return real[0] }
        }
        return nil
    }

    /// `{type: null}`, `{type: [null]}`, `{enum: [null]}`.
    static func isNullSchema(_ node: JSONNode) -> Bool {
        types(of: node) == ["null"] || node["enum"]?.value.elements.map { $0.allSatisfy(\.isNull) } == true
    }

    /// Whether `null` is a valid value: 3.0 `nullable`, 3.1 `type: [T, "null"]`, an enum
    /// listing null, or a `oneOf`/`anyOf` with a null variant.
    static func isNullable(_ node: JSONNode) -> Bool {
        if node["nullable"]?.value.boolValue == true { return true }
        if node["type"]?.value.elements?.contains(where: { $0.stringValue == "null" || $0.isNull }) == true { return true }
        if node["enum"]?.value.elements?.contains(where: \.isNull) == true { return true }
        for key in ["oneOf", "anyOf"] where node[key]?.value.elements?.contains(where: isNullSchema) == true { return true }
        return false
    }

    /// The schema's types other than `null`: `type: string` or `type: [string, "null"]`.
    static func types(of node: JSONNode) -> [String] {
        guard let value = node["type"]?.value else { return [] }
        if let text = value.stringValue { return text == "null" ? ["null"] : [text] }
        // YAML's unquoted `null` in `type: [string, null]` reads as null, not "null".
        let all = value.elements?.compactMap { $0.isNull ? "null" : $0.stringValue } ?? []
        let real = all.filter { $0 != "null" }
        return real.isEmpty && !all.isEmpty ? ["null"] : real
    }

    /// The type a schema without `type` implies by its keywords.
    static func impliedType(of node: JSONNode) -> String {
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
    static func stringEnumValues(_ node: JSONNode) -> [JSONNode]? {
        guard let values = node["enum"]?.value.elements else { return nil }
        let real = values.filter { !$0.isNull }
        guard !real.isEmpty, real.allSatisfy({ $0.stringValue != nil }) else { return nil }
        let types = types(of: node)
        return types.isEmpty || types == ["string"] ? real : nil
    }

    // MARK: - Naming

    /// Claims a unique Swift type name for a model and queues it to be built.
    private mutating func register(_ hint: String, at location: SourceLocation, node: JSONNode, file: String) -> String {
        var base = hint
        if SwiftNaming.isNameless(base) { base = "Schema" }
        if SpecValidator.reservedTypeNames.contains(SwiftNaming.typeName(base)) { base = "Api" + SwiftNaming.typeName(base) }
        // Names made from a model's name (`StorePetOwner`) carry the prefix already.
        let carriesPrefix = base.hasPrefix(prefix) && base.dropFirst(prefix.count).first?.isUppercase == true
        if !prefix.isEmpty, !carriesPrefix { base = prefix + SwiftNaming.typeName(base) }
        var name = base
        var number = 2
        while taken.contains(SwiftNaming.typeName(name)) {
            name = base + String(number)
            number += 1
        }
        taken.insert(SwiftNaming.typeName(name))
        if filesAllowed { fileModels.insert(name) }
        slots.append(Model(name: Named(name: name, location: location), description: nil, kind: .object([])))
        pending.append((slots.count - 1, node, file))
        return name
    }

    /// `type?` when `nullable`.
    private func wrap(_ type: TypeRef, _ nullable: Bool) -> TypeRef {
        nullable && !type.isOptional ? .optional(type) : type
    }

    /// The reason for a schema behind a `$ref` that failed; the reference's error says
    /// it already, so no warning repeats it.
    static let brokenReference = "a broken $ref"

    /// A warning that something named was left out, and why.
    mutating func warn(_ what: String, _ reason: String, at location: SourceLocation) {
        guard reason != Self.brokenReference else { return }
        diagnostics.append(.warning("\(what) is left out: it is \(reason)", at: location))
    }
}
