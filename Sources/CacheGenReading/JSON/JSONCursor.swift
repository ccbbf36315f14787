/// Where `JSONParser` is in the file: the bytes, the offset of the next one, and the line and
/// column of that offset, with what the grammar asks of the bytes there (whitespace, a
/// literal, a word, a UTF-8 sequence) and the location of any offset for messages.
///
/// Line and column of the current position are tracked incrementally; error locations, which
/// are rare, are recomputed from the start of the file.
package struct JSONCursor {
    /// The whole file.
    package let bytes: [UInt8]
    /// The path to put in locations.
    package let file: String
    /// Where the content starts, after any byte order mark.
    package let contentStart: Int
    /// The next byte to read.
    package var position: Int
    /// The line of `position`, from 1.
    package var line = 1
    /// A byte offset on the current line whose column is `knownColumn`.
    package var knownColumnOffset: Int
    /// The column of `knownColumnOffset`, from 1.
    package var knownColumn = 1

    /// A cursor at the start of `bytes`' content, after any byte order mark.
    package init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
        let hasByteOrderMark = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        contentStart = hasByteOrderMark ? 3 : 0
        position = contentStart
        knownColumnOffset = contentStart
    }

    // MARK: - Whitespace and words

    /// Skips spaces, tabs, carriage returns and line feeds, counting lines.
    package mutating func skipWhitespace() {
        while position < bytes.count {
            let byte = bytes[position]
            if byte == ASCII.space || byte == ASCII.tab || byte == ASCII.carriageReturn {
                position += 1
            } else if byte == ASCII.lineFeed {
                position += 1
                line += 1
                knownColumnOffset = position
                knownColumn = 1
            } else {
                return
            }
        }
    }

    /// Whether `literal` is at `position` and is not the start of a longer word.
    package func matchesLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        let matches = literal.withUTF8Buffer { expected in
            for offset in 0..<count where bytes[position + offset] != expected[offset] { return false }
            return true
        }
        guard matches else { return false }
        return position + count == bytes.count || !JSONByte.isWord(bytes[position + count])
    }

    /// The run of ASCII word bytes at `index`, for quoting in messages.
    package func word(at index: Int) -> String {
        var end = index
        while end < bytes.count, JSONByte.isWord(bytes[end]) { end += 1 }
        return String(decoding: bytes[min(index, end)..<end], as: UTF8.self)
    }

    // MARK: - Locations

    /// The location of `position`, counted on from the last location on this line so
    /// long lines (minified files) stay linear.
    package mutating func currentLocation() -> SourceLocation {
        var column = knownColumn
        var offset = knownColumnOffset
        while offset < position {
            if bytes[offset] & 0xC0 != 0x80 { column += 1 }
            offset += 1
        }
        knownColumn = column
        knownColumnOffset = position
        return SourceLocation(file: file, line: line, column: column)
    }

    /// The location of any byte offset, counted from the start of the file; used for
    /// errors only.
    package func location(of offset: Int) -> SourceLocation {
        let end = min(max(offset, 0), bytes.count)
        let start = min(contentStart, end)
        var line = 1
        var lineStart = start
        var index = start
        while index < end {
            if bytes[index] == ASCII.lineFeed {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        var column = 1
        index = lineStart
        while index < end {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return SourceLocation(file: file, line: line, column: column)
    }

    /// An error at a byte offset.
    package func failure(_ message: String, at offset: Int) -> Diagnostic {
        .error(message, at: location(of: offset))
    }
}
