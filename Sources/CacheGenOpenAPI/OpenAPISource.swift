#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CacheGenReading
import CacheGenYAML

/// How an input's bytes are read: as JSON or as YAML, into the same located nodes. (What
/// kind of input a file is, a spec, a document or an overlay, is decided by the generator's
/// pipeline, `InputKind` in `CacheGenCore`.)
package enum OpenAPISource {
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
}
