import Foundation

/// A file as one part of a multipart body, sent or received: its bytes, the file name of
/// its `Content-Disposition`, its media type, and the part's other header fields.
///
/// Models of multipart bodies hold one where the API sends or returns a file (a
/// `format: binary` part). Outside a multipart body (in JSON) it is written as an object of
/// its properties, the data in base64, `headers` only when there are some.
public struct MultipartFile: Sendable, Hashable, Codable {
    /// The file's bytes.
    public var data: Data
    /// The file name of the part's `Content-Disposition`; empty when a received part names none.
    public var filename: String
    /// The part's `Content-Type`, such as `image/png`.
    public var contentType: String
    /// The part's header fields besides `Content-Disposition`, `Content-Type` and
    /// `Content-Length` (what an OpenAPI document's `encoding.<part>.headers` describes), names
    /// as written: read them with `header(_:)`, which ignores case. Sent sorted by name; a line
    /// break in a value is sent as a space.
    public var headers: [String: String]

    /// Creates a file part; `application/octet-stream` unless a media type is given.
    public init(data: Data, filename: String, contentType: String = "application/octet-stream", headers: [String: String] = [:]) {
        self.data = data
        self.filename = filename
        self.contentType = contentType
        self.headers = headers
    }

    /// The value of a header field, by a name in any case; `nil` without one.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    private enum CodingKeys: String, CodingKey {
        case data, filename, contentType, headers
    }

    /// Reads the object `encode(to:)` writes; `headers` may be missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        data = try container.decode(Data.self, forKey: .data)
        filename = try container.decode(String.self, forKey: .filename)
        contentType = try container.decode(String.self, forKey: .contentType)
        headers = try container.decodeIfPresent([String: String].self, forKey: .headers) ?? [:]
    }

    /// Writes `data`, `filename`, `contentType`, and `headers` when there are some.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(data, forKey: .data)
        try container.encode(filename, forKey: .filename)
        try container.encode(contentType, forKey: .contentType)
        if !headers.isEmpty { try container.encode(headers, forKey: .headers) }
    }
}
