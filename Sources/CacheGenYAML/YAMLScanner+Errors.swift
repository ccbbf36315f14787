import CacheGenReading

/// The scanner's messages that are not tied to one construct.
extension YAMLScanner {
    /// The error for a character that cannot start any token.
    package func unexpectedCharacter(at offset: Int) -> Diagnostic {
        let byte = cursor.bytes[offset]
        switch byte {
        case YAMLByte.at, YAMLByte.backtick:
            return cursor.failure(
                "'\(Character(Unicode.Scalar(byte)))' is reserved and cannot start a plain value; quote the value",
                at: offset)
        case YAMLByte.pipe, YAMLByte.greater:
            return cursor.failure(
                "a block scalar ('\(Character(Unicode.Scalar(byte)))') cannot be inside a flow collection; "
                    + "quote the value",
                at: offset)
        case YAMLByte.percent:
            return cursor.failure("'%' cannot start a plain value; quote the value", at: offset)
        default:
            return cursor.failure("unexpected character \(cursor.printableQuoted(at: offset))", at: offset)
        }
    }

    /// The error for nesting deeper than `YAMLReader.maximumDepth`.
    package func tooDeep(at offset: Int) -> Diagnostic {
        cursor.failure(
            "nesting is too deep; mappings and sequences may nest at most \(YAMLReader.maximumDepth) levels",
            at: offset)
    }
}
