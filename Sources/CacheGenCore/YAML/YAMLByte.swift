/// The bytes the YAML scanner compares against.
enum YAMLByte {
    static let end: UInt8 = 0x00
    static let tab: UInt8 = 0x09
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let exclamation: UInt8 = 0x21
    static let quote: UInt8 = 0x22
    static let hash: UInt8 = 0x23
    static let percent: UInt8 = 0x25
    static let ampersand: UInt8 = 0x26
    static let apostrophe: UInt8 = 0x27
    static let asterisk: UInt8 = 0x2A
    static let plus: UInt8 = 0x2B
    static let comma: UInt8 = 0x2C
    static let minus: UInt8 = 0x2D
    static let dot: UInt8 = 0x2E
    static let colon: UInt8 = 0x3A
    static let less: UInt8 = 0x3C
    static let greater: UInt8 = 0x3E
    static let question: UInt8 = 0x3F
    static let at: UInt8 = 0x40
    static let openBracket: UInt8 = 0x5B
    static let backslash: UInt8 = 0x5C
    static let closeBracket: UInt8 = 0x5D
    static let backtick: UInt8 = 0x60
    static let openBrace: UInt8 = 0x7B
    static let pipe: UInt8 = 0x7C
    static let closeBrace: UInt8 = 0x7D

    /// Space, tab, a line break or the end of the input: what must follow `-`, `?` and `:`
    /// for them to be indicators.
    @inline(__always) static func isBlankOrEnd(_ byte: UInt8) -> Bool {
        byte == space || byte == tab || byte == lineFeed || byte == carriageReturn || byte == end
    }

    /// Whether `byte` may end a plain scalar's run of characters: a blank, the end, `:`, or
    /// a flow indicator. Most bytes are not, and this rules them out with one or two tests.
    @inline(__always) static func mayEndPlain(_ byte: UInt8) -> Bool {
        if byte < 0x40 {
            // 0x00, tab, LF, CR, space, ',' and ':'.
            let mask: UInt64 = 1 << 0x00 | 1 << 0x09 | 1 << 0x0A | 1 << 0x0D | 1 << 0x20 | 1 << 0x2C | 1 << 0x3A
            return mask >> UInt64(byte) & 1 != 0
        }
        let folded = byte | 0x20
        return folded == openBrace || folded == closeBrace
    }

    @inline(__always) static func isBreak(_ byte: UInt8) -> Bool {
        byte == lineFeed || byte == carriageReturn
    }

    @inline(__always) static func isFlowIndicator(_ byte: UInt8) -> Bool {
        byte == comma || byte == openBracket || byte == closeBracket || byte == openBrace || byte == closeBrace
    }
}
