extension JSONParser {
    /// Reads a string whose opening quote is at `position`.
    ///
    /// Strings without escapes, nearly all of them in a spec, are validated in place
    /// and decoded straight from the file's bytes.
    package mutating func parseString(opening: SourceLocation) throws(Diagnostic) -> String {
        let start = position + 1
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == ASCII.quote {
                position = index + 1
                return String(decoding: bytes[start..<index], as: UTF8.self)
            }
            if byte == ASCII.backslash {
                return try parseEscapedString(opening: opening, start: start, firstEscape: index)
            }
            if byte < 0x80 {
                if byte < 0x20 { throw controlCharacter(byte, at: index, opening: opening) }
                index += 1
            } else {
                index += try utf8Length(at: index)
            }
        }
        throw unterminatedString(opening: opening, atLineEnd: false)
    }

    /// Reads the rest of a string from its first backslash, decoding into a buffer.
    private mutating func parseEscapedString(
        opening: SourceLocation, start: Int, firstEscape: Int
    ) throws(Diagnostic) -> String {
        var buffer: [UInt8] = []
        swap(&buffer, &scratch)
        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: bytes[start..<firstEscape])
        var index = firstEscape
        while index < bytes.count {
            let byte = bytes[index]
            if byte == ASCII.quote {
                position = index + 1
                let text = String(decoding: buffer, as: UTF8.self)
                swap(&buffer, &scratch)
                return text
            }
            if byte == ASCII.backslash {
                index = try decodeEscape(at: index, into: &buffer, opening: opening)
            } else if byte < 0x80 {
                if byte < 0x20 { throw controlCharacter(byte, at: index, opening: opening) }
                buffer.append(byte)
                index += 1
            } else {
                let length = try utf8Length(at: index)
                buffer.append(contentsOf: bytes[index..<(index + length)])
                index += length
            }
        }
        throw unterminatedString(opening: opening, atLineEnd: false)
    }

    /// Decodes the escape whose backslash is at `backslash`; returns the offset after it.
    private func decodeEscape(
        at backslash: Int, into buffer: inout [UInt8], opening: SourceLocation
    ) throws(Diagnostic) -> Int {
        guard backslash + 1 < bytes.count else { throw unterminatedString(opening: opening, atLineEnd: false) }
        let decoded: UInt8
        switch bytes[backslash + 1] {
        case ASCII.quote: decoded = ASCII.quote
        case ASCII.backslash: decoded = ASCII.backslash
        case JSONByte.slash: decoded = JSONByte.slash
        case JSONByte.lowerB: decoded = 0x08
        case JSONByte.lowerF: decoded = 0x0C
        case JSONByte.lowerN: decoded = ASCII.lineFeed
        case JSONByte.lowerR: decoded = ASCII.carriageReturn
        case JSONByte.lowerT: decoded = ASCII.tab
        case JSONByte.lowerU:
            return try decodeUnicodeEscape(at: backslash, into: &buffer, opening: opening)
        default:
            throw invalidEscape(at: backslash)
        }
        buffer.append(decoded)
        return backslash + 2
    }

    /// Decodes `\uXXXX`, or a `\uXXXX\uXXXX` surrogate pair, at `backslash`.
    private func decodeUnicodeEscape(
        at backslash: Int, into buffer: inout [UInt8], opening: SourceLocation
    ) throws(Diagnostic) -> Int {
        let first = try hexQuad(at: backslash, opening: opening)
        var scalarValue = first
        var end = backslash + 6
        switch first {
        case 0xD800...0xDBFF:
            guard end + 1 < bytes.count, bytes[end] == ASCII.backslash, bytes[end + 1] == JSONByte.lowerU else {
                throw loneSurrogate(at: backslash)
            }
            let second = try hexQuad(at: end, opening: opening)
            guard (0xDC00...0xDFFF).contains(second) else { throw loneSurrogate(at: backslash) }
            scalarValue = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            end += 6
        case 0xDC00...0xDFFF:
            throw loneSurrogate(at: backslash)
        default:
            break
        }
        guard let scalar = Unicode.Scalar(scalarValue) else { throw loneSurrogate(at: backslash) }
        UTF8.encode(scalar) { buffer.append($0) }
        return end
    }

    /// The value of the four hex digits after the `\u` at `backslash`.
    private func hexQuad(at backslash: Int, opening: SourceLocation) throws(Diagnostic) -> UInt32 {
        var value: UInt32 = 0
        for offset in 2..<6 {
            let index = backslash + offset
            guard index < bytes.count else { throw unterminatedString(opening: opening, atLineEnd: false) }
            guard let digit = Self.hexValue(bytes[index]) else { throw invalidUnicodeEscape(at: backslash) }
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

    // MARK: - UTF-8

    /// The length of the UTF-8 sequence at `index`, or an error at its first byte
    /// when it is not well-formed (RFC 3629: no overlong forms, surrogates, or values
    /// past U+10FFFF).
    package func utf8Length(at index: Int) throws(Diagnostic) -> Int {
        let length = validUTF8Length(at: index)
        guard length > 0 else { throw invalidUTF8(at: index) }
        return length
    }

    /// The length of the well-formed UTF-8 sequence at `index`, or 0.
    package func validUTF8Length(at index: Int) -> Int {
        guard index < bytes.count else { return 0 }
        func continuation(_ offset: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            index + offset < bytes.count && range.contains(bytes[index + offset])
        }
        switch bytes[index] {
        case 0x00...0x7F:
            return 1
        case 0xC2...0xDF:
            return continuation(1) ? 2 : 0
        case 0xE0:
            return continuation(1, 0xA0...0xBF) && continuation(2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF:
            return continuation(1) && continuation(2) ? 3 : 0
        case 0xED:
            return continuation(1, 0x80...0x9F) && continuation(2) ? 3 : 0
        case 0xF0:
            return continuation(1, 0x90...0xBF) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF1...0xF3:
            return continuation(1) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF4:
            return continuation(1, 0x80...0x8F) && continuation(2) && continuation(3) ? 4 : 0
        default:
            return 0
        }
    }

    /// The scalar whose UTF-8 sequence starts at `index`, if it is well-formed.
    package func scalar(at index: Int) -> Unicode.Scalar? {
        let length = validUTF8Length(at: index)
        guard length > 0 else { return nil }
        var decoder = UTF8()
        var iterator = bytes[index..<(index + length)].makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return nil }
        return scalar
    }
}
