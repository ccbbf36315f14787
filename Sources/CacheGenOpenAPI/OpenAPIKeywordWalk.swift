import CacheGenReading
import CacheGenSpec

/// Walks a document by the keyword tables (`OpenAPIKeywords`), object by object, and warns at
/// every key the reader does not map where it matters (the table's reason), and at every key
/// no table knows (with "did you mean"). `x-` extensions are allowed. Values of keys with no
/// effect are not entered, so what an example or an XML Object holds is never checked.
///
/// Without recursion: the document's nesting is walked with a stack. A `$ref` into the
/// document is not followed (what it points to is walked where it is written, in
/// `components` or another path); one into another file is, once per target.
package struct OpenAPIKeywordWalk {
    /// The tables.
    package let keywords: OpenAPIKeywords

    /// - Parameter keywords: the tables of the document's version (`.v2` for a Swagger 2.0
    ///   document, walked as written, before it is converted).
    package init(keywords: OpenAPIKeywords = .v3) {
        self.keywords = keywords
    }

    /// The warnings for `root`, in document order. `operations`, when given, are the keys
    /// (`get /pets`) of the only operations to walk, with the components left aside: an
    /// overlay's selection checks only what it chose. `references` follows `$ref`s into other
    /// files; without it they are not walked.
    package func warnings(_ root: JSONNode, file: String = "", references: OpenAPIReferences? = nil, operations: Set<String>? = nil)
        -> [Diagnostic]
    {
        var diagnostics: [Diagnostic] = []
        var visited: Set<String> = []
        var stack: [Step] = [Step(node: root, value: .object(keywords.root), path: nil, file: file)]
        while let step = stack.popLast() {
            let (node, path) = (step.node, step.path)
            switch step.value {
            case .leaf:
                continue
            case .array(let element):
                for item in (node.elements ?? []).reversed() { stack.append(Step(node: item, value: element, path: path, file: step.file)) }
            case .map(let element):
                for member in (node.members ?? []).reversed() {
                    stack.append(Step(node: member.value, value: element, path: path, file: step.file))
                }
            case .object(var kind):
                guard let members = node.members else { continue }
                if let variants = keywords[kind].variants, let value = node[variants.key]?.value.stringValue,
                    let variant = variants.kinds[value]
                {
                    kind = variant
                }
                var table = keywords[kind]
                if let references, let written = node["$ref"]?.value.stringValue, !written.hasPrefix("#"),
                    let target = references.resolve(node, in: step.file), visited.insert(target.key).inserted
                {
                    stack.append(Step(node: target.node, value: step.value, path: path, file: target.file))
                }
                if table.referable, members.contains(where: { $0.key == "$ref" }) { table = keywords[.reference] }
                var children: [Step] = []
                for member in members where !member.key.hasPrefix("x-") {
                    if let entry = table.keys[member.key] {
                        switch entry.keyword {
                        case .mapped:
                            if operations != nil, kind == keywords.root, keywords.components.contains(member.key) { continue }
                            var childPath = path
                            if kind == .paths || (kind == .document && member.key == "paths") { childPath = member.key }
                            if let only = operations, kind == .pathItem, entry.value == .object(.operation),
                                !only.contains(member.key + " " + (path ?? ""))
                            {
                                continue
                            }
                            children.append(Step(node: member.value, value: entry.value, path: childPath, file: step.file))
                        case .noEffect:
                            continue
                        case .warned(let reason):
                            diagnostics.append(.warning("\(quoted(member.key)) in \(table.title) is left out: \(reason)", at: member.keyLocation))
                        }
                    } else if let patterned = table.patterned?.value(of: member.key) {
                        let childPath = kind == .paths ? member.key : path
                        if let only = operations, kind == .paths, !only.contains(where: { $0.hasSuffix(" " + member.key) }) { continue }
                        children.append(Step(node: member.value, value: patterned, path: childPath, file: step.file))
                    } else {
                        diagnostics.append(.warning(unknown(member.key, in: table, kind: kind), at: member.keyLocation))
                    }
                }
                stack += children.reversed()
            }
        }
        return diagnostics
    }

    /// One value to walk: what it is, the path of the operations it is in, and its file.
    private struct Step {
        var node: JSONNode
        var value: OpenAPIKeywords.Value
        var path: String?
        var file: String
    }

    /// The warning for a key no table knows.
    private func unknown(_ key: String, in table: OpenAPIKeywords.Table, kind: OpenAPIKeywords.Kind) -> String {
        if table.title == keywords[.reference].title, kind != .reference {
            guard table.keys.count > 1 else {
                return "\(quoted(key)) beside \"$ref\" is left out: \(table.title) takes nothing beside it"
            }
            return "\(quoted(key)) beside \"$ref\" is left out: a Reference Object takes only \"summary\" and \"description\" beside it"
        }
        let hint = Suggestion.closest(to: key, in: table.keys.keys).map { "; did you mean \(quoted($0))?" } ?? ""
        return "unknown key \(quoted(key)) in \(table.title) is left out\(hint)"
    }
}
