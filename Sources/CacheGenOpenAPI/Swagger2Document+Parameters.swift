import CacheGenReading

/// Parameters, headers and request bodies of a Swagger 2.0 document as 3.0 reads them.
extension Swagger2Document {
    /// The keywords of a 2.0 parameter, header or items object that 3.0 keeps in `schema`.
    static let schemaKeywords: Set<String> = [
        "type", "format", "items", "default", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength",
        "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "enum", "multipleOf", "x-nullable",
    ]

    /// A path, query or header parameter: its type and the other schema keywords under
    /// `schema`, its `collectionFormat` as `style` and `explode`.
    mutating func parameter(_ node: JSONNode, scope: Scope) -> JSONNode {
        let place = node["in"]?.value.stringValue ?? ""
        let label = "\(place) parameter \(quoted(node["name"]?.value.stringValue ?? ""))"
        return typed(node, scope: scope, place: place, label: label)
    }

    /// A response header: typed by `schema` as a parameter is.
    mutating func header(_ member: JSONMember, scope: Scope) -> JSONNode {
        typed(member.value, scope: scope, place: "header", label: "header \(quoted(member.key))")
    }

    /// A parameter or header with its schema keywords moved under `schema`.
    private mutating func typed(_ node: JSONNode, scope: Scope, place: String, label: String) -> JSONNode {
        let rebase = rebase(from: scope.file)
        var members: [JSONMember] = []
        var schemaMembers: [JSONMember] = []
        var anchor: JSONMember?
        for member in node.members ?? [] {
            if Self.schemaKeywords.contains(member.key) {
                anchor = anchor ?? member
                schemaMembers.append(member)
            } else if member.key != "collectionFormat", Self.carries(member.key, of: .parameter) {
                members.append(JSONMember(key: member.key, keyLocation: member.keyLocation, value: Self.schema(member.value, rebase: rebase)))
            }
        }
        if let anchor {
            let schema = itemsSchema(schemaMembers, at: anchor.value.location, scope: scope, label: label)
            members.append(JSONMember(key: "schema", keyLocation: anchor.keyLocation, value: schema))
            members += style(of: node, place: place, label: label)
        }
        return Self.object(members, at: node.location)
    }

    /// The schema of a parameter, header, form field or their `items`: 2.0's keywords as
    /// they are but `type: file` (a binary string), `x-nullable` and `items` (each an items
    /// object of its own; its `collectionFormat`, which 3.0 cannot say, is warned about).
    private mutating func itemsSchema(_ members: [JSONMember], at location: SourceLocation, scope: Scope, label: String) -> JSONNode {
        let plain = members.filter { $0.key != "items" && $0.key != "collectionFormat" }
        var converted = Self.schema(Self.object(plain, at: location), rebase: rebase(from: scope.file)).members ?? []
        if let member = members.first(where: { $0.key == "items" }), let items = member.value.members {
            if let format = member.value["collectionFormat"] {
                let text = format.value.stringValue ?? ""
                diagnostics.append(
                    .warning(
                        "the collectionFormat \(quoted(text)) of the arrays inside \(label) has no OpenAPI 3 form, so it is ignored",
                        at: format.value.location))
            }
            let inner = itemsSchema(items, at: member.value.location, scope: scope, label: label)
            converted.append(JSONMember(key: "items", keyLocation: member.keyLocation, value: inner))
        }
        return Self.object(converted, at: location)
    }

    /// `style` and `explode` for an array parameter's `collectionFormat` (`csv` when it has
    /// none): in a query or form, `csv` is `form` unexploded, `multi` exploded, `ssv`
    /// `spaceDelimited`, `pipes` `pipeDelimited`; in a path or header only `csv` (`simple`)
    /// has a 3.0 form. Any other is warned about and sent as `csv`.
    func styleMembers(_ node: JSONNode, place: String) -> (style: String, explode: Bool, known: Bool) {
        let format = node["collectionFormat"]?.value.stringValue ?? "csv"
        if place == "query" || place == "formData" {
            switch format {
            case "csv": return ("form", false, true)
            case "multi": return ("form", true, true)
            case "ssv": return ("spaceDelimited", false, true)
            case "pipes": return ("pipeDelimited", false, true)
            default: return ("form", false, false)
            }
        }
        return ("simple", false, format == "csv")
    }

    /// The `style` and `explode` members of an array parameter; a `collectionFormat` with no
    /// 3.0 form is warned about where it is written.
    mutating func style(of node: JSONNode, place: String, label: String) -> [JSONMember] {
        guard node["type"]?.value.stringValue == "array" else {
            if let format = node["collectionFormat"] {
                diagnostics.append(
                    .warning(
                        "the collectionFormat of \(label) is ignored: it says how an array is written, and the parameter is no array",
                        at: format.keyLocation))
            }
            return []
        }
        let (style, explode, known) = styleMembers(node, place: place)
        let written = node["collectionFormat"]
        let location = written?.keyLocation ?? node["type"]?.keyLocation ?? node.location
        if !known, let written {
            let text = written.value.stringValue ?? ""
            let reason = text == "multi" ? "is for query and form parameters only" : "has no OpenAPI 3 style"
            diagnostics.append(
                .warning(
                    "the collectionFormat \(quoted(text)) of \(label) \(reason), so its values are sent joined by commas (csv)",
                    at: written.value.location))
        }
        let valueLocation = written?.value.location ?? location
        return [
            JSONMember(key: "style", keyLocation: location, value: Self.string(style, at: valueLocation)),
            JSONMember(key: "explode", keyLocation: location, value: JSONNode(value: .bool(explode), location: valueLocation)),
        ]
    }

    /// The request body of an operation: its body parameter (JSON, or the types it
    /// `consumes`), else its form parameters as one object (multipart when one is a file or
    /// `consumes` says so, else a URL-encoded form); `nil` when it has neither.
    mutating func requestBody(body: [(node: JSONNode, scope: Scope)], form: [(node: JSONNode, scope: Scope)], scope: Scope, what: String)
        -> JSONMember?
    {
        if let (node, bodyScope) = body.last {
            for extra in body.dropLast() {
                diagnostics.append(
                    .warning(
                        "the body parameter \(quoted(extra.node["name"]?.value.stringValue ?? "")) of \(what) is left out: an operation has one body, and a later body parameter is it",
                        at: extra.node.location))
            }
            for field in form {
                diagnostics.append(
                    .warning(
                        "the form parameter \(quoted(field.node["name"]?.value.stringValue ?? "")) of \(what) is left out: the operation has a body parameter, and Swagger 2.0 takes a body or form parameters, never both",
                        at: field.node.location))
            }
            return jsonBody(node, scope: bodyScope, consumes: scope.consumes, what: what)
        }
        guard let first = form.first else { return nil }
        var properties: [JSONMember] = []
        var required: [JSONNode] = []
        var encoding: [JSONMember] = []
        var hasFile = false
        var arrays: [(name: JSONMember, node: JSONNode, label: String)] = []
        for (node, fieldScope) in form {
            guard let name = node["name"] else { continue }
            let text = name.value.stringValue ?? ""
            let label = "form parameter \(quoted(text)) of \(what)"
            hasFile = hasFile || Self.isFile(node)
            // The field's schema keywords, its description and extensions become its property's.
            let schemaMembers = (node.members ?? []).filter {
                Self.schemaKeywords.contains($0.key) || $0.key == "description" || $0.key.hasPrefix("x-")
            }
            let anchor = schemaMembers.first?.value.location ?? node.location
            let schema = itemsSchema(schemaMembers, at: anchor, scope: fieldScope, label: label)
            properties.append(JSONMember(key: text, keyLocation: name.value.location, value: schema))
            if node["required"]?.value.boolValue == true { required.append(Self.string(text, at: name.value.location)) }
            if node["type"]?.value.stringValue == "array" { arrays.append((name, node, label)) }
        }
        let formTypes = ["application/x-www-form-urlencoded", "multipart/form-data"]
        var types = scope.consumes.filter { formTypes.contains(OpenAPIMediaTypes.essence($0)) }
        if hasFile { types = ["multipart/form-data"] } else if types.isEmpty { types = ["application/x-www-form-urlencoded"] }
        let isMultipart = types.allSatisfy { OpenAPIMediaTypes.essence($0) == "multipart/form-data" }
        for (name, node, label) in arrays {
            let text = name.value.stringValue ?? ""
            if isMultipart {
                if let format = node["collectionFormat"], format.value.stringValue != "multi" {
                    diagnostics.append(
                        .warning(
                            "the collectionFormat \(quoted(format.value.stringValue ?? "")) of \(label) is not kept: a multipart body sends each value as a part of its own",
                            at: format.value.location))
                }
                continue
            }
            let members = style(of: node, place: "formData", label: label)
            encoding.append(JSONMember(key: text, keyLocation: name.value.location, value: Self.object(members, at: name.value.location)))
        }
        let location = first.node.location
        var schema = [
            JSONMember(key: "type", keyLocation: location, value: Self.string("object", at: location)),
            JSONMember(key: "properties", keyLocation: location, value: Self.object(properties, at: location)),
        ]
        if !required.isEmpty {
            schema.append(JSONMember(key: "required", keyLocation: location, value: JSONNode(value: .array(required), location: location)))
        }
        let content = types.map { type in
            var entry = [JSONMember(key: "schema", keyLocation: location, value: Self.object(schema, at: location))]
            if !encoding.isEmpty, OpenAPIMediaTypes.essence(type) != "multipart/form-data" {
                entry.append(JSONMember(key: "encoding", keyLocation: location, value: Self.object(encoding, at: location)))
            }
            return JSONMember(key: type, keyLocation: location, value: Self.object(entry, at: location))
        }
        var members = [JSONMember(key: "content", keyLocation: location, value: Self.object(content, at: location))]
        if !required.isEmpty {
            members.append(JSONMember(key: "required", keyLocation: location, value: JSONNode(value: .bool(true), location: location)))
        }
        return JSONMember(key: "requestBody", keyLocation: location, value: Self.object(members, at: location))
    }

    /// A body parameter as `requestBody`: its schema under each type the operation
    /// `consumes` but forms (JSON when that leaves none, or only ranges, for a schema that is
    /// no file).
    private mutating func jsonBody(_ node: JSONNode, scope: Scope, consumes: [String], what: String) -> JSONMember {
        let location = node.location
        var members: [JSONMember] = []
        let formTypes = ["application/x-www-form-urlencoded", "multipart/form-data"]
        for member in node.members ?? [] {
            switch member.key {
            case "name", "in":
                continue
            case _ where !Self.carries(member.key, of: .bodyParameter):
                continue
            case "schema":
                let schema = Self.schema(member.value, rebase: rebase(from: scope.file))
                let listed = consumes.filter { !formTypes.contains(OpenAPIMediaTypes.essence($0)) }
                let types = Self.mediaTypes(listed, isFile: Self.isFile(member.value), fallbackFile: "application/octet-stream")
                let content = types.map { type in
                    JSONMember(
                        key: type, keyLocation: member.keyLocation,
                        value: Self.object([JSONMember(key: "schema", keyLocation: member.keyLocation, value: schema)], at: member.value.location))
                }
                members.append(JSONMember(key: "content", keyLocation: member.keyLocation, value: Self.object(content, at: member.value.location)))
            default:
                members.append(member)
            }
        }
        if node["schema"] == nil {
            diagnostics.append(
                .warning(
                    "the body parameter \(quoted(node["name"]?.value.stringValue ?? "")) of \(what) has no schema, so it is sent as any JSON (JSONValue)",
                    at: location))
            let any = Self.object([], at: location)
            let json = Self.object([JSONMember(key: "schema", keyLocation: location, value: any)], at: location)
            members.append(
                JSONMember(key: "content", keyLocation: location, value: Self.object([JSONMember(key: "application/json", keyLocation: location, value: json)], at: location)))
        }
        return JSONMember(key: "requestBody", keyLocation: location, value: Self.object(members, at: location))
    }
}
