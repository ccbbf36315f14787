#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CacheGenReading
import CacheGenSpec

/// Turns OpenAPI schemas into cachegen types. A schema that needs a Swift type of its own (an
/// object, a string enum, a `oneOf` or `anyOf`) is a model: named here when first reached
/// (`OpenAPIModelRegistry`) and built once the operations are mapped (`OpenAPIModelBuilder`).
/// Schemas without a fixed shape (a free-form object, no type at all) become `json`.
///
/// Component schemas are named once, by their key; a `$ref` to one becomes `.model(name)`
/// at once and the model is built later from a queue, so recursive schemas become
/// recursive models and a cycle of `$ref`s ends. Schemas that only rename another type
/// (`Pets: [Pet]`, `DOB: date-time`) are followed inline, with a guard against cycles.
/// Recursion elsewhere follows the document's nesting, which the readers bound.
package struct OpenAPISchemas {
    /// What a schema maps to: a type, or why it cannot be mapped faithfully.
    package enum Mapped: Equatable {
        /// The cachegen type.
        case type(TypeRef)
        /// Left out; the text finishes "… is left out: it is <reason>".
        case leftOut(String)
    }

    /// Follows `$ref`s, shared with the operations.
    package let references: OpenAPIReferences
    /// Warnings about what was left out, each at the schema that caused it.
    package var diagnostics: [Diagnostic] = []
    /// The overlay's renames; property names are chosen here, and the operations' too.
    package var names = OpenAPINames()
    /// The models' names, and the schemas named but not built yet, which
    /// `OpenAPIModelBuilder` builds.
    var registry: OpenAPIModelRegistry
    /// The model name of each component schema, by reference key.
    private var componentNames: [String: String] = [:]
    /// What each renaming component schema maps to, by reference key.
    private var aliases: [String: Mapped] = [:]
    /// Renaming components being mapped, to end cycles among them.
    private var inProgress: Set<String> = []
    /// Models sent as multipart bodies, and the models first named inside them, whose
    /// `format: binary` strings are files.
    private var fileModels: Set<String> = []
    /// The header fields declared for the parts of multipart models: by model name, then by
    /// part (property wire name).
    private var partHeaders: [String: [String: [PartHeader]]] = [:]
    /// Whether the model being built is one of `fileModels` (set by `OpenAPIModelBuilder`).
    var filesAllowed = false

    /// - Parameter prefix: put before every model name.
    package init(references: OpenAPIReferences, prefix: String = "") {
        self.references = references
        registry = OpenAPIModelRegistry(prefix: prefix)
    }

    /// Every model built so far, after building the ones still queued (`OpenAPIModelBuilder`).
    package mutating func finishModels() -> [Model] {
        var builder = OpenAPIModelBuilder(schemas: consume self)
        let models = builder.buildQueued()
        self = builder.schemas
        return models
    }

    /// Marks a model as a multipart body's: its `format: binary` strings become files.
    package mutating func allowFiles(in model: String) {
        fileModels.insert(model)
    }

    /// Whether a model's `format: binary` strings are files: it is a multipart body's, or was
    /// first named inside one.
    func takesFiles(_ model: String) -> Bool {
        fileModels.contains(model)
    }

    /// Records the header fields a multipart body's encoding declares for one of its model's
    /// parts: that property becomes a `MultipartValue` when the model is built.
    package mutating func declarePartHeaders(_ headers: [PartHeader], part: String, in model: String) {
        guard !headers.isEmpty else { return }
        partHeaders[model, default: [:]][part] = headers
    }

    /// The header fields declared for a part of a model; empty when none are.
    package func partHeaders(of part: String, in model: String) -> [PartHeader] {
        partHeaders[model]?[part] ?? []
    }

    /// Names a component schema ahead of its first use, so models follow document order.
    package mutating func declareComponent(_ member: JSONMember, in file: String) {
        let key = file + "#/components/schemas/" + OpenAPIReferences.escaped(member.key)
        guard componentNames[key] == nil, isModelSchema(member.value, in: file) else { return }
        componentNames[key] = register(member.key, at: member.keyLocation, node: member.value, file: file)
    }

    /// Warns about a component schema that is neither a model nor a type, even when no
    /// operation uses it, so nothing in `components` disappears silently.
    package mutating func checkComponent(_ member: JSONMember, in file: String) {
        let reference = JSONNode(
            value: .object([
                JSONMember(
                    key: "$ref", keyLocation: member.keyLocation,
                    value: JSONNode(value: .string("#/components/schemas/" + OpenAPIReferences.escaped(member.key)), location: member.keyLocation))
            ]), location: member.keyLocation)
        if case .leftOut(let reason) = type(of: reference, in: file, hint: member.key) {
            warn("schema \(quoted(member.key))", reason, at: member.keyLocation)
        }
    }

    /// The type of `node`; `hint` names a model made for an inline schema. (It is made only
    /// then: most schemas are scalars and references, and a hint is a name made and joined.)
    package mutating func type(of node: JSONNode, in file: String, hint: @autoclosure () -> String) -> Mapped {
        if OpenAPIReferences.reference(of: node) != nil {
            guard let target = references.resolve(node, in: file, otherwise: "the value is read as any JSON (JSONValue)") else {
                return .type(.scalar(.json))
            }
            return referencedType(target)
        }
        let nullable = OpenAPISchemaShape.isNullable(node)
        let mapped = inlineType(of: node, in: file, hint: hint())
        guard nullable, case .type(let type) = mapped, !type.isOptional else { return mapped }
        return .type(.optional(type))
    }

    /// A component reached through `$ref`: its model, or what it renames.
    private mutating func referencedType(_ target: OpenAPIReferences.Target) -> Mapped {
        if let name = componentNames[target.key] { return .type(wrap(.model(name), OpenAPISchemaShape.isNullable(target.node))) }
        if isModelSchema(target.node, in: target.file) {
            let name =
                registry.model(of: target.node)
                ?? register(OpenAPIPlaceName.name(of: target, references: references), at: target.node.location, node: target.node, file: target.file)
            componentNames[target.key] = name
            return .type(wrap(.model(name), OpenAPISchemaShape.isNullable(target.node)))
        }
        if let known = aliases[target.key] { return known }
        guard inProgress.insert(target.key).inserted else {
            return .leftOut("a schema that contains itself with no object in between")
        }
        let hint = OpenAPIPlaceName.name(of: target, references: references)
        let mapped = type(of: target.node, in: target.file, hint: hint)
        inProgress.remove(target.key)
        aliases[target.key] = mapped
        return mapped
    }

    /// An inline schema's type, without its nullability.
    private mutating func inlineType(of node: JSONNode, in file: String, hint: @autoclosure () -> String) -> Mapped {
        if let single = OpenAPISchemaShape.singleVariant(node) { return type(of: single, in: file, hint: hint()) }
        if isModelSchema(node, in: file) {
            return .type(.model(registry.model(of: node) ?? register(hint(), at: node.location, node: node, file: file)))
        }
        if let parts = node["allOf"]?.value.elements, let first = parts.first(where: { !OpenAPISchemaShape.isAnnotationOnly($0) }) {
            return type(of: first, in: file, hint: hint())
        }
        let types = OpenAPISchemaShape.types(of: node)
        // A value of several types (`type: [string, integer]`) is kept whole.
        guard types.count <= 1 else { return .type(.scalar(.json)) }
        switch types.first ?? OpenAPISchemaShape.impliedType(of: node) {
        case "string":
            let format = node["format"]?.value.stringValue
            if filesAllowed, format == "binary" { return .type(.scalar(.file)) }
            return Self.stringType(format: format)
        case "integer": return .type(.scalar(.int))
        case "number": return .type(.scalar(.double))
        case "boolean": return .type(.scalar(.bool))
        case "array":
            guard let items = node["items"]?.value else { return .leftOut("an array without \"items\"") }
            let element = type(of: items, in: file, hint: hint() + "Item")
            guard case .type(let elementType) = element else { return element }
            return .type(.array(elementType))
        case "object":
            // A free-form object is any JSON object; `additionalProperties` says what its values are.
            guard let extra = node["additionalProperties"]?.value else { return .type(.scalar(.json)) }
            if extra.boolValue == true { return .type(.dictionary(.scalar(.json))) }
            guard extra.members != nil else { return .type(.scalar(.json)) }
            let value = type(of: extra, in: file, hint: hint() + "Value")
            guard case .type(let valueType) = value else { return value }
            return .type(.dictionary(valueType))
        case "null": return .leftOut("always null")
        default: return .type(.scalar(.json))
        }
    }

    /// `string` by format: dates, UUIDs and URLs get their Swift types; `date`, `byte`,
    /// `binary` and other formats stay text. Inside JSON a `binary` string is a string like
    /// any other (its text as the server sends it); only a multipart body's is a file.
    package static func stringType(format: String?) -> Mapped {
        switch format {
        case "date-time": .type(.scalar(.date))
        case "uuid": .type(.scalar(.uuid))
        case "uri", "url": .type(.scalar(.url))
        default: .type(.scalar(.string))
        }
    }

    /// Whether a schema needs a Swift type of its own.
    package func isModelSchema(_ node: JSONNode, in file: String) -> Bool {
        if OpenAPISchemaShape.singleVariant(node) != nil { return false }
        if OpenAPISchemaShape.stringEnumValues(node) != nil { return true }
        if node["discriminator"]?.value["propertyName"] != nil, node["oneOf"] != nil || node["anyOf"] != nil { return true }
        if OpenAPISchemaShape.untaggedVariants(node) != nil { return true }
        if node["properties"]?.value.members?.isEmpty == false { return true }
        guard let parts = node["allOf"]?.value.elements else { return false }
        if node["properties"] != nil { return true }
        return parts.contains { part in
            guard let target = references.resolve(part, in: file) else { return false }
            let shape = target.node
            return shape["properties"] != nil || shape["allOf"] != nil || OpenAPISchemaShape.types(of: shape) == ["object"]
        }
    }

    /// Names a model for a schema and queues it to be built (`OpenAPIModelRegistry`); while a
    /// model that takes files is built, the models named inside it take files too.
    private mutating func register(_ hint: String, at location: SourceLocation, node: JSONNode, file: String) -> String {
        let name = registry.register(hint, at: location, node: node, file: file)
        if filesAllowed { fileModels.insert(name) }
        return name
    }

    /// `type?` when `nullable`.
    private func wrap(_ type: TypeRef, _ nullable: Bool) -> TypeRef {
        nullable && !type.isOptional ? .optional(type) : type
    }

    /// A warning that something named was left out, and why.
    package mutating func warn(_ what: String, _ reason: String, at location: SourceLocation) {
        diagnostics.append(.warning("\(what) is left out: it is \(reason)", at: location))
    }
}
