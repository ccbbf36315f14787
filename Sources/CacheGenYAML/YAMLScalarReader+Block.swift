import CacheGenReading

/// Literal (`|`) and folded (`>`) block scalars: the header, the indentation and chomping.
extension YAMLScalarReader {
    /// Reads a literal (`|`) or folded (`>`) block scalar whose indicator is at the cursor, leaving the
    /// cursor at the first line after it; `indent` is the column of the innermost block collection.
    package mutating func readBlock(
        _ cursor: inout YAMLCursor, folded: Bool, indent: Int
    ) throws(Diagnostic) -> String {
        cursor.position += 1
        // Chomping: -1 strip, 0 clip, 1 keep.
        var chomping = 0
        var increment = 0
        for _ in 0..<2 {
            let byte = cursor.bytes[cursor.position]
            if (byte == ASCII.plus || byte == ASCII.minus) && chomping == 0 {
                chomping = byte == ASCII.plus ? 1 : -1
                cursor.position += 1
            } else if (0x31...0x39).contains(byte) && increment == 0 {
                increment = Int(byte - 0x30)
                cursor.position += 1
            } else if byte == 0x30 {
                throw cursor.failure("a block scalar's indentation indicator must be 1 to 9", at: cursor.position)
            }
        }
        let headerEnd = cursor.position
        while cursor.bytes[cursor.position] == ASCII.space || cursor.bytes[cursor.position] == ASCII.tab {
            cursor.position += 1
        }
        if cursor.bytes[cursor.position] == YAMLByte.hash {
            if cursor.position == headerEnd {
                throw cursor.failure(
                    "a comment must be separated from what comes before it by a space", at: cursor.position)
            }
            while cursor.position < cursor.end, !YAMLByte.isBreak(cursor.bytes[cursor.position]) {
                cursor.position += 1
            }
        }
        if cursor.position < cursor.end {
            guard YAMLByte.isBreak(cursor.bytes[cursor.position]) else {
                throw cursor.failure(
                    "unexpected text after a block scalar indicator; start the text on the next line",
                    at: cursor.position)
            }
            cursor.consumeBreak()
        }

        // At the top level a block scalar may start in column 0; `---` and `...` end it there.
        let minimumIndent = indent + 1
        var contentIndent: Int
        var breaks = 0
        if increment == 0 {
            var emptyLineSpaces = 0
            var emptyLineOffset = cursor.position
            while true {
                while cursor.bytes[cursor.position] == ASCII.space { cursor.position += 1 }
                if cursor.bytes[cursor.position] == ASCII.tab && cursor.position - cursor.lineStart < minimumIndent {
                    throw Self.blockScalarTab(at: cursor.position, in: cursor)
                }
                guard YAMLByte.isBreak(cursor.bytes[cursor.position]) else {
                    if cursor.position >= cursor.end, cursor.position > cursor.lineStart,
                        cursor.isOnlyWhitespace(from: cursor.lineStart, to: cursor.position)
                    {
                        // A last line of spaces without a line break is an empty line.
                        breaks += 1
                    }
                    break
                }
                if cursor.position - cursor.lineStart > emptyLineSpaces {
                    emptyLineSpaces = cursor.position - cursor.lineStart
                    emptyLineOffset = cursor.position
                }
                cursor.consumeBreak()
                breaks += 1
            }
            let column = cursor.position - cursor.lineStart
            contentIndent = max(minimumIndent, column)
            if cursor.position < cursor.end, column >= minimumIndent, emptyLineSpaces > column {
                throw cursor.failure(
                    "an empty line at the start of a block scalar has more spaces than its first line of text; "
                        + "remove them or add an indentation indicator",
                    at: emptyLineOffset)
            }
        } else {
            contentIndent = max(indent, 0) + increment
            breaks = try Self.blockBreaks(&cursor, indent: contentIndent)
        }

        var buffer: [UInt8] = []
        swap(&buffer, &scratch)
        buffer.removeAll(keepingCapacity: true)
        var endsWithBreak = false
        while cursor.position - cursor.lineStart == contentIndent && cursor.position < cursor.end
            && !cursor.isAtDocumentMarkerLine
        {
            for _ in 0..<breaks { buffer.append(ASCII.lineFeed) }
            let leadingNonSpace =
                cursor.bytes[cursor.position] != ASCII.space && cursor.bytes[cursor.position] != ASCII.tab
            let lineContent = cursor.position
            while cursor.position < cursor.end, !YAMLByte.isBreak(cursor.bytes[cursor.position]) {
                cursor.position += 1
            }
            buffer.append(contentsOf: cursor.bytes[lineContent..<cursor.position])
            endsWithBreak =
                cursor.position < cursor.end || cursor.isOnlyWhitespace(from: lineContent, to: cursor.position)
            if cursor.position < cursor.end { cursor.consumeBreak() }
            breaks = try Self.blockBreaks(&cursor, indent: contentIndent)
            guard
                cursor.position - cursor.lineStart == contentIndent && cursor.position < cursor.end
                    && !cursor.isAtDocumentMarkerLine
            else { break }
            if folded, endsWithBreak, leadingNonSpace, cursor.bytes[cursor.position] != ASCII.space,
                cursor.bytes[cursor.position] != ASCII.tab
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

    /// Steps over empty lines inside a block scalar, up to `indent` spaces on each;
    /// returns how many line breaks there were.
    private static func blockBreaks(_ cursor: inout YAMLCursor, indent: Int) throws(Diagnostic) -> Int {
        var breaks = 0
        while true {
            while cursor.position - cursor.lineStart < indent && cursor.bytes[cursor.position] == ASCII.space {
                cursor.position += 1
            }
            if cursor.bytes[cursor.position] == ASCII.tab && cursor.position - cursor.lineStart < indent {
                var index = cursor.position
                while cursor.bytes[index] == ASCII.tab || cursor.bytes[index] == ASCII.space { index += 1 }
                if YAMLByte.isBreak(cursor.bytes[index]) || index >= cursor.end {
                    throw Self.blockScalarTab(at: cursor.position, in: cursor)
                }
            }
            guard YAMLByte.isBreak(cursor.bytes[cursor.position]) else {
                if cursor.position >= cursor.end, cursor.position > cursor.lineStart,
                    cursor.isOnlyWhitespace(from: cursor.lineStart, to: cursor.position)
                {
                    // A last line of spaces without a line break is an empty line.
                    breaks += 1
                }
                return breaks
            }
            cursor.consumeBreak()
            breaks += 1
        }
    }

    private static func blockScalarTab(at offset: Int, in cursor: YAMLCursor) -> Diagnostic {
        cursor.failure("a tab in the indentation of a block scalar; indent with spaces", at: offset)
    }
}
