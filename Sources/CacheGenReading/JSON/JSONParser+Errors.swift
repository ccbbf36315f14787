/// Every syntax message the reader can produce lives here, so their wording stays
/// consistent: what is wrong, then what to do.
extension JSONParser {
    /// An error at a byte offset.
    package func failure(_ message: String, at offset: Int) -> Diagnostic {
        .error(message, at: location(of: offset))
    }

    /// What the reader wanted where a value is missing, for messages.
    package var valueExpectation: String {
        guard let top = frames.last else { return "a JSON value" }
        if top.isObject { return "a value for key \(Self.quoted(top.key))" }
        return top.elements.isEmpty ? "a value or ']'" : "a value"
    }

    /// The error for the byte at `offset` when `expected` should have been there.
    package func unexpected(at offset: Int, expected: String) -> Diagnostic {
        guard offset < bytes.count else {
            return failure("unexpected end of file; expected \(expected)", at: offset)
        }
        if let problem = specialProblem(at: offset) { return problem }
        let byte = bytes[offset]
        if byte < 0x80, JSONByte.isWord(byte) || Self.punctuation.contains(byte) {
            return failure("expected \(expected)", at: offset)
        }
        let found = scalar(at: offset).map(Self.describe) ?? "byte 0x\(Self.hex(UInt32(byte), digits: 2))"
        return failure("unexpected character \(found); expected \(expected)", at: offset)
    }

    /// Bytes that read as JSON tokens, named by the location alone in messages.
    private static let punctuation: Set<UInt8> = [
        ASCII.openBrace, ASCII.closeBrace, ASCII.openBracket, ASCII.closeBracket,
        ASCII.comma, ASCII.colon, ASCII.quote, ASCII.minus,
    ]

    /// Mistakes worth their own message wherever they appear: comments, curly quotes,
    /// and bytes that are not UTF-8.
    package func specialProblem(at offset: Int) -> Diagnostic? {
        guard offset < bytes.count else { return nil }
        let byte = bytes[offset]
        if byte == JSONByte.slash, offset + 1 < bytes.count,
            bytes[offset + 1] == JSONByte.slash || bytes[offset + 1] == ASCII.asterisk
        {
            return failure("comments are not allowed in JSON; remove the comment", at: offset)
        }
        guard byte >= 0x80 else { return nil }
        guard let scalar = scalar(at: offset) else { return invalidUTF8(at: offset) }
        if Self.curlyQuotes.contains(scalar) {
            return failure(#"curly quotes are not allowed in JSON; use straight double quotes (")"#, at: offset)
        }
        return nil
    }

    private static let curlyQuotes: Set<Unicode.Scalar> = ["\u{201C}", "\u{201D}", "\u{201E}", "\u{2018}", "\u{2019}"]

    /// The error where a value should start but `offset` holds something else.
    package func valueProblem(at offset: Int) -> Diagnostic {
        guard offset < bytes.count else { return unexpected(at: offset, expected: valueExpectation) }
        let byte = bytes[offset]
        let next = offset + 1 < bytes.count ? bytes[offset + 1] : 0
        switch byte {
        case ASCII.apostrophe:
            return singleQuotes(at: offset)
        case ASCII.plus where JSONByte.isDigit(next):
            return invalidNumber(at: offset, "remove the '+' sign")
        case ASCII.dot where JSONByte.isDigit(next):
            return invalidNumber(at: offset, "write a 0 before the decimal point")
        default:
            break
        }
        guard JSONByte.isWord(byte) else { return unexpected(at: offset, expected: valueExpectation) }
        let word = word(at: offset)
        if word == "NaN" || word == "Infinity" { return nonFiniteNumber(at: offset) }
        let literals = ["true", "false", "null"]
        if offset + word.utf8.count == bytes.count, let literal = literals.first(where: { $0.hasPrefix(word) }) {
            return failure("unexpected end of file; expected '\(literal)'", at: offset)
        }
        let lowercased = word.lowercased()
        if ["nil", "none", "undefined"].contains(lowercased) || literals.contains(where: { $0.hasPrefix(lowercased) }) {
            return failure(
                "invalid literal '\(Self.excerpt(word))'; JSON's literals are true, false and null, in lowercase",
                at: offset)
        }
        return failure(
            "unquoted string '\(Self.excerpt(word))'; strings must be in double quotes, as in \"\(Self.excerpt(word))\"",
            at: offset)
    }

    /// The error where an object key should start but `position` holds something else.
    package func keyProblem(afterComma: Bool) -> Diagnostic {
        let expected = afterComma ? "a key in double quotes" : "a key in double quotes or '}'"
        guard position < bytes.count else { return unexpected(at: position, expected: expected) }
        let byte = bytes[position]
        if byte == ASCII.apostrophe { return singleQuotes(at: position) }
        if JSONByte.isWord(byte) {
            // Keys such as `per-page` or `a.b` are common; quote them whole.
            var end = position
            while end < bytes.count,
                JSONByte.isWord(bytes[end]) || bytes[end] == ASCII.minus || bytes[end] == ASCII.dot
            {
                end += 1
            }
            let word = Self.excerpt(String(decoding: bytes[position..<end], as: UTF8.self))
            return failure(
                "unquoted key '\(word)'; object keys must be in double quotes, as in \"\(word)\"", at: position)
        }
        return unexpected(at: position, expected: expected)
    }

    /// The error after a member or element when neither `,` nor the closing bracket follows.
    package func afterChildProblem(top: Frame) -> Diagnostic {
        let (kind, close, wrong) =
            top.isObject ? ("object", "}", ASCII.closeBracket) : ("array", "]", ASCII.closeBrace)
        if position < bytes.count, bytes[position] == wrong {
            return failure(
                "mismatched '\(Character(Unicode.Scalar(wrong)))'; close the \(kind) that starts at "
                    + "\(top.start.line):\(top.start.column) with '\(close)' first",
                at: position)
        }
        return unexpected(
            at: position, expected: top.isObject ? "',' or '}' after object member" : "',' or ']' after array element")
    }

    /// The error for a key the object already has, pointing at the second use.
    package func duplicateKey(_ key: String, first: SourceLocation, at location: SourceLocation) -> Diagnostic {
        .error("duplicate key \(Self.quoted(key)); it was first used at \(first.line):\(first.column)", at: location)
    }

    /// The error for `'text'`, which other languages accept and JSON does not.
    package func singleQuotes(at offset: Int) -> Diagnostic {
        failure("single-quoted strings are not allowed in JSON; use double quotes", at: offset)
    }

    // MARK: Strings

    /// The error for a string with no closing quote, pointing at its opening quote.
    package func unterminatedString(opening: SourceLocation, atLineEnd: Bool) -> Diagnostic {
        if atLineEnd {
            return .error(
                #"unterminated string; add a closing '"' before the end of the line (write line breaks in strings as \n)"#,
                at: opening)
        }
        return .error(#"unterminated string; add a closing '"'"#, at: opening)
    }

    /// The error for a raw control character in a string; a raw line break means the
    /// closing quote is missing, the usual cause.
    package func controlCharacter(_ byte: UInt8, at offset: Int, opening: SourceLocation) -> Diagnostic {
        if byte == ASCII.lineFeed || byte == ASCII.carriageReturn {
            return unterminatedString(opening: opening, atLineEnd: true)
        }
        let escape =
            switch byte {
            case 0x08: #"\b"#
            case ASCII.tab: #"\t"#
            case 0x0C: #"\f"#
            default: #"\u"# + Self.hex(UInt32(byte), digits: 4)
            }
        return failure(
            "control character U+\(Self.hex(UInt32(byte), digits: 4)) in string; write it as \(escape)", at: offset)
    }

    private static let validEscapes = #"valid escapes are \" \\ \/ \b \f \n \r \t \uXXXX"#

    /// The error for `\` followed by a character that is not an escape.
    package func invalidEscape(at backslash: Int) -> Diagnostic {
        let next = backslash + 1
        guard next < bytes.count else { return failure(#"unterminated string; add a closing '"'"#, at: backslash) }
        guard let scalar = scalar(at: next) else { return invalidUTF8(at: next) }
        if Self.isPrintable(scalar) {
            return failure(#"invalid escape '\\#(scalar)' in string; "# + Self.validEscapes, at: backslash)
        }
        return failure(
            #"invalid escape '\' followed by "# + Self.describe(scalar) + " in string; " + Self.validEscapes,
            at: backslash)
    }

    /// The error for `\u` not followed by four hex digits.
    package func invalidUnicodeEscape(at backslash: Int) -> Diagnostic {
        var shown = #"\u"#
        var index = backslash + 2
        while index < min(backslash + 6, bytes.count), (0x21...0x7E).contains(bytes[index]),
            bytes[index] != ASCII.quote, bytes[index] != ASCII.backslash
        {
            shown.append(Character(Unicode.Scalar(bytes[index])))
            index += 1
        }
        return failure(
            "invalid escape '\(shown)' in string; " + #"write \u followed by four hexadecimal digits, as in \u00E9"#,
            at: backslash)
    }

    /// The error for a `\uD800`–`\uDFFF` escape that is not half of a pair.
    package func loneSurrogate(at backslash: Int) -> Diagnostic {
        let escape = String(decoding: bytes[backslash..<min(backslash + 6, bytes.count)], as: UTF8.self)
        return failure(
            "lone surrogate '\(escape)' in string; " + #"write a pair such as \uD83D\uDE00, or the character itself"#,
            at: backslash)
    }

    /// The error for a byte that does not continue valid UTF-8, pointing at that byte.
    package func invalidUTF8(at offset: Int) -> Diagnostic {
        let byte = offset < bytes.count ? bytes[offset] : 0
        return failure("invalid UTF-8 byte 0x\(Self.hex(UInt32(byte), digits: 2)); save the file as UTF-8", at: offset)
    }

    // MARK: Numbers

    /// The error for a malformed number, quoting it as written.
    package func invalidNumber(at start: Int, _ advice: String) -> Diagnostic {
        failure("invalid number '\(numberLikeText(at: start))'; \(advice)", at: start)
    }

    /// The error for `NaN`, `Infinity` and `-Infinity`.
    package func nonFiniteNumber(at start: Int) -> Diagnostic {
        invalidNumber(at: start, "JSON has no NaN or Infinity, use null or a string instead")
    }

    // MARK: Text helpers

    /// `text` in double quotes with JSON escapes, as keys are quoted in messages.
    package static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in excerpt(text).unicodeScalars {
            switch scalar {
            case "\"": result += #"\""#
            case "\\": result += #"\\"#
            case "\n": result += #"\n"#
            case "\r": result += #"\r"#
            case "\t": result += #"\t"#
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += #"\u"# + hex(scalar.value, digits: 4)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// `text`, cut to 40 characters so one huge token cannot swamp a message.
    package static func excerpt(_ text: String) -> String {
        text.count <= 40 ? text : text.prefix(40) + "…"
    }

    /// A character for a message: `'é'` when it prints, `U+00A0` when it does not.
    package static func describe(_ scalar: Unicode.Scalar) -> String {
        isPrintable(scalar) ? "'\(scalar)'" : "U+\(hex(scalar.value, digits: 4))"
    }

    /// Whether `scalar` shows as itself in a message, rather than as `U+XXXX`.
    package static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator,
            .spaceSeparator, .nonspacingMark, .enclosingMark:
            false
        default:
            true
        }
    }

    /// Uppercase hexadecimal, zero-padded to `digits`.
    package static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
