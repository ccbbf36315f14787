import CacheGenReading

/// Single- and double-quoted scalars: folding, escapes and the indentation of their lines.
extension YAMLScalarReader {
    /// Reads a single- or double-quoted scalar whose opening quote is at the cursor, leaving the
    /// cursor after the closing quote. `indent` and `flowLevel` are as for `readPlain(_:indent:flowLevel:)`.
    package mutating func readQuoted(
        _ cursor: inout YAMLCursor, double: Bool, indent: Int, flowLevel: Int
    ) throws(Diagnostic) -> String {
        let opening = cursor.position
        let quote = double ? ASCII.quote : ASCII.apostrophe
        cursor.position += 1
        var buffer: [UInt8] = []
        var usesBuffer = false
        while true {
            // A run ends at the quote, an escape, a line break or the end; spaces and tabs
            // are part of it, except those just before a line break.
            let runStart = cursor.position
            while true {
                let byte = cursor.bytes[cursor.position]
                if byte == quote || YAMLByte.isBreak(byte) || byte == YAMLByte.end
                    || (double && byte == ASCII.backslash)
                {
                    break
                }
                cursor.position += 1
            }
            if !usesBuffer {
                if cursor.bytes[cursor.position] == quote,
                    !(quote == ASCII.apostrophe && cursor.bytes[cursor.position + 1] == quote)
                {
                    // The common case: no escapes, no folding.
                    let text = cursor.text(from: runStart, to: cursor.position)
                    cursor.position += 1
                    return text
                }
                swap(&buffer, &scratch)
                buffer.removeAll(keepingCapacity: true)
                usesBuffer = true
            }
            let byte = cursor.bytes[cursor.position]
            if YAMLByte.isBreak(byte) || cursor.position >= cursor.end {
                var runEnd = cursor.position
                while runEnd > runStart,
                    cursor.bytes[runEnd - 1] == ASCII.space || cursor.bytes[runEnd - 1] == ASCII.tab
                {
                    runEnd -= 1
                }
                buffer.append(contentsOf: cursor.bytes[runStart..<runEnd])
                if cursor.position >= cursor.end {
                    throw cursor.failure(
                        "unterminated string; add the closing \(double ? "'\"'" : "\"'\"")", at: opening)
                }
                let breaks = try Self.quotedLineBreaks(&cursor, opening: opening, indent: indent, flowLevel: flowLevel)
                if breaks == 1 {
                    buffer.append(ASCII.space)
                } else {
                    for _ in 1..<breaks { buffer.append(ASCII.lineFeed) }
                }
                continue
            }
            buffer.append(contentsOf: cursor.bytes[runStart..<cursor.position])
            if byte == quote {
                if !double, cursor.bytes[cursor.position + 1] == ASCII.apostrophe {
                    buffer.append(ASCII.apostrophe)
                    cursor.position += 2
                    continue
                }
                cursor.position += 1
                break
            }
            if byte == ASCII.backslash {
                if YAMLByte.isBreak(cursor.bytes[cursor.position + 1]) {
                    cursor.position += 1
                    let breaks = try Self.quotedLineBreaks(
                        &cursor, opening: opening, indent: indent, flowLevel: flowLevel)
                    for _ in 0..<breaks - 1 { buffer.append(ASCII.lineFeed) }
                } else {
                    try Self.decodeEscape(&cursor, into: &buffer)
                }
                continue
            }
        }
        let text = String(decoding: buffer, as: UTF8.self)
        swap(&buffer, &scratch)
        return text
    }

    /// Steps over the line break at the cursor's position, empty lines after it and the next line's
    /// indentation; returns how many line breaks there were.
    private static func quotedLineBreaks(
        _ cursor: inout YAMLCursor, opening: Int, indent: Int, flowLevel: Int
    ) throws(Diagnostic) -> Int {
        var breaks = 0
        while true {
            cursor.consumeBreak()
            breaks += 1
            if cursor.isDocumentMarker(ASCII.minus) || cursor.isDocumentMarker(ASCII.dot) {
                throw cursor.failure(
                    "a document marker inside a quoted string; add the closing quote", at: cursor.position)
            }
            while cursor.bytes[cursor.position] == ASCII.space { cursor.position += 1 }
            let spacesEnd = cursor.position
            while cursor.bytes[cursor.position] == ASCII.space || cursor.bytes[cursor.position] == ASCII.tab {
                cursor.position += 1
            }
            if YAMLByte.isBreak(cursor.bytes[cursor.position]) { continue }
            if cursor.position >= cursor.end { return breaks }
            if flowLevel == 0
                ? spacesEnd - cursor.lineStart <= indent : (indent >= 0 && spacesEnd - cursor.lineStart <= indent)
            {
                throw cursor.failure(
                    "this line of a quoted string must be indented more than the block around it", at: spacesEnd)
            }
            return breaks
        }
    }

    /// Decodes the escape whose backslash is at the cursor's position into `buffer`.
    private static func decodeEscape(_ cursor: inout YAMLCursor, into buffer: inout [UInt8]) throws(Diagnostic) {
        let backslash = cursor.position
        let code = cursor.bytes[cursor.position + 1]
        var digits = 0
        switch code {
        case 0x30: buffer.append(0x00)  // \0
        case 0x61: buffer.append(0x07)  // \a
        case 0x62: buffer.append(0x08)  // \b
        case 0x74, ASCII.tab: buffer.append(ASCII.tab)  // \t
        case 0x6E: buffer.append(ASCII.lineFeed)  // \n
        case 0x76: buffer.append(0x0B)  // \v
        case 0x66: buffer.append(0x0C)  // \f
        case 0x72: buffer.append(ASCII.carriageReturn)  // \r
        case 0x65: buffer.append(0x1B)  // \e
        case ASCII.space, ASCII.quote, 0x2F, ASCII.backslash: buffer.append(code)
        case 0x4E: buffer.append(contentsOf: [0xC2, 0x85])  // \N, U+0085
        case 0x5F: buffer.append(contentsOf: [0xC2, 0xA0])  // \_, U+00A0
        case 0x4C: buffer.append(contentsOf: [0xE2, 0x80, 0xA8])  // \L, U+2028
        case 0x50: buffer.append(contentsOf: [0xE2, 0x80, 0xA9])  // \P, U+2029
        case 0x78: digits = 2  // \xXX
        case 0x75: digits = 4  // \uXXXX
        case 0x55: digits = 8  // \UXXXXXXXX
        default:
            throw cursor.failure(
                "invalid escape '\\\(cursor.printable(at: cursor.position + 1))' in a double-quoted string; "
                    + #"valid escapes are \0 \a \b \t \n \v \f \r \e \" \/ \\ \N \_ \L \P \xXX \uXXXX \UXXXXXXXX"#,
                at: backslash)
        }
        cursor.position += 2
        guard digits > 0 else { return }
        var value: UInt32 = 0
        for offset in 0..<digits {
            let byte = cursor.bytes[cursor.position + offset]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default:
                throw cursor.failure(
                    "invalid escape in a double-quoted string; '\\\(Character(Unicode.Scalar(code)))' "
                        + "takes \(digits) hexadecimal digits",
                    at: backslash)
            }
            value = value << 4 | UInt32(digit)
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw cursor.failure(
                "the escape '\\\(Character(Unicode.Scalar(code)))' names no Unicode character (a surrogate or "
                    + "beyond U+10FFFF); write the character itself",
                at: backslash)
        }
        cursor.position += digits
        buffer.append(contentsOf: Array(String(Character(scalar)).utf8))
    }
}
