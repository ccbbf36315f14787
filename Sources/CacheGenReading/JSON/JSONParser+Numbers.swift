extension JSONParser {
    /// Reads a number at `position` (which holds `-` or a digit) per RFC 8259:
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    package mutating func parseNumber() throws(Diagnostic) -> JSONNode.Value {
        let start = position
        var index = start
        var isNegative = false
        if bytes[index] == ASCII.minus {
            isNegative = true
            index += 1
        }
        guard index < bytes.count, JSONByte.isDigit(bytes[index]) else {
            if word(at: index) == "Infinity" { throw nonFiniteNumber(at: start) }
            throw invalidNumber(at: start, "write a digit after the minus sign")
        }
        if bytes[index] == JSONByte.zero {
            index += 1
            if index < bytes.count, JSONByte.isDigit(bytes[index]) {
                throw invalidNumber(at: start, "remove the leading zero")
            }
        } else {
            while index < bytes.count, JSONByte.isDigit(bytes[index]) { index += 1 }
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == ASCII.dot {
            isInteger = false
            index += 1
            guard index < bytes.count, JSONByte.isDigit(bytes[index]) else {
                throw invalidNumber(at: start, "write at least one digit after the decimal point")
            }
            while index < bytes.count, JSONByte.isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == JSONByte.lowerE || bytes[index] == JSONByte.upperE {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == ASCII.plus || bytes[index] == ASCII.minus { index += 1 }
            guard index < bytes.count, JSONByte.isDigit(bytes[index]) else {
                throw invalidNumber(at: start, "write at least one digit in the exponent")
            }
            while index < bytes.count, JSONByte.isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, Self.continuesNumber(bytes[index]) {
            throw invalidNumber(at: start, "JSON numbers look like 42, -0.5 or 1.5e3")
        }
        position = index
        let text = String(decoding: bytes[start..<index], as: UTF8.self)

        // Integers of up to 18 characters fit in Int64 exactly, and converting an
        // exact integer to Double rounds the same way parsing its text does.
        if isInteger, index - start <= 18 {
            var magnitude = 0
            for offset in (isNegative ? start + 1 : start)..<index {
                magnitude = magnitude * 10 + Int(bytes[offset] &- JSONByte.zero)
            }
            // Negating the Double keeps the sign of `-0`.
            return .number(isNegative ? -Double(magnitude) : Double(magnitude), text: text)
        }
        guard let value = Double(text), value.isFinite else {
            throw failure(
                "number '\(Self.excerpt(text))' is too large for a 64-bit floating-point value; use a smaller number",
                at: start)
        }
        return .number(value, text: text)
    }

    /// Bytes that, right after a number, mean the writer meant a longer number or word.
    package static func continuesNumber(_ byte: UInt8) -> Bool {
        JSONByte.isWord(byte) || byte == ASCII.dot || byte == ASCII.plus || byte == ASCII.minus
    }

    /// The run of ASCII word bytes at `index`, for quoting in messages.
    package func word(at index: Int) -> String {
        var end = index
        while end < bytes.count, JSONByte.isWord(bytes[end]) { end += 1 }
        return String(decoding: bytes[min(index, end)..<end], as: UTF8.self)
    }

    /// The number-like text at `start` as the user wrote it, for quoting in messages.
    package func numberLikeText(at start: Int) -> String {
        var end = start
        while end < bytes.count, Self.continuesNumber(bytes[end]) { end += 1 }
        return Self.excerpt(String(decoding: bytes[start..<end], as: UTF8.self))
    }
}
