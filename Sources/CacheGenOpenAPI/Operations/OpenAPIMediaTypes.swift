#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CacheGenReading
import CacheGenSpec

/// What a media type is to cachegen: JSON or not, how a request body of it is sent, how a
/// response of it is read (JSON, bytes, text, multipart parts or a stream of values), and
/// which of a `content` map's types a response is read as.
package enum OpenAPIMediaTypes {
    /// How one media type of a response is read.
    package struct Reading {
        /// JSON, bytes, text or a stream.
        package var format: SpecResponseFormat
        /// The media type as the document writes it.
        package var mediaType: String
    }

    /// A media type without its parameters, lower case.
    package static func essence(_ mediaType: String) -> String {
        mediaType.split(separator: ";").first.map { $0.trimmingWhitespace().lowercased() } ?? ""
    }

    /// `application/json`, `application/problem+json`, with or without parameters.
    package static func isJSON(_ mediaType: String) -> Bool {
        let essence = essence(mediaType)
        return essence == "application/json" || (essence.hasPrefix("application/") && essence.hasSuffix("+json"))
    }

    /// How a request body of this media type is sent; `nil` when cachegen cannot send it.
    package static func bodyKind(of content: JSONMember) -> BodyEncoding.Kind? {
        let essence = essence(content.key)
        if isJSON(essence) { return .json }
        if essence == "application/x-www-form-urlencoded" { return .form }
        if essence == "multipart/form-data" { return .multipart }
        if essence.hasPrefix("text/") { return .text }
        let binaryTypes = ["application/octet-stream", "application/pdf", "application/zip"]
        if binaryTypes.contains(essence) || ["image/", "audio/", "video/"].contains(where: essence.hasPrefix) { return .binary }
        let schema = content.value["schema"]?.value
        if schema?["format"]?.value.stringValue == "binary" { return .binary }
        return nil
    }

    /// How a media type is read, by its essence (no parameters, lower case); a schema of
    /// `format: binary` is bytes whatever the type says.
    package static func format(of mediaType: String, schema: JSONNode?) -> SpecResponseFormat {
        if schema?["type"]?.value.stringValue == "string", schema?["format"]?.value.stringValue == "binary" { return .data }
        if isJSON(mediaType) { return .json }
        let essence = essence(mediaType)
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
}
