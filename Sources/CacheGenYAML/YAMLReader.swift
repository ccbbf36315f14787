import CacheGenReading

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads one YAML document into the same located nodes the JSON reader makes, so the
/// stages after it work on JSON and YAML documents alike and point into either.
///
/// The reader covers what API descriptions use: block and flow collections; plain,
/// quoted and block scalars; comments; anchors, aliases and merge keys (`<<`); explicit
/// keys (`? key` then `: value`, block and flow); one document with optional `---`, `...`
/// and `%YAML`. Plain scalars resolve by YAML 1.2's core schema (`0x1F` is 31, `yes` is
/// text). Anything outside that subset (other tags, several documents, null or
/// collection keys, `.inf` and `.nan`,
/// which JSON cannot hold) is a located error, never a different value. Duplicate keys
/// are errors, as in the JSON reader.
public enum YAMLReader {
    /// The deepest nesting of mappings and sequences accepted; deeper input is reported
    /// as an error instead of exhausting memory or time.
    public static let maximumDepth = 512

    /// The most values aliases may copy in one document, so a few lines of nested
    /// aliases (a "billion laughs") are an error rather than a billion values.
    public static let maximumAliasExpansion = 1_000_000

    /// Parses a whole file. Throws the first problem as a `Diagnostic` (error severity).
    /// - Parameters:
    ///   - data: The file's bytes, UTF-8, with or without a byte order mark.
    ///   - file: The path to put in locations, as the user gave it.
    public static func parse(_ data: Data, file: String) throws(Diagnostic) -> JSONNode {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.count + YAMLCursor.padding)
        bytes.append(contentsOf: data)
        return try parse(padding: bytes, file: file)
    }

    /// Parses UTF-8 bytes; the entry point for callers that already hold an array.
    /// - Parameter inParts: whether a large document may be read in parts on all cores
    ///   (`YAMLReader+Parts.swift`); tests compare the two ways.
    package static func parse(bytes: [UInt8], file: String, inParts: Bool = true) throws(Diagnostic) -> JSONNode {
        try parse(padding: bytes, file: file, inParts: inParts)
    }

    /// Parses `bytes` after appending the scanner's zero padding (in place when the array
    /// is uniquely referenced and has room).
    private static func parse(padding bytes: consuming [UInt8], file: String, inParts: Bool = true) throws(Diagnostic)
        -> JSONNode
    {
        let count = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: YAMLCursor.padding))
        var start = 0
        if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        let scanner = YAMLScanner(paddedBytes: bytes, start: start, file: file)
        let bytes = scanner.cursor.bytes
        if bytes.count >= 2, (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF) {
            throw scanner.cursor.failure("the file is UTF-16 encoded; save it as UTF-8", at: 0)
        }
        if let offset = firstInvalidByte(bytes, from: start, end: count) {
            let byte = bytes[offset]
            if byte < 0x80 {
                throw scanner.cursor.failure(
                    "control character U+\(MessageText.hex(UInt32(byte), digits: 4)) in the file; "
                        + #"YAML allows only tabs and line breaks (write others as escapes such as \x01 in "…")"#,
                    at: offset)
            }
            throw scanner.cursor.failure(
                "invalid UTF-8 byte 0x\(MessageText.hex(UInt32(byte), digits: 2)); save the file as UTF-8", at: offset)
        }
        if inParts, start == 0, let root = parseInParts(bytes, count: count, file: file) { return root }
        var parser = YAMLParser(scanner: scanner)
        return try parser.parseDocument()
    }

    /// The offset of the first byte that is not well-formed UTF-8 or is a control
    /// character YAML does not allow (all C0 controls but tab and line breaks, DEL, and
    /// C1 controls but U+0085), or `nil`.
    package static func firstInvalidByte(_ bytes: [UInt8], from start: Int, end count: Int) -> Int? {
        bytes.withUnsafeBufferPointer { buffer -> Int? in
            var index = start
            func continuation(_ offset: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
                index + offset < count && range.contains(buffer[index + offset])
            }
            guard let base = UnsafeRawPointer(buffer.baseAddress) else { return nil }
            while index < count {
                // Eight bytes at a time while all are printable ASCII (0x20...0x7E): no high
                // bit, none below 0x20 (subtracting 0x20 borrows) and no 0x7F (adding 1 carries).
                if index + 8 <= count {
                    let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    let ones: UInt64 = 0x0101_0101_0101_0101
                    if (word | (word &- 0x20 &* ones) | (word &+ ones)) & (0x80 &* ones) == 0 {
                        index += 8
                        continue
                    }
                }
                let byte = buffer[index]
                if byte >= 0x20 && byte < 0x7F {
                    index += 1
                    continue
                }
                switch byte {
                case 0x09, 0x0A, 0x0D:
                    index += 1
                case 0xC2:
                    guard continuation(1) else { return index }
                    let next = buffer[index + 1]
                    if next < 0xA0 && next != 0x85 { return index }
                    index += 2
                case 0xC3...0xDF:
                    guard continuation(1) else { return index }
                    index += 2
                case 0xE0:
                    guard continuation(1, 0xA0...0xBF), continuation(2) else { return index }
                    index += 3
                case 0xE1...0xEC, 0xEE...0xEF:
                    guard continuation(1), continuation(2) else { return index }
                    index += 3
                case 0xED:
                    guard continuation(1, 0x80...0x9F), continuation(2) else { return index }
                    index += 3
                case 0xF0:
                    guard continuation(1, 0x90...0xBF), continuation(2), continuation(3) else { return index }
                    index += 4
                case 0xF1...0xF3:
                    guard continuation(1), continuation(2), continuation(3) else { return index }
                    index += 4
                case 0xF4:
                    guard continuation(1, 0x80...0x8F), continuation(2), continuation(3) else { return index }
                    index += 4
                default:
                    return index
                }
            }
            return nil
        }
    }
}
