/// The messages for a string that cannot be read: what is wrong, then what to do.
extension JSONStringReader {
    /// The error for a string with no closing quote, pointing at its opening quote.
    package static func unterminatedString(opening: SourceLocation, atLineEnd: Bool) -> Diagnostic {
        if atLineEnd {
            return .error(
                #"unterminated string; add a closing '"' before the end of the line (write line breaks in strings as \n)"#,
                at: opening)
        }
        return .error(#"unterminated string; add a closing '"'"#, at: opening)
    }

    /// The error for a raw control character in a string; a raw line break means the
    /// closing quote is missing, the usual cause.
    package static func controlCharacter(
        _ byte: UInt8, at offset: Int, opening: SourceLocation, in cursor: JSONCursor
    ) -> Diagnostic {
        if byte == ASCII.lineFeed || byte == ASCII.carriageReturn {
            return unterminatedString(opening: opening, atLineEnd: true)
        }
        let escape =
            switch byte {
            case 0x08: #"\b"#
            case ASCII.tab: #"\t"#
            case 0x0C: #"\f"#
            default: #"\u"# + MessageText.hex(UInt32(byte), digits: 4)
            }
        return cursor.failure(
            "control character U+\(MessageText.hex(UInt32(byte), digits: 4)) in string; write it as \(escape)",
            at: offset)
    }

    private static let validEscapes = #"valid escapes are \" \\ \/ \b \f \n \r \t \uXXXX"#

    /// The error for `\` followed by a character that is not an escape.
    package static func invalidEscape(at backslash: Int, in cursor: JSONCursor) -> Diagnostic {
        let next = backslash + 1
        guard next < cursor.bytes.count else {
            return cursor.failure(#"unterminated string; add a closing '"'"#, at: backslash)
        }
        guard let scalar = cursor.scalar(at: next) else { return cursor.invalidUTF8(at: next) }
        if MessageText.isPrintable(scalar) {
            return cursor.failure(#"invalid escape '\\#(scalar)' in string; "# + validEscapes, at: backslash)
        }
        return cursor.failure(
            #"invalid escape '\' followed by "# + MessageText.describe(scalar) + " in string; " + validEscapes,
            at: backslash)
    }

    /// The error for `\u` not followed by four hex digits.
    package static func invalidUnicodeEscape(at backslash: Int, in cursor: JSONCursor) -> Diagnostic {
        let bytes = cursor.bytes
        var shown = #"\u"#
        var index = backslash + 2
        while index < min(backslash + 6, bytes.count), (0x21...0x7E).contains(bytes[index]),
            bytes[index] != ASCII.quote, bytes[index] != ASCII.backslash
        {
            shown.append(Character(Unicode.Scalar(bytes[index])))
            index += 1
        }
        return cursor.failure(
            "invalid escape '\(shown)' in string; " + #"write \u followed by four hexadecimal digits, as in \u00E9"#,
            at: backslash)
    }

    /// The error for a `\uD800`–`\uDFFF` escape that is not half of a pair.
    package static func loneSurrogate(at backslash: Int, in cursor: JSONCursor) -> Diagnostic {
        let escape = String(decoding: cursor.bytes[backslash..<min(backslash + 6, cursor.bytes.count)], as: UTF8.self)
        return cursor.failure(
            "lone surrogate '\(escape)' in string; " + #"write a pair such as \uD83D\uDE00, or the character itself"#,
            at: backslash)
    }
}
