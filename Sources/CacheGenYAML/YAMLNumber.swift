import CacheGenReading

/// Numbers by YAML 1.2's core schema: decimal, `0x` and `0o` integers and floats, turned
/// into the JSON node's number with a JSON-style literal, so `0x1F` reads as `31` and
/// `+.5` as `0.5`.
package enum YAMLNumber {
    /// Why a plain scalar that is a number cannot be read; the parser adds where it is.
    package struct Failure: Error {
        /// The message, as the user will read it.
        package var message: String
    }

    /// The number `text` spells, `nil` when it is not a number (so it is a string).
    /// Throws for `.inf` and `.nan`, which JSON cannot hold, and for numbers too large.
    package static func parse(_ text: String) throws(Failure) -> JSONNode.Value? {
        // Most plain scalars that start like a number are short; an early look at the
        // last byte rules out words such as `2xx` or `1st` without copying.
        guard let last = text.utf8.last, isDigit(last) || last == ASCII.dot || last == 0x66 || last == 0x46
            || last == 0x4E || last == 0x6E
        else { return nil }
        // The bytes are read in place (a small string on the stack), not copied to an array.
        var utf8 = text
        let outcome = utf8.withUTF8 { bytes in parse(bytes, text: text) }
        if let message = outcome.failure { throw Failure(message: message) }
        return outcome.value
    }

    /// `parse(_:)` over the text's bytes: the value or `nil`, or the message of a failure.
    private static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, text: String
    ) -> (value: JSONNode.Value?, failure: String?) {
        var index = 0
        var negative = false
        if bytes[0] == ASCII.plus || bytes[0] == ASCII.minus {
            negative = bytes[0] == ASCII.minus
            index = 1
        }
        let rest = bytes[index...]
        if rest.first == ASCII.dot,
            rest.elementsEqual(".inf".utf8) || rest.elementsEqual(".Inf".utf8) || rest.elementsEqual(".INF".utf8)
            || (index == 0
                && (rest.elementsEqual(".nan".utf8) || rest.elementsEqual(".NaN".utf8) || rest.elementsEqual(".NAN".utf8)))
        {
            return (nil, "\(quoted(text)) is not a number JSON can hold (infinity or NaN); quote it to use it as text")
        }
        if index == 0, bytes.count > 2, bytes[0] == 0x30, bytes[1] == 0x78 || bytes[1] == 0x6F {
            return radix(bytes, base: bytes[1] == 0x78 ? 16 : 8, text: text)
        }
        let integerStart = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        let integerDigits = bytes[integerStart..<index]
        var fraction: Slice<UnsafeBufferPointer<UInt8>>?
        if index < bytes.count, bytes[index] == ASCII.dot {
            index += 1
            let start = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            fraction = bytes[start..<index]
        }
        guard !integerDigits.isEmpty || !(fraction?.isEmpty ?? true) else { return (nil, nil) }
        var exponent: Slice<UnsafeBufferPointer<UInt8>>?
        if index < bytes.count, bytes[index] == 0x65 || bytes[index] == 0x45 {
            let start = index + 1
            index += 1
            if index < bytes.count, bytes[index] == ASCII.plus || bytes[index] == ASCII.minus { index += 1 }
            let digitsStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > digitsStart else { return (nil, nil) }
            exponent = bytes[start..<index]
        }
        guard index == bytes.count else { return (nil, nil) }

        var digits = integerDigits.drop { $0 == 0x30 }
        if digits.isEmpty { digits = integerDigits.suffix(integerDigits.isEmpty ? 0 : 1) }
        var literal: String
        if digits.count == bytes.count {
            // Written as JSON would write it (the common `200`): the text is the literal.
            literal = text
        } else {
            literal = negative ? "-" : ""
            literal += digits.isEmpty ? "0" : String(decoding: digits, as: UTF8.self)
        }
        if fraction == nil, exponent == nil {
            if digits.count <= 18 {
                var magnitude = 0
                for digit in digits { magnitude = magnitude * 10 + Int(digit - 0x30) }
                if magnitude == 0 { return (.number(0, text: "0"), nil) }
                return (.number(negative ? -Double(magnitude) : Double(magnitude), text: literal), nil)
            }
        } else {
            if let fraction { literal += "." + (fraction.isEmpty ? "0" : String(decoding: fraction, as: UTF8.self)) }
            if let exponent { literal += "e" + String(decoding: exponent, as: UTF8.self) }
        }
        guard let value = Double(literal), value.isFinite else {
            return (nil, "the number \(quoted(text)) is too large for a 64-bit floating-point value")
        }
        return (.number(value, text: literal), nil)
    }

    /// A `0x` or `0o` integer, or `nil` when the digits do not fit the base.
    private static func radix(
        _ bytes: UnsafeBufferPointer<UInt8>, base: UInt64, text: String
    ) -> (value: JSONNode.Value?, failure: String?) {
        var value: UInt64 = 0
        for byte in bytes[2...] {
            let digit: UInt64
            switch byte {
            case 0x30...0x39: digit = UInt64(byte - 0x30)
            case 0x61...0x66: digit = UInt64(byte - 0x61 + 10)
            case 0x41...0x46: digit = UInt64(byte - 0x41 + 10)
            default: return (nil, nil)
            }
            guard digit < base else { return (nil, nil) }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: base)
            guard !overflow, shifted <= UInt64(Int64.max) - digit else {
                return (nil, "the number \(quoted(text)) is too large; the largest integer is 9223372036854775807")
            }
            value = shifted + digit
        }
        return (.number(Double(value), text: String(value)), nil)
    }

    /// Whether `byte` is an ASCII digit.
    private static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }
}
