/// The ASCII bytes that both readers, JSON and YAML, compare against, named once so the
/// grammars read like their specifications. Each reader adds the bytes only it needs
/// (`JSONByte`, `YAMLByte`).
package enum ASCII {
    /// Horizontal tab.
    package static let tab: UInt8 = 0x09
    /// Line feed (LF).
    package static let lineFeed: UInt8 = 0x0A
    /// Carriage return (CR).
    package static let carriageReturn: UInt8 = 0x0D
    /// Space.
    package static let space: UInt8 = 0x20
    /// `"`.
    package static let quote: UInt8 = 0x22
    /// `'`.
    package static let apostrophe: UInt8 = 0x27
    /// `*`.
    package static let asterisk: UInt8 = 0x2A
    /// `+`.
    package static let plus: UInt8 = 0x2B
    /// `,`.
    package static let comma: UInt8 = 0x2C
    /// `-`.
    package static let minus: UInt8 = 0x2D
    /// `.`.
    package static let dot: UInt8 = 0x2E
    /// `:`.
    package static let colon: UInt8 = 0x3A
    /// `[`.
    package static let openBracket: UInt8 = 0x5B
    /// Backslash.
    package static let backslash: UInt8 = 0x5C
    /// `]`.
    package static let closeBracket: UInt8 = 0x5D
    /// `{`.
    package static let openBrace: UInt8 = 0x7B
    /// `}`.
    package static let closeBrace: UInt8 = 0x7D
}
