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
        default: break
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

    /// The format an operation's method reads and the `Accept` it sends (`nil`: JSON's own).
    package func responseReading(_ responses: JSONNode?, file: String) -> (format: SpecResponseFormat, accept: String?) {
        guard let target = success(responses, file: file), let reading = Self.reading(of: target.node["content"]?.value) else {
            return (.json, nil)
        }
        return (reading.format, reading.mediaType)
    }

    /// The type of each value of a stream: its schema's, or `String` (each record's text)
    /// without one; `nil` when the operation must be left out.
    package mutating func streamItem(_ reading: Reading, content: JSONNode?, hint: String, what: String, file: String)
        -> (type: TypeRef?, location: SourceLocation?)?
    {
        let entry = content?[reading.mediaType]
        guard let schema = entry?.value["schema"]?.value else { return (.scalar(.string), entry?.keyLocation) }
        switch schemas.type(of: schema, in: file, hint: hint + "Event") {
        case .type(let type): return (type, schema.location)
        case .leftOut(let reason):
            leaveOut(what, "its event stream is \(reason)", at: entry?.keyLocation ?? schema.location)
            return nil
        }
    }

    /// The event-stream method of an operation that reads another format and also offers a
    /// stream; `nil` when there is none, or its events cannot be decoded (with a warning).
    package mutating func eventsEndpoint(of endpoint: EndpointSpec, responses: JSONNode?, file: String) -> EndpointSpec? {
        guard !endpoint.responseFormat.isStream, let target = success(responses, file: file),
            let content = target.node["content"]?.value,
            let stream = content.members?.first(where: { Self.format(of: $0.key, schema: nil).isStream })
        else { return nil }
        let reading = Reading(format: Self.format(of: stream.key, schema: nil), mediaType: stream.key)
        let what = "the event stream of operation \(quoted(endpoint.name.name))"
        var item: (type: TypeRef?, location: SourceLocation?) = (.scalar(.string), stream.keyLocation)
        if let schema = stream.value["schema"]?.value {
            switch schemas.type(of: schema, in: target.file, hint: SwiftNaming.typeName(endpoint.name.name) + "ResponseEvent") {
            case .type(let type): item = (type, schema.location)
            case .leftOut(let reason):
                warn("\(what) is left out: it is \(reason)", at: stream.keyLocation)
                return nil
            }
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
