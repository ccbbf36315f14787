import Foundation

/// One part of a multipart body as it was read: its header fields in order, the name and
/// file name of its `Content-Disposition`, and its bytes.
package struct MultipartPart: Sendable, Hashable {
    /// The part's header fields as they arrived, names as written.
    package var headers: [(name: String, value: String)]
    /// The bytes between the part's blank line and the next delimiter.
    package var body: Data

    /// A part of these fields and bytes.
    package init(headers: [(name: String, value: String)], body: Data) {
        self.headers = headers
        self.body = body
    }

    /// The value of the first field of this name (case-insensitive), `nil` without one.
    package func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The `name` parameter of `Content-Disposition`; `nil` when the part has none.
    package var name: String? { disposition["name"] }

    /// The `filename` parameter of `Content-Disposition` (`filename*`, RFC 5987, first).
    package var filename: String? { disposition["filename*"] ?? disposition["filename"] }

    /// The part's `Content-Type`; `nil` when it has none (plain text, RFC 7578 §4.4).
    package var contentType: String? { header("Content-Type") }

    /// The fields other than `Content-Disposition`, `Content-Type` and `Content-Length` (which
    /// frames the part, as swift-openapi-runtime writes it): what `encoding.headers` of an
    /// OpenAPI document describes. Names as written (swift-openapi-runtime writes them in
    /// lower case).
    package var otherHeaders: [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in headers {
            let lower = name.lowercased()
            guard lower != "content-disposition", lower != "content-type", lower != "content-length", fields[name] == nil else { continue }
            fields[name] = value
        }
        return fields
    }

    /// The parameters of `Content-Disposition`, names lower-cased; quoted values unquoted.
    private var disposition: [String: String] {
        guard let field = header("Content-Disposition") else { return [:] }
        return MultipartParser.parameters(of: field)
    }

    package static func == (lhs: MultipartPart, rhs: MultipartPart) -> Bool {
        lhs.body == rhs.body && lhs.headers.elementsEqual(rhs.headers) { $0.name == $1.name && $0.value == $1.value }
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(body)
        for (name, value) in headers {
            hasher.combine(name)
            hasher.combine(value)
        }
    }
}
