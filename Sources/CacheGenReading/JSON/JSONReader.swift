#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads JSON files into located nodes, keeping the line and column of every key and
/// value and the order of object keys, which Foundation's readers drop.
///
/// The reader follows RFC 8259 strictly: no comments, trailing commas, single quotes,
/// `NaN`, or duplicate keys. Each of those gets its own message saying what to change.
public enum JSONReader {
    /// The deepest nesting of objects and arrays accepted; deeper input is reported as
    /// an error instead of exhausting memory or time.
    public static let maximumDepth = 512

    /// Parses a whole file. Throws the first syntax error as a `Diagnostic` (error severity).
    /// - Parameters:
    ///   - data: The file's bytes, UTF-8, with or without a byte order mark.
    ///   - file: The path to put in locations, as the user gave it.
    public static func parse(_ data: Data, file: String) throws(Diagnostic) -> JSONNode {
        try parse(bytes: [UInt8](data), file: file)
    }

    /// Parses UTF-8 bytes; the entry point for callers that already hold an array.
    package static func parse(bytes: [UInt8], file: String) throws(Diagnostic) -> JSONNode {
        var parser = JSONParser(bytes: bytes, file: file)
        return try parser.parseDocument()
    }
}
