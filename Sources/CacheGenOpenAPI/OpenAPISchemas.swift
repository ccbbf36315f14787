#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CacheGenReading
import CacheGenSpec

/// Turns OpenAPI schemas into cachegen types, and the schemas that need a Swift type of
/// their own (objects, string enums, `oneOf`s and `anyOf`s) into models. Schemas without a
/// fixed shape (a free-form object, no type at all) become `json`.
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
    /// The model each schema node became, by where the node is (with the node, to tell apart
    /// nodes made in memory at the same place): one schema is one model, however it is reached
    /// (inline, by pointers, from several operations).
    private var placed: [SourceLocation: (node: JSONNode, name: String)] = [:]
    /// Swift type names already taken, by models and by names reserved up front.
    private var taken: Set<String> = []
    /// Models sent as multipart bodies, and the models first named inside them, whose
    /// `format: binary` strings are files.
    private var fileModels: Set<String> = []
    /// The header fields declared for the parts of multipart models: by model name, then by
    /// part (property wire name).
    private var partHeaders: [String: [String: [PartHeader]]] = [:]
    /// Whether the model being built is one of `fileModels`.
    private(set) var filesAllowed = false

    /// Put before every model name.
    private let prefix: String

    /// - Parameter prefix: put before every model name.
    package init(references: OpenAPIReferences, prefix: String = "") {
        self.references = references
        self.prefix = prefix
        taken = SpecValidator.reservedTypeNames
    }

    /// Every model built so far, after building the ones still queued.
    package mutating func finishModels() -> [Model] {
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
        var models = slots.compactMap { $0 }
        Self.breakUnionCycles(&models)
        return models
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

    /// Marks a model as a multipart body's: its `format: binary` strings become files.
    package mutating func allowFiles(in model: String) {
        fileModels.insert(model)
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
        let key = file + "#/components/schemas/" + Self.escaped(member.key)
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
                    value: JSONNode(value: .string("#/components/schemas/" + Self.escaped(member.key)), location: member.keyLocation))
            ]), location: member.keyLocation)
        if case .leftOut(let reason) = type(of: reference, in: file, hint: member.key) {
            warn("schema \(quoted(member.key))", reason, at: member.keyLocation)
        }
    }

    /// A key as a JSON pointer segment (`/` as `~1`, `~` as `~0`).
    package static func escaped(_ key: String) -> String {
        // The usual key, ASCII with neither, is itself (checked on bytes, which is quicker).
        if key.utf8.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "~") && $0 != UInt8(ascii: "/") }) { return key }
        guard key.contains(where: { $0 == "~" || $0 == "/" }) else { return key }
        return key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
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
        let nullable = Self.isNullable(node)
        let mapped = inlineType(of: node, in: file, hint: hint())
        guard nullable, case .type(let type) = mapped, !type.isOptional else { return mapped }
        return .type(.optional(type))
    }

    /// A component reached through `$ref`: its model, or what it renames.
    private mutating func referencedType(_ target: OpenAPIReferences.Target) -> Mapped {
        if let name = componentNames[target.key] { return .type(wrap(.model(name), Self.isNullable(target.node))) }
        if isModelSchema(target.node, in: target.file) {
            let name = model(of: target.node) ?? register(placeName(of: target), at: target.node.location, node: target.node, file: target.file)
            componentNames[target.key] = name
            return .type(wrap(.model(name), Self.isNullable(target.node)))
        }
        if let known = aliases[target.key] { return known }
        guard inProgress.insert(target.key).inserted else {
            return .leftOut("a schema that contains itself with no object in between")
        }
        let hint = placeName(of: target)
        let mapped = type(of: target.node, in: target.file, hint: hint)
        inProgress.remove(target.key)
        aliases[target.key] = mapped
        return mapped
    }

    /// An inline schema's type, without its nullability.
    private mutating func inlineType(of node: JSONNode, in file: String, hint: @autoclosure () -> String) -> Mapped {
        if let single = Self.singleVariant(node) { return type(of: single, in: file, hint: hint()) }
        if isModelSchema(node, in: file) {
            return .type(.model(model(of: node) ?? register(hint(), at: node.location, node: node, file: file)))
        }
        if let parts = node["allOf"]?.value.elements, let first = parts.first(where: { !Self.isAnnotationOnly($0) }) {
            return type(of: first, in: file, hint: hint())
        }
        let types = Self.types(of: node)
        // A value of several types (`type: [string, integer]`) is kept whole.
        guard types.count <= 1 else { return .type(.scalar(.json)) }
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

    // MARK: - Naming

    /// The model `node` already became, when it did.
    private func model(of node: JSONNode) -> String? {
        guard let known = placed[node.location], known.node == node else { return nil }
        return known.name
    }

    /// Claims a unique Swift type name for a model and queues it to be built.
    private mutating func register(_ hint: String, at location: SourceLocation, node: JSONNode, file: String) -> String {
        var base = hint
        if SwiftNaming.isNameless(base) { base = "Schema" }
        // A schema named `file` or `json` is the model `File` or `Json`: the spec's type words
        // are the built-in types.
        if TypeRef.Scalar(rawValue: base) != nil { base = SwiftNaming.typeName(base) }
        if SpecValidator.reservedTypeNames.contains(SwiftNaming.typeName(base)) { base = "Api" + SwiftNaming.typeName(base) }
        // Names made from a model's name (`StorePetOwner`) carry the prefix already.
        let carriesPrefix = base.hasPrefix(prefix) && base.dropFirst(prefix.count).first?.isUppercase == true
        if !prefix.isEmpty, !carriesPrefix { base = prefix + SwiftNaming.typeName(base) }
        base = Self.shortened(base)
        var name = base
        var swiftName = SwiftNaming.typeName(name)
        var number = 2
        while taken.contains(swiftName) {
            name = base + String(number)
            swiftName = SwiftNaming.typeName(name)
            number += 1
        }
        taken.insert(swiftName)
        if placed[node.location] == nil { placed[node.location] = (node, name) }
        if filesAllowed { fileModels.insert(name) }
        slots.append(Model(name: Named(name: name, location: location), description: nil, kind: .object([])))
        pending.append((slots.count - 1, node, file))
        return name
    }

    /// The longest model or case name made from a document's names.
    package static let maximumNameLength = 60

    /// `name` if it is short enough, else its start and a hash of the whole, so two long
    /// names that share a start stay apart and the same name always shortens the same way.
    package static func shortened(_ name: String) -> String {
        // No more bytes than the limit means no more characters either.
        guard name.utf8.count > maximumNameLength, name.count > maximumNameLength else { return name }
        var hash: UInt32 = 0x811c_9dc5
        for byte in name.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        let hex = String(hash, radix: 16, uppercase: true)
        return String(name.prefix(maximumNameLength - 9)) + String(repeating: "0", count: 8 - hex.count) + hex
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
