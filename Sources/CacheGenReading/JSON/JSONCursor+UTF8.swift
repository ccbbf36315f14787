/// The UTF-8 sequence at an offset: its length when well-formed, its scalar, and the error
/// for a byte that does not continue it.
extension JSONCursor {
    /// The length of the UTF-8 sequence at `index`, or an error at its first byte
    /// when it is not well-formed (RFC 3629: no overlong forms, surrogates, or values
    /// past U+10FFFF).
    package func utf8Length(at index: Int) throws(Diagnostic) -> Int {
        let length = validUTF8Length(at: index)
        guard length > 0 else { throw invalidUTF8(at: index) }
        return length
    }

    /// The length of the well-formed UTF-8 sequence at `index`, or 0.
    package func validUTF8Length(at index: Int) -> Int {
        guard index < bytes.count else { return 0 }
        func continuation(_ offset: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            index + offset < bytes.count && range.contains(bytes[index + offset])
        }
        switch bytes[index] {
        case 0x00...0x7F:
            return 1
        case 0xC2...0xDF:
            return continuation(1) ? 2 : 0
        case 0xE0:
            return continuation(1, 0xA0...0xBF) && continuation(2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF:
            return continuation(1) && continuation(2) ? 3 : 0
        case 0xED:
            return continuation(1, 0x80...0x9F) && continuation(2) ? 3 : 0
        case 0xF0:
            return continuation(1, 0x90...0xBF) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF1...0xF3:
            return continuation(1) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF4:
            return continuation(1, 0x80...0x8F) && continuation(2) && continuation(3) ? 4 : 0
        default:
            return 0
        }
    }

    /// The scalar whose UTF-8 sequence starts at `index`, if it is well-formed.
    package func scalar(at index: Int) -> Unicode.Scalar? {
        let length = validUTF8Length(at: index)
        guard length > 0 else { return nil }
        var decoder = UTF8()
        var iterator = bytes[index..<(index + length)].makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return nil }
        return scalar
    }

    /// The error for a byte that does not continue valid UTF-8, pointing at that byte.
    package func invalidUTF8(at offset: Int) -> Diagnostic {
        let byte = offset < bytes.count ? bytes[offset] : 0
        return failure(
            "invalid UTF-8 byte 0x\(MessageText.hex(UInt32(byte), digits: 2)); save the file as UTF-8", at: offset)
    }
}
