import Foundation

/// Reads a multipart body (RFC 2046 §5.1, RFC 7578) into its parts, trusting nothing: a
/// truncated or garbled body is a `Failure` saying where, never a crash or a hang. It reads
/// the bytes once, forward, so its time is linear in the body (times the boundary's length
/// at worst).
package enum MultipartParser {
    /// Why a body is not a multipart body; the text says which part and what was wrong.
    package struct Failure: Error, Hashable, CustomStringConvertible {
        /// What was wrong, for the endpoint's `decodingFailed` error.
        package let reason: String

        /// A failure for this reason.
        package init(reason: String) {
            self.reason = reason
        }

        package var description: String { reason }
    }

    private static let crlf: [UInt8] = [13, 10]

    /// The parts of `body`, framed by `boundary` (the `boundary` parameter of its
    /// `Content-Type`). A preamble before the first delimiter and an epilogue after the last
    /// are skipped, as the RFC says.
    package static func parse(_ body: Data, boundary: String) throws(Failure) -> [MultipartPart] {
        guard !boundary.isEmpty, boundary.utf8.count <= 200, !boundary.contains(where: { $0 == "\r" || $0 == "\n" }) else {
            throw Failure(reason: "the boundary \"\(shortened(boundary))\" is not a multipart boundary (1 to 70 characters on one line)")
        }
        let bytes = [UInt8](body)
        let dash = Array("--\(boundary)".utf8)
        let delimiter = crlf + dash
        var position: Int
        if bytes.starts(with: dash), isDelimiterEnd(bytes, at: dash.count) != false {
            position = dash.count
        } else if let found = find(delimiter, in: bytes, from: 0) {
            position = found + delimiter.count
        } else {
            throw Failure(reason: "the body has no delimiter \"--\(shortened(boundary))\": it is not multipart, or its boundary is another")
        }
        var parts: [MultipartPart] = []
        while true {
            let number = parts.count + 1
            // After a delimiter: `--` closes the body; else optional padding and a line break.
            if position + 2 <= bytes.count, bytes[position] == UInt8(ascii: "-"), bytes[position + 1] == UInt8(ascii: "-") {
                return parts
            }
            while position < bytes.count, bytes[position] == UInt8(ascii: " ") || bytes[position] == UInt8(ascii: "\t") { position += 1 }
            // (Only a delimiter followed by these, or by the end, is taken for one.)
            guard position + 2 <= bytes.count, bytes[position] == 13, bytes[position + 1] == 10 else {
                throw Failure(reason: "the body ends after a delimiter, before part \(number) or the closing \"--\" (it is truncated)")
            }
            position += 2
            var headers: [(name: String, value: String)] = []
            let start: Int
            if bytes[position...].starts(with: crlf) {
                start = position + 2
            } else {
                guard let end = find(crlf + crlf, in: bytes, from: position) else {
                    throw Failure(reason: "part \(number) ends before its header fields do (the body is truncated)")
                }
                headers = try fields(bytes[position..<end], part: number)
                start = end + 4
            }
            var search = start
            var next: Int?
            while let found = find(delimiter, in: bytes, from: search) {
                // A delimiter is the boundary followed by `--`, padding and a line break, or the end.
                if isDelimiterEnd(bytes, at: found + delimiter.count) != false {
                    next = found
                    break
                }
                search = found + 1
            }
            guard let next else {
                throw Failure(reason: "part \(number) ends without a delimiter after it (the body is truncated)")
            }
            parts.append(MultipartPart(headers: headers, body: Data(bytes[start..<next])))
            position = next + delimiter.count
        }
    }

    /// Whether the bytes at `index` may follow a boundary: `--`, or padding then CRLF;
    /// `nil` when the body ends first (so it may be a delimiter, cut short).
    private static func isDelimiterEnd(_ bytes: [UInt8], at index: Int) -> Bool? {
        var index = index
        if index + 2 <= bytes.count, bytes[index] == UInt8(ascii: "-"), bytes[index + 1] == UInt8(ascii: "-") { return true }
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
        guard index < bytes.count else { return nil }
        guard bytes[index] == 13 else { return false }
        guard index + 1 < bytes.count else { return nil }
        return bytes[index + 1] == 10
    }

    /// The header fields of a part: `Name: value` lines; a line that starts with a space
    /// continues the one before (obsolete folding).
    private static func fields(_ block: ArraySlice<UInt8>, part: Int) throws(Failure) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        var lineStart = block.startIndex
        while lineStart < block.endIndex {
            let lineEnd = find(crlf, in: block, from: lineStart) ?? block.endIndex
            let line = text(block[lineStart..<lineEnd])
            lineStart = min(lineEnd + 2, block.endIndex)
            if let first = line.unicodeScalars.first, first == " " || first == "\t" {
                guard !fields.isEmpty else {
                    throw Failure(reason: "part \(part) starts its header fields with a continuation line")
                }
                // Joined by one space, none around an empty piece, so the value reads as its
                // one-line form does (which the fuzz target checks).
                let piece = line.trimmingCharacters(in: .whitespaces)
                if !piece.isEmpty {
                    fields[fields.count - 1].value += fields[fields.count - 1].value.isEmpty ? piece : " " + piece
                }
                continue
            }
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
                !line[..<colon].contains(where: { $0 == " " || $0 == "\t" })
            else {
                throw Failure(reason: "part \(part) has a header line that is not a field: \"\(shortened(line))\"")
            }
            fields.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return fields
    }

    /// The `boundary` parameter of a `multipart/*` media type; `nil` when it names none.
    package static func boundary(of contentType: String?) -> String? {
        guard let contentType, let boundary = parameters(of: contentType)["boundary"], !boundary.isEmpty else { return nil }
        return boundary
    }

    /// The parameters after a field's first value (`form-data; name="a"; filename="b"`),
    /// names lower-cased, quoted strings unquoted (`\x` is `x`), `name*` values (RFC 8187)
    /// percent-decoded from UTF-8.
    package static func parameters(of field: String) -> [String: String] {
        var result: [String: String] = [:]
        let scalars = Array(field.unicodeScalars)
        var index = 0
        // Skip the value before the first `;`, which may not hold one inside quotes.
        while index < scalars.count, scalars[index] != ";" { index += 1 }
        while index < scalars.count {
            index += 1  // the `;`
            var name = ""
            while index < scalars.count, scalars[index] != "=", scalars[index] != ";" {
                name.unicodeScalars.append(scalars[index])
                index += 1
            }
            name = name.trimmingCharacters(in: .whitespaces).lowercased()
            guard index < scalars.count, scalars[index] == "=" else { continue }
            index += 1
            while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
            var value = ""
            if index < scalars.count, scalars[index] == "\"" {
                index += 1
                while index < scalars.count, scalars[index] != "\"" {
                    if scalars[index] == "\\", index + 1 < scalars.count { index += 1 }
                    value.unicodeScalars.append(scalars[index])
                    index += 1
                }
                while index < scalars.count, scalars[index] != ";" { index += 1 }
            } else {
                while index < scalars.count, scalars[index] != ";" {
                    value.unicodeScalars.append(scalars[index])
                    index += 1
                }
                value = value.trimmingCharacters(in: .whitespaces)
            }
            if name.hasSuffix("*") {
                // charset'language'percent-encoded
                let pieces = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
                if pieces.count == 3, let decoded = String(pieces[2]).removingPercentEncoding { value = decoded }
            }
            if !name.isEmpty, result[name] == nil { result[name] = value }
        }
        return result
    }

    /// Header bytes as text: UTF-8, else Latin-1 (every byte a character), so nothing is refused.
    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(bytes: bytes, encoding: .utf8) ?? String(bytes.map { Character(Unicode.Scalar($0)) })
    }

    /// At most 40 characters of `text`, for a message.
    private static func shortened(_ text: String) -> String {
        text.count <= 40 ? text : String(text.prefix(40)) + "…"
    }

    /// The first index at or after `start` where `needle` occurs in `haystack`.
    package static func find<C: RandomAccessCollection<UInt8>>(_ needle: [UInt8], in haystack: C, from start: C.Index) -> C.Index?
    where C.Index == Int {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        let last = haystack.endIndex - needle.count
        var index = max(start, haystack.startIndex)
        while index <= last {
            if haystack[index] == first {
                var matched = 1
                while matched < needle.count, haystack[index + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return index }
            }
            index += 1
        }
        return nil
    }
}
