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
/// finished children and hands the array over, uncopied, when it closes. The parser keeps the
/// grammar and the containers; where it is in the bytes is `JSONCursor`'s, and strings and
/// numbers are read by `JSONStringReader` and `JSONNumberReader`.
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

    /// Where reading is in the file.
    package var cursor: JSONCursor
    /// Reads strings, keys and values alike.
    package var strings = JSONStringReader()
    /// The open containers, innermost last.
    package var frames: [Frame] = []

    /// A parser at the start of `bytes`, a whole file.
    package init(bytes: [UInt8], file: String) {
        cursor = JSONCursor(bytes: bytes, file: file)
    }

    // MARK: - Document

    /// Reads the file's one value, then checks nothing but whitespace follows it.
    package mutating func parseDocument() throws(Diagnostic) -> JSONNode {
        if cursor.bytes.count >= 2,
            (cursor.bytes[0] == 0xFF && cursor.bytes[1] == 0xFE) || (cursor.bytes[0] == 0xFE && cursor.bytes[1] == 0xFF)
        {
            throw cursor.failure("the file is UTF-16 encoded; save it as UTF-8", at: 0)
        }
        cursor.skipWhitespace()
        guard cursor.position < cursor.bytes.count else {
            throw cursor.failure("the file is empty; expected a JSON value", at: cursor.contentStart)
        }
        let root = try parseValue()
        cursor.skipWhitespace()
        if cursor.position < cursor.bytes.count {
            throw specialProblem(at: cursor.position)
                ?? cursor.failure("extra content after the top-level value; remove it", at: cursor.position)
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
            guard cursor.position < cursor.bytes.count else {
                throw unexpected(at: cursor.position, expected: valueExpectation)
            }
            let location = cursor.currentLocation()
            let byte = cursor.bytes[cursor.position]
            switch byte {
            case ASCII.openBrace, ASCII.openBracket:
                guard frames.count < JSONReader.maximumDepth else {
                    throw cursor.failure(
                        "nesting is too deep; objects and arrays may nest at most \(JSONReader.maximumDepth) levels",
                        at: cursor.position)
                }
                let isObject = byte == ASCII.openBrace
                cursor.position += 1
                cursor.skipWhitespace()
                if cursor.position < cursor.bytes.count,
                    cursor.bytes[cursor.position] == (isObject ? ASCII.closeBrace : ASCII.closeBracket)
                {
                    cursor.position += 1
                    node = JSONNode(value: isObject ? .object([]) : .array([]), location: location)
                } else {
                    frames.append(Frame(isObject: isObject, start: location, keyLocation: location))
                    if isObject { try parseKey(afterComma: false) }
                    continue readValue
                }
            case ASCII.quote:
                node = JSONNode(value: .string(try strings.read(&cursor, opening: location)), location: location)
            case ASCII.minus, JSONByte.zero...JSONByte.nine:
                node = JSONNode(value: try JSONNumberReader.read(&cursor), location: location)
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
                cursor.skipWhitespace()
                guard cursor.position < cursor.bytes.count else {
                    let (close, kind) = isObject ? ("}", "object") : ("]", "array")
                    throw cursor.failure(
                        "unexpected end of file; expected '\(close)' to close the \(kind) that starts at "
                            + "\(frames[top].start.line):\(frames[top].start.column)",
                        at: cursor.position)
                }
                let byte = cursor.bytes[cursor.position]
                if byte == ASCII.comma {
                    let comma = cursor.position
                    cursor.position += 1
                    cursor.skipWhitespace()
                    let close = isObject ? ASCII.closeBrace : ASCII.closeBracket
                    if cursor.position < cursor.bytes.count, cursor.bytes[cursor.position] == close {
                        throw cursor.failure(
                            "trailing comma before '\(Character(Unicode.Scalar(close)))'; remove it", at: comma)
                    }
                    if isObject { try parseKey(afterComma: true) }
                    continue readValue
                }
                if byte == (isObject ? ASCII.closeBrace : ASCII.closeBracket) {
                    cursor.position += 1
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
        guard cursor.position < cursor.bytes.count, cursor.bytes[cursor.position] == ASCII.quote else {
            throw keyProblem(afterComma: afterComma)
        }
        let location = cursor.currentLocation()
        let key = try strings.read(&cursor, opening: location)
        try checkUnique(key, at: location)
        cursor.skipWhitespace()
        guard cursor.position < cursor.bytes.count, cursor.bytes[cursor.position] == ASCII.colon else {
            throw unexpected(at: cursor.position, expected: "':' after key \(MessageText.quoted(key))")
        }
        cursor.position += 1
        cursor.skipWhitespace()
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

    /// Reads `true`, `false` or `null`, or explains what the word at `cursor.position` is.
    package mutating func parseWord() throws(Diagnostic) -> JSONNode.Value {
        if cursor.matchesLiteral("true") {
            cursor.position += 4
            return .bool(true)
        }
        if cursor.matchesLiteral("false") {
            cursor.position += 5
            return .bool(false)
        }
        if cursor.matchesLiteral("null") {
            cursor.position += 4
            return .null
        }
        throw valueProblem(at: cursor.position)
    }
}
