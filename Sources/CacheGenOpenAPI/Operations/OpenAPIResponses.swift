import CacheGenReading
import CacheGenSpec

/// The 2xx response an operation's method returns (200, else 201, else the first 2xx): JSON
/// as its schema's type; bytes (`application/octet-stream`, `image/*`, `audio/*`,
/// `application/pdf`, `format: binary`, `*/*` and any type cachegen does not know) as `Data`;
/// text (`text/plain`, `text/html`, `text/csv`, …) as `String`; multipart bodies as a model
/// of their parts (`OpenAPIMultipart`); event streams (`text/event-stream`, JSON Lines, JSON
/// text sequences) as a typed `EventStream` (`OpenAPIEventStreams`).
///
/// An operation reads JSON when it offers JSON, else its first other type that is not a
/// stream, else its first stream.
package enum OpenAPIResponses {
    /// The 2xx response's type: 200, else 201, else the first 2xx; `nil` when the
    /// operation must be left out (a GET or HEAD whose body cannot be decoded), `type: nil`
    /// when there is no body or another method's body is dropped.
    package static func read(
        _ responses: JSONNode?, what: String, hint: String, method: String, file: String, context: inout OpenAPIOperationContext
    ) -> (type: TypeRef?, location: SourceLocation?)?
    {
        let members = responses?.members ?? []
        let success = members.first { $0.key == "200" } ?? members.first { $0.key == "201" }
            ?? members.first { $0.key.hasPrefix("2") && $0.key.count == 3 }
        guard let success else { return (nil, nil) }
        guard let target = context.schemas.references.resolve(success.value, in: file, otherwise: "the response of \(what) is read as any JSON (JSONValue)")
        else {
            return (.scalar(.json), success.value.location)
        }
        let hint = OpenAPIPlaceName.sharedHint(target, otherwise: hint, references: context.schemas.references)
        let offered = context.content(of: target.node["content"]?.value, file: target.file)
        if let reading = OpenAPIMediaTypes.reading(of: offered) {
            switch reading.format {
            case .data, .text:
                return (nil, offered?[reading.mediaType]?.value.location)
            case .multipart:
                return OpenAPIMultipart.response(reading, content: offered, hint: hint, what: what, file: target.file, context: &context)
            case .events, .jsonLines, .jsonSequence:
                return OpenAPIEventStreams.item(reading, content: offered, hint: hint, what: what, file: target.file, context: &context)
            case .json:
                break
            }
        }
        switch content(offered, hint: hint, file: target.file, context: &context) {
        case .none: return (nil, nil)
        case .json(let type, let location): return (type, location)
        case .unusable(let reason):
            guard method == "GET" || method == "HEAD" else {
                context.warn("the \(plainOrQuoted(success.key)) response body of \(what) is left out: it is \(reason); the call returns nothing", at: success.keyLocation)
                return (nil, nil)
            }
            context.leaveOut(what, "its \(plainOrQuoted(success.key)) response is \(reason)", at: success.keyLocation)
            return nil
        }
    }

    /// What a `content` map offers a JSON client.
    private enum Content {
        /// No content, or JSON without a schema: no body to decode or send.
        case none
        /// JSON of this type, written here.
        case json(TypeRef, SourceLocation)
        /// Content that cannot be sent or decoded faithfully, and why.
        case unusable(String)
    }

    /// The JSON entry of a `content` map and its type.
    private static func content(_ node: JSONNode?, hint: String, file: String, context: inout OpenAPIOperationContext) -> Content {
        guard let members = node?.members, !members.isEmpty else { return .none }
        guard let json = members.first(where: { OpenAPIMediaTypes.isJSON($0.key) }) else {
            return .unusable("only " + members.map(\.key).joined(separator: ", "))
        }
        guard let schema = json.value["schema"]?.value else { return .none }
        switch context.schemas.type(of: schema, in: file, hint: hint) {
        case .type(let type): return .json(type, schema.location)
        case .leftOut(let reason): return .unusable(reason)
        }
    }

    /// The success response (200, else 201, else the first 2xx) with its file.
    package static func success(_ responses: JSONNode?, file: String, references: OpenAPIReferences) -> OpenAPIReferences.Target? {
        let members = responses?.members ?? []
        let success = members.first { $0.key == "200" } ?? members.first { $0.key == "201" }
            ?? members.first { $0.key.hasPrefix("2") && $0.key.count == 3 }
        return success.flatMap { references.resolve($0.value, in: file) }
    }

    /// The format an operation's method reads and the `Accept` it sends (`nil`: JSON's own).
    package static func reading(_ responses: JSONNode?, file: String, context: inout OpenAPIOperationContext)
        -> (format: SpecResponseFormat, accept: String?)
    {
        guard let target = success(responses, file: file, references: context.schemas.references),
            let reading = OpenAPIMediaTypes.reading(of: context.content(of: target.node["content"]?.value, file: target.file))
        else {
            return (.json, nil)
        }
        return (reading.format, reading.mediaType)
    }
}
