/// The messages for what the grammar did not expect: what is wrong, then what to do. Those
/// for strings, numbers and UTF-8 are with their readers (`JSONStringReader+Errors.swift`,
/// `JSONNumberReader`, `JSONCursor+UTF8.swift`), worded the same way.
extension JSONParser {
    /// What the reader wanted where a value is missing, for messages.
    package var valueExpectation: String {
        guard let top = frames.last else { return "a JSON value" }
        if top.isObject { return "a value for key \(MessageText.quoted(top.key))" }
        return top.elements.isEmpty ? "a value or ']'" : "a value"
    }

    /// The error for the byte at `offset` when `expected` should have been there.
    package func unexpected(at offset: Int, expected: String) -> Diagnostic {
        guard offset < cursor.bytes.count else {
            return cursor.failure("unexpected end of file; expected \(expected)", at: offset)
        }
        if let problem = specialProblem(at: offset) { return problem }
        let byte = cursor.bytes[offset]
        if byte < 0x80, JSONByte.isWord(byte) || Self.punctuation.contains(byte) {
            return cursor.failure("expected \(expected)", at: offset)
        }
        let found =
            cursor.scalar(at: offset).map(MessageText.describe) ?? "byte 0x\(MessageText.hex(UInt32(byte), digits: 2))"
        return cursor.failure("unexpected character \(found); expected \(expected)", at: offset)
    }

    /// Bytes that read as JSON tokens, named by the location alone in messages.
    private static let punctuation: Set<UInt8> = [
        ASCII.openBrace, ASCII.closeBrace, ASCII.openBracket, ASCII.closeBracket,
        ASCII.comma, ASCII.colon, ASCII.quote, ASCII.minus,
    ]

    /// Mistakes worth their own message wherever they appear: comments, curly quotes,
    /// and bytes that are not UTF-8.
    package func specialProblem(at offset: Int) -> Diagnostic? {
        guard offset < cursor.bytes.count else { return nil }
        let byte = cursor.bytes[offset]
        if byte == JSONByte.slash, offset + 1 < cursor.bytes.count,
            cursor.bytes[offset + 1] == JSONByte.slash || cursor.bytes[offset + 1] == ASCII.asterisk
        {
            return cursor.failure("comments are not allowed in JSON; remove the comment", at: offset)
        }
        guard byte >= 0x80 else { return nil }
        guard let scalar = cursor.scalar(at: offset) else { return cursor.invalidUTF8(at: offset) }
        if Self.curlyQuotes.contains(scalar) {
            return cursor.failure(#"curly quotes are not allowed in JSON; use straight double quotes (")"#, at: offset)
        }
        return nil
    }

    private static let curlyQuotes: Set<Unicode.Scalar> = ["\u{201C}", "\u{201D}", "\u{201E}", "\u{2018}", "\u{2019}"]

    /// The error where a value should start but `offset` holds something else.
    package func valueProblem(at offset: Int) -> Diagnostic {
        guard offset < cursor.bytes.count else { return unexpected(at: offset, expected: valueExpectation) }
        let byte = cursor.bytes[offset]
        let next = offset + 1 < cursor.bytes.count ? cursor.bytes[offset + 1] : 0
        switch byte {
        case ASCII.apostrophe:
            return singleQuotes(at: offset)
        case ASCII.plus where JSONByte.isDigit(next):
            return JSONNumberReader.invalidNumber(at: offset, "remove the '+' sign", in: cursor)
        case ASCII.dot where JSONByte.isDigit(next):
            return JSONNumberReader.invalidNumber(at: offset, "write a 0 before the decimal point", in: cursor)
        default:
            break
        }
        guard JSONByte.isWord(byte) else { return unexpected(at: offset, expected: valueExpectation) }
        let word = cursor.word(at: offset)
        if word == "NaN" || word == "Infinity" { return JSONNumberReader.nonFiniteNumber(at: offset, in: cursor) }
        let literals = ["true", "false", "null"]
        if offset + word.utf8.count == cursor.bytes.count, let literal = literals.first(where: { $0.hasPrefix(word) }) {
            return cursor.failure("unexpected end of file; expected '\(literal)'", at: offset)
        }
        let lowercased = word.lowercased()
        let shown = MessageText.excerpt(word)
        if ["nil", "none", "undefined"].contains(lowercased) || literals.contains(where: { $0.hasPrefix(lowercased) }) {
            return cursor.failure(
                "invalid literal '\(shown)'; JSON's literals are true, false and null, in lowercase", at: offset)
        }
        return cursor.failure(
            "unquoted string '\(shown)'; strings must be in double quotes, as in \"\(shown)\"", at: offset)
    }

    /// The error where an object key should start but `cursor.position` holds something else.
    package func keyProblem(afterComma: Bool) -> Diagnostic {
        let expected = afterComma ? "a key in double quotes" : "a key in double quotes or '}'"
        guard cursor.position < cursor.bytes.count else { return unexpected(at: cursor.position, expected: expected) }
        let byte = cursor.bytes[cursor.position]
        if byte == ASCII.apostrophe { return singleQuotes(at: cursor.position) }
        if JSONByte.isWord(byte) {
            // Keys such as `per-page` or `a.b` are common; quote them whole.
            var end = cursor.position
            while end < cursor.bytes.count,
                JSONByte.isWord(cursor.bytes[end]) || cursor.bytes[end] == ASCII.minus || cursor.bytes[end] == ASCII.dot
            {
                end += 1
            }
            let word = MessageText.excerpt(String(decoding: cursor.bytes[cursor.position..<end], as: UTF8.self))
            return cursor.failure(
                "unquoted key '\(word)'; object keys must be in double quotes, as in \"\(word)\"", at: cursor.position)
        }
        return unexpected(at: cursor.position, expected: expected)
    }

    /// The error after a member or element when neither `,` nor the closing bracket follows.
    package func afterChildProblem(top: Frame) -> Diagnostic {
        let (kind, close, wrong) =
            top.isObject ? ("object", "}", ASCII.closeBracket) : ("array", "]", ASCII.closeBrace)
        if cursor.position < cursor.bytes.count, cursor.bytes[cursor.position] == wrong {
            return cursor.failure(
                "mismatched '\(Character(Unicode.Scalar(wrong)))'; close the \(kind) that starts at "
                    + "\(top.start.line):\(top.start.column) with '\(close)' first",
                at: cursor.position)
        }
        return unexpected(
            at: cursor.position,
            expected: top.isObject ? "',' or '}' after object member" : "',' or ']' after array element")
    }

    /// The error for a key the object already has, pointing at the second use.
    package func duplicateKey(_ key: String, first: SourceLocation, at location: SourceLocation) -> Diagnostic {
        .error(
            "duplicate key \(MessageText.quoted(key)); it was first used at \(first.line):\(first.column)", at: location
        )
    }

    /// The error for `'text'`, which other languages accept and JSON does not.
    package func singleQuotes(at offset: Int) -> Diagnostic {
        cursor.failure("single-quoted strings are not allowed in JSON; use double quotes", at: offset)
    }
}
