import CacheGenReading

/// JSON Schema's recursive references, as OpenAPI 3.1 documents write them: `$recursiveRef: "#"`
/// (2019-09) or `$dynamicRef: "#"` (2020-12) inside a schema of `components.schemas` (OpenAI's
/// `CompoundFilter`, whose filters are filters again).
///
/// Strictly, `"#"` is the root of the schema resource, which without an `$id` would be the
/// whole document; every document that writes one means the component it is written in, so
/// that is where it leads: the same as `$ref: "#/components/schemas/<Name>"`.
extension OpenAPIReferences {
    /// Whether a reference object's key is a recursive reference.
    package static func isRecursiveReference(_ key: String) -> Bool {
        key == "$recursiveRef" || key == "$dynamicRef"
    }

    /// The `$ref` text a recursive reference stands for.
    package func enclosingSchema(of member: JSONMember) throws(Failure) -> String {
        if recursiveTargets == nil { recursiveTargets = documents[rootFile].map(Self.recursiveTargets(in:)) ?? [:] }
        let text = member.value.stringValue ?? ""
        guard text == "#", let target = recursiveTargets?[member.value.location] else {
            throw Failure(
                message: "\(member.key) \(quoted(text)) leads to no schema cachegen can find",
                hint: "cachegen follows only \(member.key) \"#\" inside a schema of the document's components.schemas")
        }
        return target
    }

    /// Every recursive reference `"#"` in the schemas of `components.schemas`, by the location
    /// of its text, with the `$ref` text of the component it is in; walked without recursion.
    package static func recursiveTargets(in root: JSONNode) -> [SourceLocation: String] {
        guard let schemas = root["components"]?.value["schemas"]?.value.members else { return [:] }
        var targets: [SourceLocation: String] = [:]
        for component in schemas {
            let pointer = "#/components/schemas/" + Self.escaped(component.key)
            var stack = [component.value]
            while let node = stack.popLast() {
                switch node.value {
                case .object(let members):
                    for member in members {
                        if isRecursiveReference(member.key), member.value.stringValue == "#" { targets[member.value.location] = pointer }
                        stack.append(member.value)
                    }
                case .array(let items):
                    stack += items
                default:
                    break
                }
            }
        }
        return targets
    }
}
