import CacheGenReading

/// Schemas of a Swagger 2.0 document as 3.0 reads them, and the other files its `$ref`s name.
extension Swagger2Document {
    /// A 2.0 schema (or any part of a 2.0 tree) as 3.0: every `$ref` pointing where 3.0 keeps
    /// the same thing (`#/definitions/Pet` is `#/components/schemas/Pet`) and written as
    /// `rebase` says; `x-nullable` as `nullable`; `type: file` as a binary string; a
    /// `discriminator` that names a property as an object that does. Examples, defaults, enums
    /// and extensions are data, kept as they are.
    static func schema(_ node: JSONNode, rebase: (String) -> String, namesMembers: Bool = false) -> JSONNode {
        switch node.value {
        case .object(let members):
            var converted: [JSONMember] = []
            converted.reserveCapacity(members.count)
            for member in members {
                if namesMembers {
                    converted.append(JSONMember(key: member.key, keyLocation: member.keyLocation, value: schema(member.value, rebase: rebase)))
                    continue
                }
                switch (member.key, member.value.value) {
                case ("$ref", .string(let text)):
                    converted.append(
                        JSONMember(key: "$ref", keyLocation: member.keyLocation, value: string(rebase(reference(text)), at: member.value.location)))
                case ("x-nullable", .bool):
                    converted.append(JSONMember(key: "nullable", keyLocation: member.keyLocation, value: member.value))
                case ("type", .string("file")):
                    converted.append(JSONMember(key: "type", keyLocation: member.keyLocation, value: string("string", at: member.value.location)))
                    if node["format"] == nil {
                        converted.append(JSONMember(key: "format", keyLocation: member.keyLocation, value: string("binary", at: member.value.location)))
                    }
                case ("format", _) where node["type"]?.value.stringValue == "file":
                    converted.append(JSONMember(key: "format", keyLocation: member.keyLocation, value: string("binary", at: member.value.location)))
                case ("discriminator", .string):
                    let property = JSONMember(key: "propertyName", keyLocation: member.keyLocation, value: member.value)
                    converted.append(JSONMember(key: "discriminator", keyLocation: member.keyLocation, value: object([property], at: member.value.location)))
                case ("example", _), ("examples", _), ("default", _), ("enum", _):
                    converted.append(member)
                case ("properties", _), ("definitions", _), ("patternProperties", _):
                    converted.append(
                        JSONMember(key: member.key, keyLocation: member.keyLocation, value: schema(member.value, rebase: rebase, namesMembers: true)))
                default:
                    if member.key.hasPrefix("x-") {
                        converted.append(member)
                    } else {
                        converted.append(JSONMember(key: member.key, keyLocation: member.keyLocation, value: schema(member.value, rebase: rebase)))
                    }
                }
            }
            return object(converted, at: node.location)
        case .array(let items):
            return JSONNode(value: .array(items.map { schema($0, rebase: rebase) }), location: node.location)
        default:
            return node
        }
    }

    /// A 2.0 `$ref` as 3.0 writes it: `#/definitions/`, `#/parameters/` and `#/responses/`
    /// (in this file or another) under `#/components/`.
    static func reference(_ text: String) -> String {
        let (filePart, pointer) = OpenAPIReferences.parts(of: text)
        let moves = [("/definitions", "/components/schemas"), ("/parameters", "/components/parameters"), ("/responses", "/components/responses")]
        for (old, new) in moves where pointer == old || pointer.hasPrefix(old + "/") {
            return filePart + "#" + new + pointer.dropFirst(old.count)
        }
        return text
    }

    /// Another file that a 2.0 document's `$ref` names, as 3.0: its `definitions`,
    /// `parameters` and `responses` (when it has them at the top, as 2.0 documents do) under
    /// `components`, and every node as `schema(_:rebase:)` converts it, so the `$ref`s that
    /// were rewritten lead where they should.
    package static func fragment(_ node: JSONNode) -> JSONNode {
        guard let members = node.members, members.contains(where: { ["definitions", "parameters", "responses"].contains($0.key) }) else {
            return schema(node, rebase: { $0 })
        }
        var kept: [JSONMember] = []
        var components: [JSONMember] = []
        for member in members {
            switch member.key {
            case "definitions":
                components.append(JSONMember(key: "schemas", keyLocation: member.keyLocation, value: schema(member.value, rebase: { $0 }, namesMembers: true)))
            case "parameters", "responses":
                components.append(JSONMember(key: member.key, keyLocation: member.keyLocation, value: schema(member.value, rebase: { $0 }, namesMembers: true)))
            default:
                kept.append(JSONMember(key: member.key, keyLocation: member.keyLocation, value: schema(member.value, rebase: { $0 })))
            }
        }
        if let first = components.first {
            kept.append(JSONMember(key: "components", keyLocation: first.keyLocation, value: object(components, at: first.keyLocation)))
        }
        return object(kept, at: node.location)
    }
}
