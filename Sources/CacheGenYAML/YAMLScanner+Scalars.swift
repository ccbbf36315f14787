import CacheGenReading

/// Plain, quoted and block scalars: folding, escapes and chomping, per YAML 1.2.
extension YAMLScanner {
    // MARK: - Plain

    /// Reads a plain scalar at `position`, folding its lines.
    package mutating func scanPlain() throws(Diagnostic) -> String {
        let start = position
        let minimumIndent = indent + 1
        var buffer: [UInt8] = []
        var usesBuffer = false
        var chunkEnd = position
        // What joins the previous chunk to the next one: 0 nothing yet, -1 the spaces in
        // `spaceStart..<spaceEnd`, n > 0 a fold of n line breaks.
        var join = 0
        var spaceStart = 0
        var spaceEnd = 0
        scan: while true {
            if bytes[position] == YAMLByte.hash { break }
            var index = position
            while true {
                let byte = bytes[index]
                if !YAMLByte.mayEndPlain(byte) {
                    index += 1
                    continue
                }
                if YAMLByte.isBlankOrEnd(byte) { break }
                if byte == ASCII.colon {
                    let next = bytes[index + 1]
                    if YAMLByte.isBlankOrEnd(next) || (flowLevel > 0 && YAMLByte.isFlowIndicator(next)) { break }
                } else if flowLevel > 0 && YAMLByte.isFlowIndicator(byte) {
                    break
                }
                index += 1
            }
            if index == position { break }
            // Spaces inside a line are kept as written, so until a line is folded the text
            // is still one run of the input and needs no buffer.
            if join > 0 || usesBuffer {
                if !usesBuffer {
                    swap(&buffer, &scratch)
                    buffer.removeAll(keepingCapacity: true)
                    buffer.append(contentsOf: bytes[start..<chunkEnd])
                    usesBuffer = true
                }
                if join < 0 {
                    buffer.append(contentsOf: bytes[spaceStart..<spaceEnd])
                } else if join == 1 {
                    buffer.append(ASCII.space)
                } else if join > 1 {
                    for _ in 1..<join { buffer.append(ASCII.lineFeed) }
                }
                buffer.append(contentsOf: bytes[position..<index])
            }
            position = index
            chunkEnd = index
            join = 0

            // The whitespace after the chunk.
            var after = position
            while bytes[after] == ASCII.space || bytes[after] == ASCII.tab { after += 1 }
            guard YAMLByte.isBreak(bytes[after]) else {
                guard after > position else { break }
                spaceStart = position
                spaceEnd = after
                join = -1
                position = after
                continue
            }
            // A line break: fold it with any empty lines after it.
            position = after
            var breaks = 0
            while YAMLByte.isBreak(bytes[position]) {
                consumeBreak()
                breaks += 1
                allowSimpleKey = true
                if isDocumentMarker(ASCII.minus) || isDocumentMarker(ASCII.dot) { break scan }
                while bytes[position] == ASCII.space { position += 1 }
                let spacesEnd = position
                while bytes[position] == ASCII.space || bytes[position] == ASCII.tab { position += 1 }
                let byte = bytes[position]
                if YAMLByte.isBreak(byte) { continue }
                if position >= end || byte == YAMLByte.hash { break scan }
                let column = spacesEnd - lineStart
                if flowLevel == 0 {
                    if column < minimumIndent {
                        position = spacesEnd
                        break scan
                    }
                } else if indent >= 0 && column <= indent {
                    throw failure(
                        "this line of a flow collection must be indented more than the block around it",
                        at: spacesEnd)
                }
            }
            join = breaks
        }
        guard usesBuffer else { return text(from: start, to: chunkEnd) }
        let text = String(decoding: buffer, as: UTF8.self)
        swap(&buffer, &scratch)
        return text
    }

    // MARK: - Quoted

    /// Reads a single- or double-quoted scalar whose opening quote is at `position`.
    package mutating func scanFlowScalar(double: Bool) throws(Diagnostic) -> String {
        let opening = position
        let quote = double ? ASCII.quote : ASCII.apostrophe
        position += 1
        var buffer: [UInt8] = []
        var usesBuffer = false
        while true {
            // A run ends at the quote, an escape, a line break or the end; spaces and tabs
            // are part of it, except those just before a line break.
            let runStart = position
            while true {
                let byte = bytes[position]
                if byte == quote || YAMLByte.isBreak(byte) || byte == YAMLByte.end
                    || (double && byte == ASCII.backslash)
                {
                    break
                }
                position += 1
            }
            if !usesBuffer {
                if bytes[position] == quote, !(quote == ASCII.apostrophe && bytes[position + 1] == quote) {
                    // The common case: no escapes, no folding.
                    let text = text(from: runStart, to: position)
                    position += 1
                    return text
                }
                swap(&buffer, &scratch)
                buffer.removeAll(keepingCapacity: true)
                usesBuffer = true
            }
            let byte = bytes[position]
            if YAMLByte.isBreak(byte) || position >= end {
                var runEnd = position
                while runEnd > runStart, bytes[runEnd - 1] == ASCII.space || bytes[runEnd - 1] == ASCII.tab {
                    runEnd -= 1
                }
                buffer.append(contentsOf: bytes[runStart..<runEnd])
                if position >= end {
                    throw failure("unterminated string; add the closing \(double ? "'\"'" : "\"'\"")", at: opening)
                }
                let breaks = try scanQuotedLineBreaks(opening: opening)
                if breaks == 1 {
                    buffer.append(ASCII.space)
                } else {
                    for _ in 1..<breaks { buffer.append(ASCII.lineFeed) }
                }
                continue
            }
            buffer.append(contentsOf: bytes[runStart..<position])
            if byte == quote {
                if !double, bytes[position + 1] == ASCII.apostrophe {
                    buffer.append(ASCII.apostrophe)
                    position += 2
                    continue
                }
                position += 1
                break
            }
            if byte == ASCII.backslash {
                if YAMLByte.isBreak(bytes[position + 1]) {
                    position += 1
                    let breaks = try scanQuotedLineBreaks(opening: opening)
                    for _ in 0..<breaks - 1 { buffer.append(ASCII.lineFeed) }
                } else {
                    try decodeEscape(into: &buffer)
                }
                continue
            }
        }
        let text = String(decoding: buffer, as: UTF8.self)
        swap(&buffer, &scratch)
        return text
    }

    /// Steps over the line break at `position`, empty lines after it and the next line's
    /// indentation; returns how many line breaks there were.
    private mutating func scanQuotedLineBreaks(opening: Int) throws(Diagnostic) -> Int {
        var breaks = 0
        while true {
            consumeBreak()
            breaks += 1
            if isDocumentMarker(ASCII.minus) || isDocumentMarker(ASCII.dot) {
                throw failure("a document marker inside a quoted string; add the closing quote", at: position)
            }
            while bytes[position] == ASCII.space { position += 1 }
            let spacesEnd = position
            while bytes[position] == ASCII.space || bytes[position] == ASCII.tab { position += 1 }
            if YAMLByte.isBreak(bytes[position]) { continue }
            if position >= end { return breaks }
            if flowLevel == 0 ? spacesEnd - lineStart <= indent : (indent >= 0 && spacesEnd - lineStart <= indent) {
                throw failure(
                    "this line of a quoted string must be indented more than the block around it", at: spacesEnd)
            }
            return breaks
        }
    }

    /// Decodes the escape whose backslash is at `position` into `buffer`.
    private mutating func decodeEscape(into buffer: inout [UInt8]) throws(Diagnostic) {
        let backslash = position
        let code = bytes[position + 1]
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
            throw failure(
                "invalid escape '\\\(printable(at: position + 1))' in a double-quoted string; "
                    + #"valid escapes are \0 \a \b \t \n \v \f \r \e \" \/ \\ \N \_ \L \P \xXX \uXXXX \UXXXXXXXX"#,
                at: backslash)
        }
        position += 2
        guard digits > 0 else { return }
        var value: UInt32 = 0
        for offset in 0..<digits {
            let byte = bytes[position + offset]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default:
                throw failure(
                    "invalid escape in a double-quoted string; '\\\(Character(Unicode.Scalar(code)))' "
                        + "takes \(digits) hexadecimal digits",
                    at: backslash)
            }
            value = value << 4 | UInt32(digit)
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw failure(
                "the escape '\\\(Character(Unicode.Scalar(code)))' names no Unicode character (a surrogate or "
                    + "beyond U+10FFFF); write the character itself",
                at: backslash)
        }
        position += digits
        buffer.append(contentsOf: Array(String(Character(scalar)).utf8))
    }

    // MARK: - Block

    package /// Reads a literal (`|`) or folded (`>`) block scalar whose indicator is at `position`.
    mutating func scanBlockScalar(folded: Bool) throws(Diagnostic) -> String {
        position += 1
        // Chomping: -1 strip, 0 clip, 1 keep.
        var chomping = 0
        var increment = 0
        for _ in 0..<2 {
            let byte = bytes[position]
            if (byte == ASCII.plus || byte == ASCII.minus) && chomping == 0 {
                chomping = byte == ASCII.plus ? 1 : -1
                position += 1
            } else if (0x31...0x39).contains(byte) && increment == 0 {
                increment = Int(byte - 0x30)
                position += 1
            } else if byte == 0x30 {
                throw failure("a block scalar's indentation indicator must be 1 to 9", at: position)
            }
        }
        let headerEnd = position
        while bytes[position] == ASCII.space || bytes[position] == ASCII.tab { position += 1 }
        if bytes[position] == YAMLByte.hash {
            if position == headerEnd {
                throw failure("a comment must be separated from what comes before it by a space", at: position)
            }
            while position < end, !YAMLByte.isBreak(bytes[position]) { position += 1 }
        }
        if position < end {
            guard YAMLByte.isBreak(bytes[position]) else {
                throw failure(
                    "unexpected text after a block scalar indicator; start the text on the next line", at: position)
            }
            consumeBreak()
        }

        // At the top level a block scalar may start in column 0; `---` and `...` end it there.
        let minimumIndent = indent + 1
        var contentIndent: Int
        var breaks = 0
        if increment == 0 {
            var emptyLineSpaces = 0
            var emptyLineOffset = position
            while true {
                while bytes[position] == ASCII.space { position += 1 }
                if bytes[position] == ASCII.tab && position - lineStart < minimumIndent {
                    throw blockScalarTab(at: position)
                }
                guard YAMLByte.isBreak(bytes[position]) else {
                    if position >= end, position > lineStart, isOnlyWhitespace(from: lineStart, to: position) {
                        // A last line of spaces without a line break is an empty line.
                        breaks += 1
                    }
                    break
                }
                if position - lineStart > emptyLineSpaces {
                    emptyLineSpaces = position - lineStart
                    emptyLineOffset = position
                }
                consumeBreak()
                breaks += 1
            }
            let column = position - lineStart
            contentIndent = max(minimumIndent, column)
            if position < end, column >= minimumIndent, emptyLineSpaces > column {
                throw failure(
                    "an empty line at the start of a block scalar has more spaces than its first line of text; "
                        + "remove them or add an indentation indicator",
                    at: emptyLineOffset)
            }
        } else {
            contentIndent = max(indent, 0) + increment
            breaks = try scanBlockBreaks(indent: contentIndent)
        }

        var buffer: [UInt8] = []
        swap(&buffer, &scratch)
        buffer.removeAll(keepingCapacity: true)
        var endsWithBreak = false
        while position - lineStart == contentIndent && position < end && !isDocumentMarkerLine {
            for _ in 0..<breaks { buffer.append(ASCII.lineFeed) }
            let leadingNonSpace = bytes[position] != ASCII.space && bytes[position] != ASCII.tab
            let lineContent = position
            while position < end, !YAMLByte.isBreak(bytes[position]) { position += 1 }
            buffer.append(contentsOf: bytes[lineContent..<position])
            endsWithBreak = position < end || isOnlyWhitespace(from: lineContent, to: position)
            if position < end { consumeBreak() }
            breaks = try scanBlockBreaks(indent: contentIndent)
            guard position - lineStart == contentIndent && position < end && !isDocumentMarkerLine else { break }
            if folded, endsWithBreak, leadingNonSpace, bytes[position] != ASCII.space,
                bytes[position] != ASCII.tab
            {
                if breaks == 0 { buffer.append(ASCII.space) }
            } else {
                buffer.append(ASCII.lineFeed)
            }
        }
        if chomping >= 0 && endsWithBreak { buffer.append(ASCII.lineFeed) }
        if chomping > 0 {
            for _ in 0..<breaks { buffer.append(ASCII.lineFeed) }
        }
        let text = String(decoding: buffer, as: UTF8.self)
        swap(&buffer, &scratch)
        return text
    }

    /// Whether `position` is at the start of a line that starts with `---` or `...`.
    private var isDocumentMarkerLine: Bool {
        position == lineStart && (isDocumentMarker(ASCII.minus) || isDocumentMarker(ASCII.dot))
    }

    /// Steps over empty lines inside a block scalar, up to `indent` spaces on each;
    /// returns how many line breaks there were.
    private mutating func scanBlockBreaks(indent: Int) throws(Diagnostic) -> Int {
        var breaks = 0
        while true {
            while position - lineStart < indent && bytes[position] == ASCII.space { position += 1 }
            if bytes[position] == ASCII.tab && position - lineStart < indent {
                var index = position
                while bytes[index] == ASCII.tab || bytes[index] == ASCII.space { index += 1 }
                if YAMLByte.isBreak(bytes[index]) || index >= end { throw blockScalarTab(at: position) }
            }
            guard YAMLByte.isBreak(bytes[position]) else {
                if position >= end, position > lineStart, isOnlyWhitespace(from: lineStart, to: position) {
                    // A last line of spaces without a line break is an empty line.
                    breaks += 1
                }
                return breaks
            }
            consumeBreak()
            breaks += 1
        }
    }

    private func blockScalarTab(at offset: Int) -> Diagnostic {
        failure("a tab in the indentation of a block scalar; indent with spaces", at: offset)
    }
}
