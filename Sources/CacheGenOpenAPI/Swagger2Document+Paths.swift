import CacheGenReading

/// Paths, path items, operations and responses of a Swagger 2.0 document as 3.0 reads them.
extension Swagger2Document {
    /// `paths`: each path item converted where it is, or where its `$ref` leads.
    mutating func paths(_ node: JSONNode, scope: Scope) -> JSONNode {
        var members: [JSONMember] = []
        for member in node.members ?? [] {
            guard !member.key.hasPrefix("x-") else {
                members.append(member)
                continue
            }
            guard let target = references.resolve(member.value, in: scope.file, otherwise: "the path \(quoted(member.key)) is left out")
            else { continue }
            var itemScope = scope
            itemScope.file = target.file
            members.append(
                JSONMember(key: member.key, keyLocation: member.keyLocation, value: pathItem(target.node, scope: itemScope, path: member.key)))
        }
        return Self.object(members, at: node.location)
    }

    /// The methods a path item may have.
    static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch"]

    /// One path item: its shared parameters (body and form ones go to each operation's body)
    /// and its operations.
    mutating func pathItem(_ node: JSONNode, scope: Scope, path: String) -> JSONNode {
        let shared = resolvedParameters(node["parameters"]?.value, scope: scope, what: "the path \(quoted(path))")
        var members: [JSONMember] = []
        for member in node.members ?? [] {
            if member.key == "parameters" {
                let kept = shared.filter { !Self.isBodyOrForm($0.node) }.map { parameter($0.node, scope: $0.scope) }
                if !kept.isEmpty {
                    members.append(JSONMember(key: "parameters", keyLocation: member.keyLocation, value: JSONNode(value: .array(kept), location: member.value.location)))
                }
            } else if Self.methods.contains(member.key) {
                members.append(
                    JSONMember(
                        key: member.key, keyLocation: member.keyLocation,
                        value: operation(member, scope: scope, shared: shared.filter { Self.isBodyOrForm($0.node) }, path: path)))
            } else if Self.carries(member.key, of: .pathItem) {
                members.append(JSONMember(key: member.key, keyLocation: member.keyLocation, value: Self.schema(member.value, rebase: rebase(from: scope.file))))
            }
        }
        return Self.object(members, at: node.location)
    }

    /// One operation: its parameters split into 3.0's and its request body, its responses
    /// with its `produces`.
    mutating func operation(_ member: JSONMember, scope: Scope, shared: [(node: JSONNode, scope: Scope)], path: String) -> JSONNode {
        let node = member.value
        // What this operation makes reported is about it alone.
        let (mine, theirs) = (diagnostics.count, references.diagnostics.count)
        defer {
            for diagnostic in diagnostics[mine...] + references.diagnostics[theirs...] { owners[diagnostic] = member.key + " " + path }
        }
        var scope = scope
        if let consumes = node["consumes"] { scope.consumes = Self.strings(consumes) }
        if let produces = node["produces"] { scope.produces = Self.strings(produces) }
        let name = node["operationId"]?.value.stringValue ?? "\(member.key.uppercased()) \(path)"
        let what = "operation \(quoted(name))"
        let own = resolvedParameters(node["parameters"]?.value, scope: scope, what: what)
        var body = own.filter { $0.node["in"]?.value.stringValue == "body" }
        if body.isEmpty { body = shared.filter { $0.node["in"]?.value.stringValue == "body" } }
        // An operation's form field replaces the path item's of the same name.
        var form = own.filter { $0.node["in"]?.value.stringValue == "formData" }
        let names = Set(form.compactMap { $0.node["name"]?.value.stringValue })
        form = shared.filter { $0.node["in"]?.value.stringValue == "formData" && !names.contains($0.node["name"]?.value.stringValue ?? "") } + form
        let requestBody = self.requestBody(body: body, form: form, scope: scope, what: what)
        var members: [JSONMember] = []
        var placedBody = false
        for child in node.members ?? [] {
            switch child.key {
            case "consumes", "produces":
                continue
            case "parameters":
                let kept = own.filter { !Self.isBodyOrForm($0.node) }.map { parameter($0.node, scope: $0.scope) }
                if !kept.isEmpty {
                    members.append(JSONMember(key: "parameters", keyLocation: child.keyLocation, value: JSONNode(value: .array(kept), location: child.value.location)))
                }
                if let requestBody {
                    members.append(requestBody)
                    placedBody = true
                }
            case "responses":
                members.append(JSONMember(key: "responses", keyLocation: child.keyLocation, value: responses(child.value, scope: scope, what: what)))
            case "schemes":
                diagnostics.append(
                    .warning(
                        "the schemes of \(what) are ignored: OpenAPI 3 has no schemes of an operation, so it is called on the document's server",
                        at: child.keyLocation))
            default:
                guard Self.carries(child.key, of: .operation) else { continue }
                members.append(JSONMember(key: child.key, keyLocation: child.keyLocation, value: Self.schema(child.value, rebase: rebase(from: scope.file))))
            }
        }
        if !placedBody, let requestBody { members.append(requestBody) }
        return Self.object(members, at: node.location)
    }

    /// A parameter list with its `$ref`s followed (those that lead nowhere warned about and
    /// left out), each with the scope of the file it is in.
    mutating func resolvedParameters(_ list: JSONNode?, scope: Scope, what: String) -> [(node: JSONNode, scope: Scope)] {
        var resolved: [(node: JSONNode, scope: Scope)] = []
        for item in list?.elements ?? [] {
            guard let target = references.resolve(item, in: scope.file, otherwise: "the parameter is left out of \(what)") else { continue }
            var itemScope = scope
            itemScope.file = target.file
            resolved.append((target.node, itemScope))
        }
        return resolved
    }

    /// Whether a 2.0 parameter is a body or form one, which 3.0 sends in `requestBody`.
    static func isBodyOrForm(_ node: JSONNode) -> Bool {
        let place = node["in"]?.value.stringValue
        return place == "body" || place == "formData"
    }

    /// `responses`: each converted where it is, or where its `$ref` leads, with the
    /// operation's `produces`.
    mutating func responses(_ node: JSONNode, scope: Scope, what: String) -> JSONNode {
        var members: [JSONMember] = []
        for member in node.members ?? [] {
            guard !member.key.hasPrefix("x-") else {
                members.append(member)
                continue
            }
            guard
                let target = references.resolve(
                    member.value, in: scope.file, otherwise: "the \(quoted(member.key)) response of \(what) is left out")
            else { continue }
            var responseScope = scope
            responseScope.file = target.file
            members.append(JSONMember(key: member.key, keyLocation: member.keyLocation, value: response(target.node, scope: responseScope)))
        }
        return Self.object(members, at: node.location)
    }

    /// One response: `schema` into `content` under each type the operation produces (JSON
    /// when it names none, or only ranges such as `*/*` for a schema that is no file; bytes
    /// for a file), `examples` into those types, `headers` typed by `schema`.
    mutating func response(_ node: JSONNode, scope: Scope) -> JSONNode {
        let rebase = rebase(from: scope.file)
        var members: [JSONMember] = []
        let examples = node["examples"]?.value.members ?? []
        for member in node.members ?? [] {
            switch member.key {
            case "schema":
                let schema = Self.schema(member.value, rebase: rebase)
                let types = Self.mediaTypes(scope.produces, isFile: Self.isFile(member.value), fallbackFile: "application/octet-stream")
                let content = types.map { type in
                    var entry = [JSONMember(key: "schema", keyLocation: member.keyLocation, value: schema)]
                    if let example = examples.first(where: { $0.key == type }) {
                        entry.append(JSONMember(key: "example", keyLocation: example.keyLocation, value: example.value))
                    }
                    return JSONMember(key: type, keyLocation: member.keyLocation, value: Self.object(entry, at: member.value.location))
                }
                members.append(JSONMember(key: "content", keyLocation: member.keyLocation, value: Self.object(content, at: member.value.location)))
            case "examples":
                continue
            case "headers":
                let headers = (member.value.members ?? []).map { header in
                    JSONMember(key: header.key, keyLocation: header.keyLocation, value: self.header(header, scope: scope))
                }
                members.append(JSONMember(key: "headers", keyLocation: member.keyLocation, value: Self.object(headers, at: member.value.location)))
            default:
                guard Self.carries(member.key, of: .response) else { continue }
                members.append(JSONMember(key: member.key, keyLocation: member.keyLocation, value: Self.schema(member.value, rebase: rebase)))
            }
        }
        return Self.object(members, at: node.location)
    }
}
