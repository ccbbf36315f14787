/// The ASCII bytes that both readers, JSON and YAML, compare against, named once so the
/// grammars read like their specifications. Each reader adds the bytes only it needs
/// (`JSONByte`, `YAMLByte`).
enum ASCII {
    /// Horizontal tab.
    static let tab: UInt8 = 0x09
    /// Line feed (LF).
    static let lineFeed: UInt8 = 0x0A
    /// Carriage return (CR).
    static let carriageReturn: UInt8 = 0x0D
    /// Space.
    static let space: UInt8 = 0x20
    /// `"`.
    static let quote: UInt8 = 0x22
    /// `'`.
    static let apostrophe: UInt8 = 0x27
    /// `*`.
    static let asterisk: UInt8 = 0x2A
    /// `+`.
    static let plus: UInt8 = 0x2B
    /// `,`.
    static let comma: UInt8 = 0x2C
    /// `-`.
    static let minus: UInt8 = 0x2D
    /// `.`.
    static let dot: UInt8 = 0x2E
    /// `:`.
    static let colon: UInt8 = 0x3A
    /// `[`.
    static let openBracket: UInt8 = 0x5B
    /// Backslash.
    static let backslash: UInt8 = 0x5C
    /// `]`.
    static let closeBracket: UInt8 = 0x5D
    /// `{`.
    static let openBrace: UInt8 = 0x7B
    /// `}`.
    static let closeBrace: UInt8 = 0x7D
}
