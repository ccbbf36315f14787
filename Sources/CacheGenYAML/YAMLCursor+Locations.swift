import CacheGenReading

/// Locations for marks and offsets, and the characters of the input as messages show them.
extension YAMLCursor {
    /// An error at a byte offset.
    package func failure(_ message: String, at offset: Int) -> Diagnostic {
        .error(message, at: location(of: offset))
    }

    /// The location of a mark: its line, and its column counted in Unicode scalars.
    package func location(_ mark: YAMLMark) -> SourceLocation {
        var column = 1
        var index = mark.lineStart
        while index < mark.offset {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return SourceLocation(file: file, line: mark.line, column: column)
    }

    /// The location of a mark, counting the column on from the last mark on the same line
    /// so a long line is not counted again for each value on it.
    package mutating func nodeLocation(_ mark: YAMLMark) -> SourceLocation {
        SourceLocation(file: file, line: mark.line, column: nodeColumn(mark))
    }

    /// The column of a mark, counted as `nodeLocation(_:)` counts it.
    package mutating func nodeColumn(_ mark: YAMLMark) -> Int {
        var column = 1
        var index = mark.lineStart
        if mark.lineStart == columnCache.lineStart && mark.offset >= columnCache.offset {
            column = columnCache.column
            index = columnCache.offset
        }
        while index < mark.offset {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        columnCache = (mark.lineStart, mark.offset, column)
        return column
    }

    /// The location of any byte offset, counted from the start of the file; for errors only.
    package func location(of offset: Int) -> SourceLocation {
        let target = min(max(offset, 0), end)
        var line = 1
        var lineStart = 0
        var index = 0
        while index < target {
            let byte = bytes[index]
            if byte == ASCII.lineFeed || (byte == ASCII.carriageReturn && bytes[index + 1] != ASCII.lineFeed) {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        if bytes.count >= 3, lineStart == 0, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            lineStart = min(3, target)
        }
        return location(YAMLMark(offset: target, line: line, lineStart: lineStart))
    }

    /// The character at `offset` as it reads in a message.
    package func printable(at offset: Int) -> String {
        let scalar = decodeScalar(at: offset)
        if scalar.value < 0x20 || scalar.value == 0x7F {
            return "U+" + MessageText.hex(scalar.value, digits: 4)
        }
        return String(Character(scalar))
    }

    /// The character at `offset` in quotes, or as `U+0009` when it does not print.
    package func printableQuoted(at offset: Int) -> String {
        let text = printable(at: offset)
        return text.count > 1 ? text : "'\(text)'"
    }

    /// The Unicode scalar at `offset` (the input is valid UTF-8).
    private func decodeScalar(at offset: Int) -> Unicode.Scalar {
        var index = offset
        var iterator = AnyIterator<UInt8> {
            guard index < end else { return nil }
            defer { index += 1 }
            return bytes[index]
        }
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return scalar }
        return "\u{FFFD}"
    }
}
