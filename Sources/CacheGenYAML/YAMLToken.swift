/// A place in the YAML buffer: the byte offset plus the line it is on, so a location can
/// be made for it without rescanning the file.
package struct YAMLMark: Sendable {
    /// The byte offset.
    package var offset: Int
    /// The line, from 1.
    package var line: Int
    /// The byte offset where that line starts.
    package var lineStart: Int

    /// The column in bytes from the line start, from 0; only spaces can come before
    /// the indentation-significant tokens this is used for, so bytes equal characters there.
    package var column: Int { offset - lineStart }
}

/// The core-schema tags the reader understands; any other tag is outside its subset.
package enum YAMLTag: Sendable, Equatable {
    case string, integer, float, bool, null, mapping, sequence
    /// `!` alone: a plain scalar is then a string, whatever it looks like.
    case nonSpecific

    /// The tag as written in a document, for messages.
    package var name: String {
        switch self {
        case .string: "!!str"
        case .integer: "!!int"
        case .float: "!!float"
        case .bool: "!!bool"
        case .null: "!!null"
        case .mapping: "!!map"
        case .sequence: "!!seq"
        case .nonSpecific: "!"
        }
    }

    /// The tag for a core-schema suffix (`str`, `int`, …), or `nil`.
    package init?(suffix: String) {
        switch suffix {
        case "str": self = .string
        case "int": self = .integer
        case "float": self = .float
        case "bool": self = .bool
        case "null": self = .null
        case "map": self = .mapping
        case "seq": self = .sequence
        default: return nil
        }
    }
}

/// One token of YAML's block and flow structure, as the scanner hands it to the parser.
package struct YAMLToken: Sendable {
    /// What the token is.
    package enum Kind: UInt8, Sendable {
        case streamEnd, directive, documentStart, documentEnd
        case blockSequenceStart, blockMappingStart, blockEnd
        case flowSequenceStart, flowSequenceEnd, flowMappingStart, flowMappingEnd
        case blockEntry, flowEntry, key, value
        case alias, anchor, tag, scalar
    }

    /// How a scalar was written; only plain scalars are resolved to numbers, booleans and null.
    package enum Style: UInt8, Sendable {
        case plain, singleQuoted, doubleQuoted, literal, folded
    }

    /// What the token is.
    package var kind: Kind
    /// Where it starts.
    package var mark: YAMLMark
    /// A scalar's decoded text, or an anchor's or alias's name.
    package var text: String = ""
    /// How a scalar was written.
    package var style: Style = .plain
    /// A tag token's tag.
    package var tag: YAMLTag = .nonSpecific
    /// Tokens known to come just before this one, found only when the `:` after a simple
    /// key is scanned: `impliesMappingStart`, then `impliesKey`, each taken on its own.
    package var implied: UInt8 = 0

    /// A key starts at this token.
    package static let impliesKey: UInt8 = 1
    /// A block mapping starts at this token (before its first key).
    package static let impliesMappingStart: UInt8 = 2
}
