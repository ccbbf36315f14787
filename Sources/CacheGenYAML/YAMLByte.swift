import CacheGenReading

/// The bytes only the YAML scanner compares against (the shared ones are `ASCII`).
package enum YAMLByte {
    /// The zero byte that pads the input: its end.
    package static let end: UInt8 = 0x00
    /// `!`, which starts a tag.
    package static let exclamation: UInt8 = 0x21
    /// `#`, which starts a comment.
    package static let hash: UInt8 = 0x23
    /// `%`, which starts a directive.
    package static let percent: UInt8 = 0x25
    /// `&`, which starts an anchor.
    package static let ampersand: UInt8 = 0x26
    /// `<`.
    package static let less: UInt8 = 0x3C
    /// `>`, a folded block scalar.
    package static let greater: UInt8 = 0x3E
    /// `?`, an explicit key.
    package static let question: UInt8 = 0x3F
    /// `@`, reserved.
    package static let at: UInt8 = 0x40
    /// `` ` ``, reserved.
    package static let backtick: UInt8 = 0x60
    /// `|`, a literal block scalar.
    package static let pipe: UInt8 = 0x7C

    /// Space, ASCII.tab, a line break or the end of the input: what must follow `-`, `?` and `:`
    /// for them to be indicators.
    @inline(__always) package static func isBlankOrEnd(_ byte: UInt8) -> Bool {
        byte == ASCII.space || byte == ASCII.tab || byte == ASCII.lineFeed || byte == ASCII.carriageReturn
            || byte == end
    }

    /// Whether `byte` may end a plain scalar's run of characters: a blank, the end, `:`, or
    /// a flow indicator. Most bytes are not, and this rules them out with one or two tests.
    @inline(__always) package static func mayEndPlain(_ byte: UInt8) -> Bool {
        if byte < 0x40 {
            // 0x00, ASCII.tab, LF, CR, ASCII.space, ',' and ':'.
            let mask: UInt64 = 1 << 0x00 | 1 << 0x09 | 1 << 0x0A | 1 << 0x0D | 1 << 0x20 | 1 << 0x2C | 1 << 0x3A
            return mask >> UInt64(byte) & 1 != 0
        }
        let folded = byte | 0x20
        return folded == ASCII.openBrace || folded == ASCII.closeBrace
    }

    /// Whether `byte` is a line break (LF or CR).
    @inline(__always) package static func isBreak(_ byte: UInt8) -> Bool {
        byte == ASCII.lineFeed || byte == ASCII.carriageReturn
    }

    /// Whether `byte` is one of `,[]{}`, which end plain scalars inside flow collections.
    @inline(__always) package static func isFlowIndicator(_ byte: UInt8) -> Bool {
        byte == ASCII.comma || byte == ASCII.openBracket || byte == ASCII.closeBracket || byte == ASCII.openBrace
            || byte == ASCII.closeBrace
    }

    /// Whether a plain scalar starting with `byte` is read by the line path: letters,
    /// digits, `$`, `_` and `/`, which start no indicator, directive or document marker.
    @inline(__always) package static func startsLinePath(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- 0x61 < 26 || byte &- 0x30 < 10 || byte == 0x24 || byte == 0x5F || byte == 0x2F
    }
}
