/// How an endpoint's response body becomes its value.
@_spi(Generated)
public enum ResponseFormat: String, Sendable, Hashable {
    /// JSON, decoded as the response type.
    case json
    /// The bytes as they arrived, as `Data`.
    case data
    /// Text in the response's charset (UTF-8 when it names none), as `String`.
    case text
    /// Server-Sent Events (`text/event-stream`): each event's `data` decoded as JSON.
    case events
    /// JSON Lines (`application/jsonl`, `application/x-ndjson`): one JSON value a line.
    case jsonLines
    /// JSON text sequences (`application/json-seq`, RFC 7464): each value after a record separator.
    case jsonSequence
    /// A multipart body (`multipart/form-data`, `multipart/mixed`, …), its parts decoded as
    /// the response type's properties by name (`MultipartDecoder`); stored with its
    /// `Content-Type`, which holds the boundary.
    case multipart

    /// The `Accept` field of an endpoint that declares none.
    package var defaultAccept: String {
        switch self {
        case .json: "application/json"
        case .data: "*/*"
        case .text: "text/*"
        case .events: "text/event-stream"
        case .jsonLines: "application/jsonl, application/x-ndjson"
        case .jsonSequence: "application/json-seq"
        case .multipart: "multipart/form-data, multipart/mixed"
        }
    }
}
