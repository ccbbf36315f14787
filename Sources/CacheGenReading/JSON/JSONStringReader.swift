/// Reads a JSON string at the cursor: validates its UTF-8, decodes its escapes, and says
/// what is wrong when it cannot (`JSONStringReader+Errors.swift`).
///
/// Strings without escapes, nearly all of them in a spec, are validated in place and decoded
/// straight from the file's bytes; the others are decoded into storage kept between strings.
package struct JSONStringReader {
    /// Reused storage for strings that contain escapes.
    package var scratch: [UInt8] = []

    /// A reader with no storage yet.
    package init() {}

    /// Reads a string whose opening quote is at the cursor's position, leaving the cursor
    /// after its closing quote.
    /// - Parameter opening: The location of the opening quote, where a string that does not
    ///   end is reported.
    package mutating func read(_ cursor: inout JSONCursor, opening: SourceLocation) throws(Diagnostic) -> String {
        let start = cursor.position + 1
        var index = start
        while index < cursor.bytes.count {
            let byte = cursor.bytes[index]
            if byte == ASCII.quote {
                cursor.position = index + 1
                return String(decoding: cursor.bytes[start..<index], as: UTF8.self)
            }
            if byte == ASCII.backslash {
                return try readEscaped(&cursor, opening: opening, start: start, firstEscape: index)
            }
            if byte < 0x80 {
                if byte < 0x20 { throw Self.controlCharacter(byte, at: index, opening: opening, in: cursor) }
                index += 1
            } else {
                index += try cursor.utf8Length(at: index)
            }
        }
        throw Self.unterminatedString(opening: opening, atLineEnd: false)
    }

    /// Reads the rest of a string from its first backslash, decoding into a buffer.
    private mutating func readEscaped(
        _ cursor: inout JSONCursor, opening: SourceLocation, start: Int, firstEscape: Int
    ) throws(Diagnostic) -> String {
        var buffer: [UInt8] = []
        swap(&buffer, &scratch)
        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: cursor.bytes[start..<firstEscape])
        var index = firstEscape
        while index < cursor.bytes.count {
            let byte = cursor.bytes[index]
            if byte == ASCII.quote {
                cursor.position = index + 1
                let text = String(decoding: buffer, as: UTF8.self)
                swap(&buffer, &scratch)
                return text
            }
            if byte == ASCII.backslash {
                index = try Self.decodeEscape(at: index, into: &buffer, opening: opening, in: cursor)
            } else if byte < 0x80 {
                if byte < 0x20 { throw Self.controlCharacter(byte, at: index, opening: opening, in: cursor) }
                buffer.append(byte)
                index += 1
            } else {
                let length = try cursor.utf8Length(at: index)
                buffer.append(contentsOf: cursor.bytes[index..<(index + length)])
                index += length
            }
        }
        throw Self.unterminatedString(opening: opening, atLineEnd: false)
    }

    /// Decodes the escape whose backslash is at `backslash`; returns the offset after it.
    private static func decodeEscape(
        at backslash: Int, into buffer: inout [UInt8], opening: SourceLocation, in cursor: JSONCursor
    ) throws(Diagnostic) -> Int {
        guard backslash + 1 < cursor.bytes.count else { throw unterminatedString(opening: opening, atLineEnd: false) }
        let decoded: UInt8
        switch cursor.bytes[backslash + 1] {
        case ASCII.quote: decoded = ASCII.quote
        case ASCII.backslash: decoded = ASCII.backslash
        case JSONByte.slash: decoded = JSONByte.slash
        case JSONByte.lowerB: decoded = 0x08
        case JSONByte.lowerF: decoded = 0x0C
        case JSONByte.lowerN: decoded = ASCII.lineFeed
        case JSONByte.lowerR: decoded = ASCII.carriageReturn
        case JSONByte.lowerT: decoded = ASCII.tab
        case JSONByte.lowerU:
            return try decodeUnicodeEscape(at: backslash, into: &buffer, opening: opening, in: cursor)
        default:
            throw invalidEscape(at: backslash, in: cursor)
        }
        buffer.append(decoded)
        return backslash + 2
    }

    /// Decodes `\uXXXX`, or a `\uXXXX\uXXXX` surrogate pair, at `backslash`.
    private static func decodeUnicodeEscape(
        at backslash: Int, into buffer: inout [UInt8], opening: SourceLocation, in cursor: JSONCursor
    ) throws(Diagnostic) -> Int {
        let bytes = cursor.bytes
        let first = try hexQuad(at: backslash, opening: opening, in: cursor)
        var scalarValue = first
        var end = backslash + 6
        switch first {
        case 0xD800...0xDBFF:
            guard end + 1 < bytes.count, bytes[end] == ASCII.backslash, bytes[end + 1] == JSONByte.lowerU else {
                throw loneSurrogate(at: backslash, in: cursor)
            }
            let second = try hexQuad(at: end, opening: opening, in: cursor)
            guard (0xDC00...0xDFFF).contains(second) else { throw loneSurrogate(at: backslash, in: cursor) }
            scalarValue = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            end += 6
        case 0xDC00...0xDFFF:
            throw loneSurrogate(at: backslash, in: cursor)
        default:
            break
        }
        guard let scalar = Unicode.Scalar(scalarValue) else { throw loneSurrogate(at: backslash, in: cursor) }
        UTF8.encode(scalar) { buffer.append($0) }
        return end
    }

    /// The value of the four hex digits after the `\u` at `backslash`.
    private static func hexQuad(
        at backslash: Int, opening: SourceLocation, in cursor: JSONCursor
    ) throws(Diagnostic) -> UInt32 {
        var value: UInt32 = 0
        for offset in 2..<6 {
            let index = backslash + offset
            guard index < cursor.bytes.count else { throw unterminatedString(opening: opening, atLineEnd: false) }
            guard let digit = hexValue(cursor.bytes[index]) else {
                throw invalidUnicodeEscape(at: backslash, in: cursor)
            }
            value = value << 4 | digit
        }
        return value
    }

    /// The value of a hexadecimal digit, either case.
    package static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case JSONByte.zero...JSONByte.nine: UInt32(byte - JSONByte.zero)
        case 0x41...0x46: UInt32(byte - 0x41 + 10)
        case 0x61...0x66: UInt32(byte - 0x61 + 10)
        default: nil
        }
    }
}
