/// The bytes only the JSON reader compares against (the shared ones are `ASCII`), named so
/// the grammar reads like the RFC.
package enum JSONByte {
    /// `$`.
    package static let dollar: UInt8 = 0x24
    /// `/`.
    package static let slash: UInt8 = 0x2F
    /// `0`.
    package static let zero: UInt8 = 0x30
    /// `9`.
    package static let nine: UInt8 = 0x39
    /// `E`.
    package static let upperE: UInt8 = 0x45
    /// `_`.
    package static let underscore: UInt8 = 0x5F
    /// `b`.
    package static let lowerB: UInt8 = 0x62
    /// `e`.
    package static let lowerE: UInt8 = 0x65
    /// `f`.
    package static let lowerF: UInt8 = 0x66
    /// `n`.
    package static let lowerN: UInt8 = 0x6E
    /// `r`.
    package static let lowerR: UInt8 = 0x72
    /// `t`.
    package static let lowerT: UInt8 = 0x74
    /// `u`.
    package static let lowerU: UInt8 = 0x75
    /// DEL.
    package static let delete: UInt8 = 0x7F

    /// Whether `byte` is an ASCII digit.
    package static func isDigit(_ byte: UInt8) -> Bool { byte &- zero < 10 }

    /// Whether `byte` is an ASCII letter.
    package static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- 0x61 < 26 }

    /// Letters, digits, `_` and `$`: what a bare word such as `True` or an unquoted
    /// key is made of.
    package static func isWord(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == underscore || byte == dollar
    }
}

/// The state of one parse: a hand-written, iterative recursive-descent reader over
/// UTF-8 bytes.
///
/// Containers are tracked on an explicit stack rather than the call stack, so deep
/// input can never overflow the thread's stack. Each open container collects its
/// finished children and hands the array over, uncopied, when it closes. Line and column of the
/// current position are tracked incrementally; error locations, which are rare, are
/// recomputed from the start of the file.
package struct JSONParser {
    /// An object or array that has been opened and not yet closed.
    package struct Frame {
        /// Whether this is an object (otherwise an array).
        package var isObject: Bool
        /// Where the opening `{` or `[` is.
        package var start: SourceLocation
        /// The finished members, for objects.
        package var members: [JSONMember] = []
        /// The finished elements, for arrays.
        package var elements: [JSONNode] = []
        /// The key whose value is being read, for objects.
        package var key = ""
        /// Where that key is.
        package var keyLocation: SourceLocation
        /// The keys so far, for the duplicate-key check.
        package var keys = DuplicateKeyIndex()

        /// Where `key` was first written in this object, or `nil` (then it is remembered).
        package mutating func firstUse(of key: String, at location: SourceLocation) -> SourceLocation? {
            keys.firstUse(of: key, at: location, among: members, count: members.count)
        }
    }

    /// Fills a frame's key slot while no key is pending.
    package static let placeholderLocation = SourceLocation(file: "", line: 1, column: 1)

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

    /// The open containers, innermost last.
    package var frames: [Frame] = []
    /// Reused storage for strings that contain escapes.
    package var scratch: [UInt8] = []

    package init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
        let hasByteOrderMark = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        contentStart = hasByteOrderMark ? 3 : 0
        position = contentStart
        knownColumnOffset = contentStart
    }

    // MARK: - Document

    /// Reads the file's one value, then checks nothing but whitespace follows it.
    package mutating func parseDocument() throws(Diagnostic) -> JSONNode {
        if bytes.count >= 2, (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF) {
            throw failure("the file is UTF-16 encoded; save it as UTF-8", at: 0)
        }
        skipWhitespace()
        guard position < bytes.count else {
            throw failure("the file is empty; expected a JSON value", at: contentStart)
        }
        let root = try parseValue()
        skipWhitespace()
        if position < bytes.count {
            throw specialProblem(at: position)
                ?? failure("extra content after the top-level value; remove it", at: position)
        }
        return root
    }

    /// Reads one complete value, including everything nested in it.
    ///
    /// The outer loop reads a value where one is expected; the inner loop hands each
    /// finished value to the innermost open container and closes containers that end.
    package mutating func parseValue() throws(Diagnostic) -> JSONNode {
        var node: JSONNode
        readValue: while true {
            guard position < bytes.count else { throw unexpected(at: position, expected: valueExpectation) }
            let location = currentLocation()
            let byte = bytes[position]
            switch byte {
            case ASCII.openBrace, ASCII.openBracket:
                guard frames.count < JSONReader.maximumDepth else {
                    throw failure(
                        "nesting is too deep; objects and arrays may nest at most \(JSONReader.maximumDepth) levels",
                        at: position)
                }
                let isObject = byte == ASCII.openBrace
                position += 1
                skipWhitespace()
                if position < bytes.count, bytes[position] == (isObject ? ASCII.closeBrace : ASCII.closeBracket) {
                    position += 1
                    node = JSONNode(value: isObject ? .object([]) : .array([]), location: location)
                } else {
                    frames.append(Frame(isObject: isObject, start: location, keyLocation: location))
                    if isObject { try parseKey(afterComma: false) }
                    continue readValue
                }
            case ASCII.quote:
                node = JSONNode(value: .string(try parseString(opening: location)), location: location)
            case ASCII.minus, JSONByte.zero...JSONByte.nine:
                node = JSONNode(value: try parseNumber(), location: location)
            default:
                node = JSONNode(value: try parseWord(), location: location)
            }

            while let top = frames.indices.last {
                let isObject = frames[top].isObject
                if isObject {
                    // Swapping the pending key out avoids retaining it only to release it later.
                    var key = ""
                    var keyLocation = Self.placeholderLocation
                    swap(&key, &frames[top].key)
                    swap(&keyLocation, &frames[top].keyLocation)
                    frames[top].members.append(JSONMember(key: key, keyLocation: keyLocation, value: node))
                } else {
                    frames[top].elements.append(node)
                }
                skipWhitespace()
                guard position < bytes.count else {
                    let (close, kind) = isObject ? ("}", "object") : ("]", "array")
                    throw failure(
                        "unexpected end of file; expected '\(close)' to close the \(kind) that starts at "
                            + "\(frames[top].start.line):\(frames[top].start.column)",
                        at: position)
                }
                let byte = bytes[position]
                if byte == ASCII.comma {
                    let comma = position
                    position += 1
                    skipWhitespace()
                    let close = isObject ? ASCII.closeBrace : ASCII.closeBracket
                    if position < bytes.count, bytes[position] == close {
                        throw failure(
                            "trailing comma before '\(Character(Unicode.Scalar(close)))'; remove it", at: comma)
                    }
                    if isObject { try parseKey(afterComma: true) }
                    continue readValue
                }
                if byte == (isObject ? ASCII.closeBrace : ASCII.closeBracket) {
                    position += 1
                    let frame = frames.removeLast()
                    node = JSONNode(
                        value: isObject ? .object(frame.members) : .array(frame.elements), location: frame.start)
                    continue
                }
                throw afterChildProblem(top: frames[top])
            }
            return node
        }
    }

    /// Reads `"key":` inside an object, leaving the key in the innermost frame.
    package mutating func parseKey(afterComma: Bool) throws(Diagnostic) {
        guard position < bytes.count, bytes[position] == ASCII.quote else {
            throw keyProblem(afterComma: afterComma)
        }
        let location = currentLocation()
        let key = try parseString(opening: location)
        try checkUnique(key, at: location)
        skipWhitespace()
        guard position < bytes.count, bytes[position] == ASCII.colon else {
            throw unexpected(at: position, expected: "':' after key \(Self.quoted(key))")
        }
        position += 1
        skipWhitespace()
        let top = frames.count - 1
        frames[top].key = key
        frames[top].keyLocation = location
    }

    /// Throws when the innermost object already has `key`.
    package mutating func checkUnique(_ key: String, at location: SourceLocation) throws(Diagnostic) {
        let top = frames.count - 1
        // Small objects are only read, so the frame is not accessed for changing.
        let first =
            frames[top].keys.scans(count: frames[top].members.count)
            ? DuplicateKeyIndex.scan(for: key, in: frames[top].members)
            : frames[top].firstUse(of: key, at: location)
        if let first { throw duplicateKey(key, first: first, at: location) }
    }

    /// Reads `true`, `false` or `null`, or explains what the word at `position` is.
    package mutating func parseWord() throws(Diagnostic) -> JSONNode.Value {
        if matchesLiteral("true") {
            position += 4
            return .bool(true)
        }
        if matchesLiteral("false") {
            position += 5
            return .bool(false)
        }
        if matchesLiteral("null") {
            position += 4
            return .null
        }
        throw valueProblem(at: position)
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

    // MARK: - Whitespace and locations

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
}
