#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CacheGenReading
import CacheGenSpec

/// The name of a schema reached by a JSON pointer into another object's inline parts, made
/// from where it lives.
///
/// A `$ref` may point anywhere in a document: into a component schema's properties
/// (`#/components/schemas/Thing/properties/a~1b`), into a response's inline `oneOf`
/// (`#/components/responses/Created/content/application~1json/schema/oneOf/0`), a request
/// body, a parameter, an operation under `paths`, or another file. The schema there is
/// named after its owner and the way down, never after the pointer's last segment alone (an
/// array index would name a type `_0`, which the union using it also names its case).
package struct OpenAPIPlaceName {
    /// A name for the schema a `$ref` leads to: a component's key (`Pet`); else the owner (a
    /// component schema `X`, a response `XResponse`, a request body `XRequest`, a parameter
    /// `XParameter`, an operation's `<OperationId>Request` or `<OperationId>Response`) and
    /// the parts on the way: a property's name, `Item` for `items`, `Value` for
    /// `additionalProperties`, and for the last `oneOf`/`anyOf` variant its title or
    /// `Variant` (`Part` for `allOf`). Media types, `content` and `schema` add nothing.
    package static func name(of target: OpenAPIReferences.Target, references: OpenAPIReferences) -> String {
        let key = target.key
        let utf8 = key.utf8
        guard let hash = utf8.firstIndex(of: UInt8(ascii: "#")) else { return target.name }
        let pointer = key[key.index(after: hash)...]
        // A component by its key, the usual `$ref`: its name as it is, nothing split.
        if pointer.hasPrefix("/components/schemas/"), !pointer.dropFirst(20).contains("/") { return target.name }
        let segments = pointer.split(separator: "/").map { segment in
            // Most segments have nothing escaped; Foundation's replacing costs more than the rest.
            guard segment.utf8.contains(UInt8(ascii: "~")) else { return String(segment) }
            return segment.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
        // Swagger 2.0's `#/definitions/Pet` is a component too.
        guard segments.count > 1, !(segments.count == 2 && segments[0] == "definitions") else { return target.name }
        var place = OpenAPIPlaceName(segments: segments, file: target.file, last: target.node)
        return place.name(references: references)
    }

    /// The name for the schema of a response or request body that a `$ref` leads to among
    /// the document's components (`#/components/responses/Shipped` → `ShippedResponse`), which
    /// every operation using it shares; else `hint`, the operation's own.
    package static func sharedHint(_ target: OpenAPIReferences.Target, otherwise hint: String, references: OpenAPIReferences) -> String {
        let pointer = OpenAPIReferences.parts(of: target.key).pointer
        let segments = pointer.split(separator: "/")
        let isComponent =
            segments.count == 3 && segments[0] == "components" && (segments[1] == "responses" || segments[1] == "requestBodies")
            || segments.count == 2 && segments[0] == "responses"
        return isComponent ? name(of: target, references: references) : hint
    }

    /// The pointer's segments, unescaped.
    private var segments: [String]
    /// The file the pointer is into.
    private var file: String
    /// The node the pointer leads to.
    private var last: JSONNode
    /// The first segment not read yet.
    private var index = 0

    /// `owner` in type case, with `word` after it unless it ends so already.
    private static func suffixed(_ owner: String, _ word: String) -> String {
        let name = SwiftNaming.typeName(owner)
        return name.hasSuffix(word) ? name : name + word
    }

    /// A segment as part of a type name: digits as they are (`404`), else in type case.
    private static func word(_ segment: String) -> String {
        segment.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ? segment : SwiftNaming.typeName(segment)
    }

    /// The owner's name and a word for each step down.
    private mutating func name(references: OpenAPIReferences) -> String {
        var name = owner(references: references)
        while index < segments.count {
            let segment = segments[index]
            let next = index + 1 < segments.count ? segments[index + 1] : nil
            index += 1
            switch segment {
            case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "headers", "encoding":
                guard let next else { continue }
                name += SwiftNaming.typeName(next)
                index += 1
            case "allOf", "oneOf", "anyOf", "prefixItems":
                guard next != nil else { continue }
                index += 1
                // A part named only by its position is a part; the last is a variant, or its title.
                if index >= segments.count {
                    if segment == "allOf" {
                        name += "Part"
                    } else if let title = last["title"]?.value.stringValue, !SwiftNaming.isNameless(title) {
                        name += SwiftNaming.typeName(title)
                    } else {
                        name += segment == "prefixItems" ? "Item" : "Variant"
                    }
                }
            case "content":
                // `content/<media type>`: the media type adds nothing.
                if next != nil { index += 1 }
            case "schema": break
            case "items", "itemSchema", "contains": name += "Item"
            case "additionalProperties", "unevaluatedProperties": name += "Value"
            case "requestBody": name += "Request"
            case "responses":
                guard let next else { continue }
                index += 1
                name += next.hasPrefix("2") ? "Response" : "Response" + Self.word(next.lowercased())
            case "parameters":
                guard let next else { continue }
                index += 1
                let node = self.node(through: index, references: references)
                if let wire = node?["name"]?.value.stringValue, !SwiftNaming.isNameless(wire) {
                    name += SwiftNaming.typeName(wire)
                } else {
                    name += "Parameter" + next
                }
            default:
                name += Self.word(segment)
            }
        }
        return name
    }

    /// The owner's name, from the first segments, which it consumes.
    private mutating func owner(references: OpenAPIReferences) -> String {
        switch segments[0] {
        case "components" where segments.count >= 3:
            index = 3
            switch segments[1] {
            case "responses": return Self.suffixed(segments[2], "Response")
            case "requestBodies": return Self.suffixed(segments[2], "Request")
            case "parameters": return Self.suffixed(segments[2], "Parameter")
            case "headers": return Self.suffixed(segments[2], "Header")
            default: return SwiftNaming.typeName(segments[2])
            }
        // Swagger 2.0's top-level parts.
        case "definitions":
            index = 2
            return SwiftNaming.typeName(segments[1])
        case "responses", "parameters":
            index = 2
            return Self.suffixed(segments[1], segments[0] == "responses" ? "Response" : "Parameter")
        case "paths" where segments.count >= 3, "webhooks" where segments.count >= 3:
            index = 3
            let operation = node(through: 3, references: references)
            if let id = operation?["operationId"]?.value.stringValue, !SwiftNaming.isNameless(id) { return SwiftNaming.typeName(id) }
            return SwiftNaming.typeName(OpenAPIOperations.derivedName(segments[2], segments[1]))
        default:
            // A file's own layout (`common.yaml#/Pet/properties/owner`): its first key.
            index = 1
            return SwiftNaming.typeName(segments[0])
        }
    }

    /// The node the first `count` segments lead to in the file, a `$ref` on the way followed.
    private func node(through count: Int, references: OpenAPIReferences) -> JSONNode? {
        guard var node = references.documents[file] else { return nil }
        for segment in segments.prefix(count) {
            switch node.value {
            case .object: guard let child = node[segment]?.value else { return nil }; node = child
            case .array(let items):
                guard let position = Int(segment), items.indices.contains(position) else { return nil }
                node = items[position]
            default: return nil
            }
        }
        return references.resolve(node, in: file)?.node ?? node
    }
}
