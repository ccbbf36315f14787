import CacheGenReading
import CacheGenSpec

/// What the steps of mapping an operation share: the schema mapper their schemas are typed
/// by (and the `$ref`s followed), and the warnings, in the order they are found. Each step
/// (`OpenAPIParameters`, `OpenAPIRequestBodies`, `OpenAPIResponses`, `OpenAPIMultipart`,
/// `OpenAPIEventStreams`, `OpenAPIServers`) takes it `inout`.
package struct OpenAPIOperationContext {
    /// The schema mapper; its models and warnings are read back when done.
    package var schemas: OpenAPISchemas
    /// Warnings about what was left out.
    package var diagnostics: [Diagnostic] = []

    /// A `content` map with each media type written as a `$ref` (OpenAPI 3.2's
    /// `components.mediaTypes`) replaced by what it points to in the same file; one in
    /// another file, or that leads nowhere, is left out with a warning.
    package mutating func content(of node: JSONNode?, file: String) -> JSONNode? {
        guard let node, let members = node.members, members.contains(where: { $0.value["$ref"] != nil }) else { return node }
        let resolved = members.compactMap { member -> JSONMember? in
            guard member.value["$ref"] != nil else { return member }
            let what = "media type \(quoted(member.key))"
            guard let target = schemas.references.resolve(member.value, in: file, otherwise: "\(what) is left out") else { return nil }
            guard target.file == file else {
                warn("\(what) is left out: cachegen follows a media type's $ref only within its file", at: member.keyLocation)
                return nil
            }
            return JSONMember(key: member.key, keyLocation: member.keyLocation, value: target.node)
        }
        return JSONNode(value: .object(resolved), location: node.location)
    }

    /// The properties of an object schema and of its `allOf` parts, `$ref`s followed, with
    /// the file each is written in; a bounded walk, so cycles end.
    package func objectProperties(_ schema: JSONNode?, file: String) -> [String: (node: JSONNode, file: String)] {
        var properties: [String: (node: JSONNode, file: String)] = [:]
        var stack = schema.map { [($0, file)] } ?? []
        var visited = 0
        while let (part, partFile) = stack.popLast(), visited < 64 {
            visited += 1
            guard let target = schemas.references.resolve(part, in: partFile) else { continue }
            for member in target.node["properties"]?.value.members ?? [] where properties[member.key] == nil {
                properties[member.key] = (member.value, target.file)
            }
            for child in target.node["allOf"]?.value.elements ?? [] { stack.append((child, target.file)) }
        }
        return properties
    }

    /// A warning that an operation is not generated, and why.
    package mutating func leaveOut(_ what: String, _ reason: String, at location: SourceLocation) {
        warn("\(what) is left out: \(reason)", at: location)
    }

    /// A warning from a part of the mapping.
    package mutating func warn(_ message: String, at location: SourceLocation) {
        diagnostics.append(.warning(message, at: location))
    }
}
