/// How a response body is read (`"format"` of a `response` object).
public enum SpecResponseFormat: String, Sendable, Hashable, CaseIterable {
    /// JSON decoded as the response type.
    case json
    /// The bytes as they are, as `Data`.
    case data
    /// Text in the response's charset, as `String`.
    case text
    /// Server-Sent Events (`text/event-stream`), each event's data decoded as the type.
    case events
    /// JSON Lines (`application/jsonl`, `application/x-ndjson`), one value of the type a line.
    case jsonLines
    /// JSON text sequences (`application/json-seq`, RFC 7464).
    case jsonSequence
    /// A multipart body (`multipart/form-data`, `multipart/mixed`), each part decoded as the
    /// property of the type (an object model) that has its name.
    case multipart

    /// Whether the response is a sequence of values, never cached.
    public var isStream: Bool {
        switch self {
        case .json, .data, .text, .multipart: false
        case .events, .jsonLines, .jsonSequence: true
        }
    }
}
