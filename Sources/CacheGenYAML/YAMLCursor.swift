import CacheGenReading

/// Where `YAMLScanner` is in the bytes: the offset of the next byte, its line and where that
/// line starts, with the tests the grammar makes of the bytes there (line breaks, document
/// markers, runs of blanks), and the location of any offset for messages
/// (`YAMLCursor+Locations.swift`).
package struct YAMLCursor {
    /// The input, followed by `padding` zero bytes so look-ahead needs no bounds checks
    /// (the input itself holds no zero byte: `YAMLReader` rejects control characters).
    package let bytes: [UInt8]
    /// The length of the input.
    package let end: Int
    /// The path to put in locations.
    package let file: String

    /// The next byte to read.
    package var position: Int
    /// The line of `position`, from 1.
    package var line = 1
    /// Where the line of `position` starts.
    package var lineStart: Int
    /// The last located mark's line start, offset and column, for `nodeLocation(_:)`.
    package var columnCache = (lineStart: -1, offset: 0, column: 1)

    /// The number of zero bytes `bytes` must end with.
    package static let padding = 4

    /// Makes a cursor at `start` in `bytes`, which end with `padding` zero bytes that are not
    /// part of the input.
    /// - Parameter line: the number of the input's first line: 1, or for a part of a file
    ///   (`YAMLReader+Parts.swift`) the line of the file it starts at.
    package init(paddedBytes bytes: [UInt8], start: Int, file: String, line: Int = 1) {
        self.bytes = bytes
        end = bytes.count - Self.padding
        self.file = file
        self.line = line
        position = start
        lineStart = start
    }

    /// The current position as a mark.
    package var mark: YAMLMark { YAMLMark(offset: position, line: line, lineStart: lineStart) }

    /// Steps over the line break at `position` (LF, CRLF or CR) and starts a new line.
    @inline(__always) package mutating func consumeBreak() {
        if bytes[position] == ASCII.carriageReturn, bytes[position + 1] == ASCII.lineFeed {
            position += 2
        } else {
            position += 1
        }
        line += 1
        lineStart = position
    }

    /// Steps over spaces (not tabs, which the grammar treats apart).
    @inline(__always) package mutating func skipSpaces() {
        while bytes[position] == ASCII.space { position += 1 }
    }

    /// Whether `---` or `...` (three of `byte`) starts at `position` and is followed by a blank.
    package func isDocumentMarker(_ byte: UInt8) -> Bool {
        isDocumentMarker(byte, at: position)
    }

    /// Whether `---` or `...` (three of `byte`) starts at `offset` and is followed by a blank.
    package func isDocumentMarker(_ byte: UInt8, at offset: Int) -> Bool {
        bytes[offset] == byte && bytes[offset + 1] == byte && bytes[offset + 2] == byte
            && YAMLByte.isBlankOrEnd(bytes[offset + 3])
    }

    /// Whether `position` is at the start of a line that starts with `---` or `...`.
    package var isAtDocumentMarkerLine: Bool {
        position == lineStart && (isDocumentMarker(ASCII.minus) || isDocumentMarker(ASCII.dot))
    }

    /// Whether `bytes[from..<to]` holds only spaces and tabs.
    package func isOnlyWhitespace(from: Int, to: Int, allowing other: UInt8 = ASCII.space, tabs: Bool = true) -> Bool {
        var index = from
        while index < to {
            let byte = bytes[index]
            if byte != ASCII.space && byte != other && !(tabs && byte == ASCII.tab) { return false }
            index += 1
        }
        return true
    }

    /// The input's bytes `from..<to` as a string, read in place (a slice of the array
    /// would retain and release it for each scalar).
    @inline(__always) package func text(from start: Int, to end: Int) -> String {
        bytes.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self)
        }
    }
}
