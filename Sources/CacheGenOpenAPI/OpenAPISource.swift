#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CacheGenReading
import CacheGenYAML

/// What a generator input is, decided by its content: a cachegen spec, an OpenAPI
/// document, or an overlay that names a document and adds cache rules.
package enum OpenAPISource {
    /// The three kinds of input.
    package enum Kind: Equatable {
        /// A cachegen spec (`"version": 1`).
        case spec
        /// An OpenAPI 3.x document.
        case document
        /// A `*.cachegen.json` with `"openapi": "path/to/document.yaml"`.
        case overlay
    }

    /// Reads JSON or YAML into located nodes: JSON when the name ends in `.json` or the
    /// first non-blank byte is `{`, else YAML (which reads JSON documents too, but with
    /// JSON's messages the errors are clearer).
    package static func parse(_ data: Data, file: String) throws(Diagnostic) -> JSONNode {
        if isJSON(data, file: file) { return try JSONReader.parse(data, file: file) }
        return try YAMLReader.parse(data, file: file)
    }

    /// Whether the bytes should be read as JSON.
    package static func isJSON(_ data: Data, file: String) -> Bool {
        let lowered = file.lowercased()
        if lowered.hasSuffix(".json") { return true }
        if lowered.hasSuffix(".yaml") || lowered.hasSuffix(".yml") { return false }
        let first = data.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }
        return first == UInt8(ascii: "{")
    }

    /// A document says `openapi: 3.x.y`; an overlay names a file there; a spec has neither.
    /// Without a file name, a root with neither `paths` nor `info` whose `openapi` is no
    /// version number counts as an overlay, so its mistake is reported as an overlay's.
    package static func kind(of root: JSONNode) -> Kind {
        guard let value = root["openapi"]?.value else { return root["swagger"] == nil ? .spec : .document }
        let text = value.stringValue?.lowercased()
        if let text, [".json", ".yaml", ".yml"].contains(where: text.hasSuffix) { return .overlay }
        if root["paths"] == nil, root["info"] == nil, text?.first?.isNumber != true { return .overlay }
        return .document
    }
}
