/// Reads a JSON number at the cursor, or says what is wrong with the number-like text
/// there. It holds nothing: a number needs no storage beyond its own text.
package enum JSONNumberReader {
    /// Reads a number at the cursor's position (which holds `-` or a digit) per RFC 8259:
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    package static func read(_ cursor: inout JSONCursor) throws(Diagnostic) -> JSONNode.Value {
        let start = cursor.position
        var index = start
        var isNegative = false
        if cursor.bytes[index] == ASCII.minus {
            isNegative = true
            index += 1
        }
        guard index < cursor.bytes.count, JSONByte.isDigit(cursor.bytes[index]) else {
            if cursor.word(at: index) == "Infinity" { throw nonFiniteNumber(at: start, in: cursor) }
            throw invalidNumber(at: start, "write a digit after the minus sign", in: cursor)
        }
        if cursor.bytes[index] == JSONByte.zero {
            index += 1
            if index < cursor.bytes.count, JSONByte.isDigit(cursor.bytes[index]) {
                throw invalidNumber(at: start, "remove the leading zero", in: cursor)
            }
        } else {
            while index < cursor.bytes.count, JSONByte.isDigit(cursor.bytes[index]) { index += 1 }
        }
        var isInteger = true
        if index < cursor.bytes.count, cursor.bytes[index] == ASCII.dot {
            isInteger = false
            index += 1
            guard index < cursor.bytes.count, JSONByte.isDigit(cursor.bytes[index]) else {
                throw invalidNumber(at: start, "write at least one digit after the decimal point", in: cursor)
            }
            while index < cursor.bytes.count, JSONByte.isDigit(cursor.bytes[index]) { index += 1 }
        }
        if index < cursor.bytes.count, cursor.bytes[index] == JSONByte.lowerE || cursor.bytes[index] == JSONByte.upperE
        {
            isInteger = false
            index += 1
            if index < cursor.bytes.count, cursor.bytes[index] == ASCII.plus || cursor.bytes[index] == ASCII.minus {
                index += 1
            }
            guard index < cursor.bytes.count, JSONByte.isDigit(cursor.bytes[index]) else {
                throw invalidNumber(at: start, "write at least one digit in the exponent", in: cursor)
            }
            while index < cursor.bytes.count, JSONByte.isDigit(cursor.bytes[index]) { index += 1 }
        }
        if index < cursor.bytes.count, continuesNumber(cursor.bytes[index]) {
            throw invalidNumber(at: start, "JSON numbers look like 42, -0.5 or 1.5e3", in: cursor)
        }
        cursor.position = index
        let text = String(decoding: cursor.bytes[start..<index], as: UTF8.self)

        // Integers of up to 18 characters fit in Int64 exactly, and converting an
        // exact integer to Double rounds the same way parsing its text does.
        if isInteger, index - start <= 18 {
            var magnitude = 0
            for offset in (isNegative ? start + 1 : start)..<index {
                magnitude = magnitude * 10 + Int(cursor.bytes[offset] &- JSONByte.zero)
            }
            // Negating the Double keeps the sign of `-0`.
            return .number(isNegative ? -Double(magnitude) : Double(magnitude), text: text)
        }
        guard let value = Double(text), value.isFinite else {
            throw cursor.failure(
                "number '\(MessageText.excerpt(text))' is too large for a 64-bit floating-point value; "
                    + "use a smaller number",
                at: start)
        }
        return .number(value, text: text)
    }

    /// Bytes that, right after a number, mean the writer meant a longer number or word.
    package static func continuesNumber(_ byte: UInt8) -> Bool {
        JSONByte.isWord(byte) || byte == ASCII.dot || byte == ASCII.plus || byte == ASCII.minus
    }

    // MARK: - Errors

    /// The error for a malformed number, quoting it as written.
    package static func invalidNumber(at start: Int, _ advice: String, in cursor: JSONCursor) -> Diagnostic {
        let bytes = cursor.bytes
        var end = start
        while end < bytes.count, continuesNumber(bytes[end]) { end += 1 }
        let written = MessageText.excerpt(String(decoding: bytes[start..<end], as: UTF8.self))
        return cursor.failure("invalid number '\(written)'; \(advice)", at: start)
    }

    /// The error for `NaN`, `Infinity` and `-Infinity`.
    package static func nonFiniteNumber(at start: Int, in cursor: JSONCursor) -> Diagnostic {
        invalidNumber(at: start, "JSON has no NaN or Infinity, use null or a string instead", in: cursor)
    }
}
