/// Splits a JSON Lines body (`application/jsonl`, `application/x-ndjson`: one value a
/// line, LF or CRLF) or a JSON text sequence (`application/json-seq`, RFC 7464: each value
/// after an RS byte) into its records, from chunks split anywhere; blank records are skipped.
package struct JSONRecordSplitter: Sendable {
    /// The byte that ends (JSON Lines) or starts (JSON text sequences) a record.
    private let separator: UInt8
    private var record: [UInt8] = []

    /// A splitter for JSON Lines.
    package static var lines: JSONRecordSplitter { JSONRecordSplitter(separator: 0x0A) }
    /// A splitter for JSON text sequences.
    package static var sequence: JSONRecordSplitter { JSONRecordSplitter(separator: 0x1E) }

    private init(separator: UInt8) {
        self.separator = separator
    }

    /// Reads the next chunk; returns the records it completes.
    package mutating func feed(_ bytes: some Sequence<UInt8>) -> [[UInt8]] {
        var records: [[UInt8]] = []
        for byte in bytes {
            if byte == separator {
                if let complete = take() { records.append(complete) }
            } else {
                record.append(byte)
            }
        }
        return records
    }

    /// The last record, when the body ends without a separator after it.
    package mutating func finish() -> [UInt8]? {
        take()
    }

    /// The record read so far without surrounding white space, or `nil` when it is blank.
    private mutating func take() -> [UInt8]? {
        defer { record.removeAll(keepingCapacity: true) }
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let first = record.firstIndex(where: { !isSpace($0) }), let last = record.lastIndex(where: { !isSpace($0) }) else {
            return nil
        }
        return Array(record[first...last])
    }
}
