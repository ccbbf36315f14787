import CacheGenReading

// How an endpoint's body and response are written in a spec: a type, or an object that says
// how the body is encoded (`encoding`, `contentType`, `fields`) or how the response is read
// (`format`, and `channel` for a stream the server ends only to make the client reconnect).
extension SpecParser {
    /// A `response`: a type, or `{ "type": …, "format": …, "channel": … }` for bytes, text and
    /// streams; `channel` is where `"channel": true` is written, if it is.
    package mutating func responseType(_ node: JSONNode) -> (TypeRef?, SpecResponseFormat, channel: SourceLocation?) {
        guard case .object = node.value else { return (typeRef(node), .json, nil) }
        guard let fields = object(node, "\"response\"", allowed: Keys.response) else { return (nil, .json, nil) }
        var format = SpecResponseFormat.json
        if let formatNode = fields["format"]?.value, let value = choice(formatNode, "\"format\"", SpecResponseFormat.self) {
            format = value
        }
        let channel = fields["channel"].flatMap { channelFlag($0) }
        return (responseBody(node, fields: fields, format: format), format, channel)
    }

    /// `"channel": true` (the stream is a long-lived channel): where it is written; `nil` for
    /// `false`, or a value that is not a Boolean (reported).
    package mutating func channelFlag(_ member: JSONMember) -> SourceLocation? {
        guard case .bool(let flag) = member.value.value else {
            report("\"channel\" must be true or false; found \(member.value.kindName)", at: member.value.location)
            return nil
        }
        return flag ? member.keyLocation : nil
    }

    /// The type of a `response` object, as its `format` allows one.
    private mutating func responseBody(_ node: JSONNode, fields: ObjectMembers, format: SpecResponseFormat) -> TypeRef? {
        let typeNode = fields["type"]?.value
        switch format {
        case .data, .text:
            if let typeNode {
                report(
                    "\"response\" with \"format\": \"\(format.rawValue)\" is read as \(format == .data ? "Data" : "String"); remove \"type\"",
                    at: typeNode.location)
            }
            return nil
        case .json, .events, .jsonLines, .jsonSequence, .multipart:
            guard let typeNode else {
                let what = switch format {
                case .json: "its body"
                case .multipart: "its parts, an object model with a property per part"
                default: "each value in the stream"
                }
                report(
                    "\"response\" with \"format\": \"\(format.rawValue)\" needs a \"type\": the type of \(what)",
                    at: node.location)
                return nil
            }
            return typeRef(typeNode)
        }
    }

    /// `"body": "T"` (JSON), or `{ "type": "T", "encoding": …, "contentType": …, "fields": … }`.
    package mutating func requestBody(_ node: JSONNode) -> (TypeRef?, BodyEncoding) {
        guard case .object = node.value else { return (typeRef(node), .json) }
        guard let fields = object(node, "\"body\"", allowed: Keys.body) else { return (nil, .json) }
        var encoding = BodyEncoding.json
        if let kindNode = fields["encoding"]?.value, let kind = choice(kindNode, "\"encoding\"", BodyEncoding.Kind.self) {
            encoding.kind = kind
        }
        if let typeNode = fields["type"]?.value {
            let type = typeRef(typeNode)
            if let contentNode = fields["contentType"]?.value, let contentType = string(contentNode, "\"contentType\"") {
                encoding.contentType = contentType
                encoding.contentTypeLocation = contentNode.location
            }
            if let fieldsNode = fields["fields"]?.value, let entries = object(fieldsNode, "\"fields\"", allowed: nil) {
                encoding.fields = entries.list.compactMap { bodyField($0) }
            }
            return (type, encoding)
        }
        report("\"body\" needs a \"type\", such as \"NewAccount\"", at: node.location)
        return (nil, encoding)
    }

    /// One entry of a body's `fields`: `{ "style": …, "explode": …, "contentType": … }`.
    package mutating func bodyField(_ member: JSONMember) -> BodyEncoding.Field? {
        guard let fields = object(member.value, "field \(quoted(member.key))", allowed: Keys.bodyField) else { return nil }
        var field = BodyEncoding.Field(name: Named(name: member.key, location: member.keyLocation))
        if let node = fields["style"]?.value { field.style = choice(node, "\"style\"", BodyEncoding.Style.self) }
        if let node = fields["explode"]?.value {
            if case .bool(let flag) = node.value {
                field.explode = flag
            } else {
                report("\"explode\" must be true or false; found \(node.kindName)", at: node.location)
            }
        }
        if let node = fields["contentType"]?.value { field.contentType = string(node, "\"contentType\"") }
        return field
    }
}
