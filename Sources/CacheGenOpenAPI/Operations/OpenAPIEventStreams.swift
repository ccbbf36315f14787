import CacheGenReading
import CacheGenSpec

/// Event streams (`text/event-stream`, JSON Lines, JSON text sequences) read as a typed
/// `EventStream`: the type of each value, from OpenAPI 3.2's `itemSchema` (for Server-Sent
/// Events, the type of each event's `data`) or the schema. When an operation offers a stream
/// besides what it reads, the stream becomes a second method, named after the operation with
/// `Events` (numbered when taken), that sets `stream: true` in a body that asks for it.
package enum OpenAPIEventStreams {
    /// What each value of a stream's media type decodes as, or why it cannot be decoded.
    package enum StreamValue {
        /// The type, and where it is written.
        case type(TypeRef, SourceLocation)
        /// Why not, and where.
        case leftOut(String, SourceLocation)
    }

    /// The type of each value of a stream: its `itemSchema`'s (OpenAPI 3.2; for Server-Sent
    /// Events, the type of each event's `data`), else its schema's, else `String` (each
    /// record's text); `nil` when the operation must be left out.
    package static func item(
        _ reading: OpenAPIMediaTypes.Reading, content: JSONNode?, hint: String, what: String, file: String,
        context: inout OpenAPIOperationContext
    ) -> (type: TypeRef?, location: SourceLocation?)?
    {
        guard let entry = content?[reading.mediaType] else { return (.scalar(.string), nil) }
        switch value(entry, format: reading.format, hint: hint + "Event", what: what, file: file, context: &context) {
        case .type(let type, let location): return (type, location)
        case .leftOut(let reason, _):
            context.leaveOut(what, "its event stream is \(reason)", at: entry.keyLocation)
            return nil
        }
    }

    /// Each value of the stream `entry` describes: OpenAPI 3.2's `itemSchema` when given (for
    /// `text/event-stream`, the event's `data` as its `contentSchema` or JSON
    /// `contentMediaType` says, else text), else the schema, which documents before 3.2 use
    /// for each value, else text.
    package static func value(
        _ entry: JSONMember, format: SpecResponseFormat, hint: String, what: String, file: String, context: inout OpenAPIOperationContext
    ) -> StreamValue
    {
        if let item = entry.value["itemSchema"] {
            guard format == .events else { return mapped(item.value, hint: hint, file: file, context: &context) }
            return eventData(item.value, hint: hint, what: what, file: file, context: &context)
        }
        guard let schema = entry.value["schema"]?.value else { return .type(.scalar(.string), entry.keyLocation) }
        return mapped(schema, hint: hint, file: file, context: &context)
    }

    /// A schema's type as a `StreamValue`.
    private static func mapped(_ schema: JSONNode, hint: String, file: String, context: inout OpenAPIOperationContext) -> StreamValue {
        switch context.schemas.type(of: schema, in: file, hint: hint) {
        case .type(let type): return .type(type, schema.location)
        case .leftOut(let reason): return .leftOut(reason, schema.location)
        }
    }

    /// The type of each event's `data` in a Server-Sent Events `itemSchema` (an event object:
    /// `data`, `event`, `id`, `retry`): its `contentSchema`; any JSON for a JSON
    /// `contentMediaType` without one; else the text. Where the events' `data` differs by
    /// variant (`oneOf`/`anyOf` on `event`), or the schema names no `data` field, each
    /// event's data is its text, with a warning.
    private static func eventData(_ item: JSONNode, hint: String, what: String, file: String, context: inout OpenAPIOperationContext)
        -> StreamValue
    {
        let properties = context.objectProperties(item, file: file)
        var variants: [(node: JSONNode, file: String)] = []
        var stack = [(item, file)]
        var visited = 0
        while let (part, partFile) = stack.popLast(), visited < 64 {
            visited += 1
            guard let target = context.schemas.references.resolve(part, in: partFile) else { continue }
            for key in ["oneOf", "anyOf"] {
                for variant in target.node[key]?.value.elements ?? [] { variants.append((variant, target.file)) }
            }
            for child in target.node["allOf"]?.value.elements ?? [] { stack.append((child, target.file)) }
        }
        let typed = variants.compactMap { context.objectProperties($0.node, file: $0.file)["data"] }.filter { Self.isTypedData($0.node, references: context.schemas.references, file: $0.file) }
        if !typed.isEmpty {
            context.warn(
                "each event's data of \(what) is read as text (String): its itemSchema types the data differently by variant, which one Swift type cannot say",
                at: item.location)
            return .type(.scalar(.string), item.location)
        }
        guard let data = properties["data"], let target = context.schemas.references.resolve(data.node, in: data.file) else {
            if properties.isEmpty, OpenAPISchemaShape.types(of: context.schemas.references.resolve(item, in: file)?.node ?? item) == ["string"] {
                return .type(.scalar(.string), item.location)
            }
            context.warn(
                "each event's data of \(what) is read as text (String): its itemSchema has no \"data\" field, as an event (data, event, id, retry) has",
                at: item.location)
            return .type(.scalar(.string), item.location)
        }
        if let content = target.node["contentSchema"]?.value { return mapped(content, hint: hint, file: target.file, context: &context) }
        if let media = target.node["contentMediaType"]?.value.stringValue, OpenAPIMediaTypes.isJSON(media) {
            return .type(.scalar(.json), target.node.location)
        }
        let types = OpenAPISchemaShape.types(of: target.node)
        if types.isEmpty || types == ["string"] { return .type(.scalar(.string), data.node.location) }
        // `data` written as the JSON it carries (an object, an array): that type.
        return mapped(data.node, hint: hint, file: data.file, context: &context)
    }

    /// Whether an event's `data` schema says more than text: a `contentSchema`, a JSON
    /// `contentMediaType`, or a type other than string.
    private static func isTypedData(_ node: JSONNode, references: OpenAPIReferences, file: String) -> Bool {
        guard let target = references.resolve(node, in: file) else { return false }
        if target.node["contentSchema"] != nil { return true }
        if let media = target.node["contentMediaType"]?.value.stringValue, OpenAPIMediaTypes.isJSON(media) { return true }
        let types = OpenAPISchemaShape.types(of: target.node)
        return !(types.isEmpty || types == ["string"])
    }

    /// The event-stream method of an operation that reads another format and also offers a
    /// stream; `nil` when there is none, or its events cannot be decoded (with a warning).
    package static func endpoint(
        of endpoint: EndpointSpec, responses: JSONNode?, file: String, context: inout OpenAPIOperationContext
    ) -> EndpointSpec? {
        guard !endpoint.responseFormat.isStream, let target = OpenAPIResponses.success(responses, file: file, references: context.schemas.references),
            let content = context.content(of: target.node["content"]?.value, file: target.file),
            let stream = content.members?.first(where: { OpenAPIMediaTypes.format(of: $0.key, schema: nil).isStream })
        else { return nil }
        let reading = OpenAPIMediaTypes.Reading(format: OpenAPIMediaTypes.format(of: stream.key, schema: nil), mediaType: stream.key)
        let what = "the event stream of operation \(quoted(endpoint.name.name))"
        let item: (type: TypeRef?, location: SourceLocation?)
        switch value(
            stream, format: reading.format, hint: SwiftNaming.typeName(endpoint.name.name) + "ResponseEvent", what: what, file: target.file,
            context: &context)
        {
        case .type(let type, let location): item = (type, location)
        case .leftOut(let reason, _):
            context.warn("\(what) is left out: it is \(reason)", at: stream.keyLocation)
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
    package static func streamFlags(_ operations: inout [OpenAPIOperations.Operation], models: ModelIndex) {
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
    package static func nameEventStreams(_ operations: inout [OpenAPIOperations.Operation], names: [String]) {
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
