import CacheGenReading
import CacheGenSpec

/// Responses that are not JSON: bytes (`application/octet-stream`, `image/*`, `audio/*`,
/// `application/pdf`, `format: binary`, `*/*` and any type cachegen does not know) as `Data`,
/// text (`text/plain`, `text/html`, `text/csv`, …) as `String`, multipart bodies as a model
/// of their parts (`OpenAPIOperations+Multipart.swift`), and event streams
/// (`text/event-stream`, JSON Lines, JSON text sequences) as a typed `EventStream`.
///
/// An operation reads JSON when it offers JSON, else its first other type that is not a
/// stream, else its first stream. When it offers a stream besides what it reads, the stream
/// becomes a second method, named after the operation with `Events` (numbered when taken).
extension OpenAPIOperations {
    /// How one media type of a response is read.
    package struct Reading {
        /// JSON, bytes, text or a stream.
        package var format: SpecResponseFormat
        /// The media type as the document writes it.
        package var mediaType: String
    }

    /// How a media type is read, by its essence (no parameters, lower case); a schema of
    /// `format: binary` is bytes whatever the type says.
    package static func format(of mediaType: String, schema: JSONNode?) -> SpecResponseFormat {
        if schema?["type"]?.value.stringValue == "string", schema?["format"]?.value.stringValue == "binary" { return .data }
        if isJSON(mediaType) { return .json }
        let essence = mediaType.split(separator: ";").first.map { $0.trimmingWhitespace().lowercased() } ?? ""
        switch essence {
        case "text/event-stream": return .events
        case "application/jsonl", "application/x-ndjson", "application/jsonlines", "application/x-jsonlines": return .jsonLines
        case "application/json-seq": return .jsonSequence
        default:
            // The `+json-seq` structured suffix (RFC 8091: `application/geo+json-seq`).
            if essence.hasPrefix("application/"), essence.hasSuffix("+json-seq") { return .jsonSequence }
        }
        if essence.hasPrefix("multipart/") { return .multipart }
        if essence.hasPrefix("text/"), schema?["format"]?.value.stringValue != "binary" { return .text }
        return .data
    }

    /// What the success response of a `content` map is read as: JSON when offered (`nil`),
    /// else the first type that is not a stream, else the first stream.
    package static func reading(of content: JSONNode?) -> Reading? {
        let members = content?.members ?? []
        let readings = members.map { Reading(format: format(of: $0.key, schema: $0.value["schema"]?.value), mediaType: $0.key) }
        guard !readings.isEmpty, !readings.contains(where: { $0.format == .json }) else { return nil }
        return readings.first { !$0.format.isStream } ?? readings.first
    }

    /// The success response (200, else 201, else the first 2xx) with its file.
    package func success(_ responses: JSONNode?, file: String) -> OpenAPIReferences.Target? {
        let members = responses?.members ?? []
        let success = members.first { $0.key == "200" } ?? members.first { $0.key == "201" }
            ?? members.first { $0.key.hasPrefix("2") && $0.key.count == 3 }
        return success.flatMap { schemas.references.resolve($0.value, in: file) }
    }

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

    /// The format an operation's method reads and the `Accept` it sends (`nil`: JSON's own).
    package mutating func responseReading(_ responses: JSONNode?, file: String) -> (format: SpecResponseFormat, accept: String?) {
        guard let target = success(responses, file: file), let reading = Self.reading(of: content(of: target.node["content"]?.value, file: target.file)) else {
            return (.json, nil)
        }
        return (reading.format, reading.mediaType)
    }

    /// The type of each value of a stream: its `itemSchema`'s (OpenAPI 3.2; for Server-Sent
    /// Events, the type of each event's `data`), else its schema's, else `String` (each
    /// record's text); `nil` when the operation must be left out.
    package mutating func streamItem(_ reading: Reading, content: JSONNode?, hint: String, what: String, file: String)
        -> (type: TypeRef?, location: SourceLocation?)?
    {
        guard let entry = content?[reading.mediaType] else { return (.scalar(.string), nil) }
        switch streamValue(entry, format: reading.format, hint: hint + "Event", what: what, file: file) {
        case .type(let type, let location): return (type, location)
        case .leftOut(let reason, _):
            leaveOut(what, "its event stream is \(reason)", at: entry.keyLocation)
            return nil
        }
    }

    /// What each value of a stream's media type decodes as, or why it cannot be decoded.
    package enum StreamValue {
        /// The type, and where it is written.
        case type(TypeRef, SourceLocation)
        /// Why not, and where.
        case leftOut(String, SourceLocation)
    }

    /// Each value of the stream `entry` describes: OpenAPI 3.2's `itemSchema` when given (for
    /// `text/event-stream`, the event's `data` as its `contentSchema` or JSON
    /// `contentMediaType` says, else text), else the schema, which documents before 3.2 use
    /// for each value, else text.
    package mutating func streamValue(_ entry: JSONMember, format: SpecResponseFormat, hint: String, what: String, file: String)
        -> StreamValue
    {
        if let item = entry.value["itemSchema"] {
            guard format == .events else { return mapped(item.value, hint: hint, file: file) }
            return eventData(item.value, hint: hint, what: what, file: file)
        }
        guard let schema = entry.value["schema"]?.value else { return .type(.scalar(.string), entry.keyLocation) }
        return mapped(schema, hint: hint, file: file)
    }

    /// A schema's type as a `StreamValue`.
    private mutating func mapped(_ schema: JSONNode, hint: String, file: String) -> StreamValue {
        switch schemas.type(of: schema, in: file, hint: hint) {
        case .type(let type): return .type(type, schema.location)
        case .leftOut(let reason): return .leftOut(reason, schema.location)
        }
    }

    /// The type of each event's `data` in a Server-Sent Events `itemSchema` (an event object:
    /// `data`, `event`, `id`, `retry`): its `contentSchema`; any JSON for a JSON
    /// `contentMediaType` without one; else the text. Where the events' `data` differs by
    /// variant (`oneOf`/`anyOf` on `event`), or the schema names no `data` field, each
    /// event's data is its text, with a warning.
    private mutating func eventData(_ item: JSONNode, hint: String, what: String, file: String) -> StreamValue {
        let properties = objectProperties(item, file: file)
        var variants: [(node: JSONNode, file: String)] = []
        var stack = [(item, file)]
        var visited = 0
        while let (part, partFile) = stack.popLast(), visited < 64 {
            visited += 1
            guard let target = schemas.references.resolve(part, in: partFile) else { continue }
            for key in ["oneOf", "anyOf"] {
                for variant in target.node[key]?.value.elements ?? [] { variants.append((variant, target.file)) }
            }
            for child in target.node["allOf"]?.value.elements ?? [] { stack.append((child, target.file)) }
        }
        let typed = variants.compactMap { objectProperties($0.node, file: $0.file)["data"] }.filter { Self.isTypedData($0.node, references: schemas.references, file: $0.file) }
        if !typed.isEmpty {
            warn(
                "each event's data of \(what) is read as text (String): its itemSchema types the data differently by variant, which one Swift type cannot say",
                at: item.location)
            return .type(.scalar(.string), item.location)
        }
        guard let data = properties["data"], let target = schemas.references.resolve(data.node, in: data.file) else {
            if properties.isEmpty, OpenAPISchemaShape.types(of: schemas.references.resolve(item, in: file)?.node ?? item) == ["string"] {
                return .type(.scalar(.string), item.location)
            }
            warn(
                "each event's data of \(what) is read as text (String): its itemSchema has no \"data\" field, as an event (data, event, id, retry) has",
                at: item.location)
            return .type(.scalar(.string), item.location)
        }
        if let content = target.node["contentSchema"]?.value { return mapped(content, hint: hint, file: target.file) }
        if let media = target.node["contentMediaType"]?.value.stringValue, Self.isJSON(media) {
            return .type(.scalar(.json), target.node.location)
        }
        let types = OpenAPISchemaShape.types(of: target.node)
        if types.isEmpty || types == ["string"] { return .type(.scalar(.string), data.node.location) }
        // `data` written as the JSON it carries (an object, an array): that type.
        return mapped(data.node, hint: hint, file: data.file)
    }

    /// Whether an event's `data` schema says more than text: a `contentSchema`, a JSON
    /// `contentMediaType`, or a type other than string.
    private static func isTypedData(_ node: JSONNode, references: OpenAPIReferences, file: String) -> Bool {
        guard let target = references.resolve(node, in: file) else { return false }
        if target.node["contentSchema"] != nil { return true }
        if let media = target.node["contentMediaType"]?.value.stringValue, isJSON(media) { return true }
        let types = OpenAPISchemaShape.types(of: target.node)
        return !(types.isEmpty || types == ["string"])
    }

    /// The event-stream method of an operation that reads another format and also offers a
    /// stream; `nil` when there is none, or its events cannot be decoded (with a warning).
    package mutating func eventsEndpoint(of endpoint: EndpointSpec, responses: JSONNode?, file: String) -> EndpointSpec? {
        guard !endpoint.responseFormat.isStream, let target = success(responses, file: file),
            let content = content(of: target.node["content"]?.value, file: target.file),
            let stream = content.members?.first(where: { Self.format(of: $0.key, schema: nil).isStream })
        else { return nil }
        let reading = Reading(format: Self.format(of: stream.key, schema: nil), mediaType: stream.key)
        let what = "the event stream of operation \(quoted(endpoint.name.name))"
        let item: (type: TypeRef?, location: SourceLocation?)
        switch streamValue(
            stream, format: reading.format, hint: SwiftNaming.typeName(endpoint.name.name) + "ResponseEvent", what: what, file: target.file)
        {
        case .type(let type, let location): item = (type, location)
        case .leftOut(let reason, _):
            warn("\(what) is left out: it is \(reason)", at: stream.keyLocation)
            return nil
        }
        var events = endpoint
        events.name = Named(name: endpoint.name.name + "Events", location: stream.keyLocation)
        events.response = item.type
        events.responseLocation = item.location
        events.responseFormat = reading.format
        events.accept = reading.mediaType
        events.cache = nil
        return events
    }

    /// Sets `stream: true` in the body of each event-stream method whose body model has a
    /// boolean `stream` property (OpenAI's chat completions, responses, images and
    /// transcriptions stream only when asked to); the operation's plain method sends the
    /// body as the caller made it. Run once the models are built.
    package static func streamFlags(_ operations: inout [Operation], models: ModelIndex) {
        for index in operations.indices where operations[index].streamOf != nil {
            guard case .model(let name)? = operations[index].endpoint.body,
                case .object(let properties)? = models[name]?.kind,
                properties.contains(where: { $0.wireName == "stream" && $0.type.unwrapped == .scalar(.bool) })
            else { continue }
            operations[index].endpoint.bodyFlags = ["stream"]
        }
    }

    /// Gives each event-stream method a name no other operation's method has: `…Events`,
    /// else `…Events2`, `…Events3`, … in document order.
    package static func nameEventStreams(_ operations: inout [Operation], names: [String]) {
        var taken: Set<String> = []
        for name in names + operations.filter({ $0.streamOf == nil }).map(\.endpoint.name.name) {
            let member = SwiftNaming.memberName(name)
            taken.formUnion([member, member + "Stream", member + "Query"])
        }
        for index in operations.indices where operations[index].streamOf != nil {
            let base = operations[index].endpoint.name.name
            var name = base
            var number = 2
            while taken.contains(SwiftNaming.memberName(name)) {
                name = base + String(number)
                number += 1
            }
            taken.insert(SwiftNaming.memberName(name))
            operations[index].endpoint.name.name = name
        }
    }
}
