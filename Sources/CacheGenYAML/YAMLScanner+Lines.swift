import CacheGenReading

/// The common line of a block mapping, `key: value` with a plain key and a plain or
/// quoted value (or a value on the lines after it), read without
/// queueing tokens: most of an API description is such lines, and the token queue with
/// its simple-key bookkeeping cost more than the scalars themselves.
///
/// Each read happens only where the token path would produce exactly the same tokens
/// and leave the scanner in the same state; anywhere else it returns `nil` having changed
/// nothing the token path would not change in the same way, and the caller takes tokens.
extension YAMLScanner {
    /// A scalar read by the line path: its text, where it starts and how it was written.
    package struct LineScalar {
        /// The scalar's text, folded and unescaped as the token path does.
        package var text: String
        /// Where the scalar starts.
        package var mark: YAMLMark
        /// Plain, or quoted for a value.
        package var style: YAMLToken.Style = .plain
    }

    /// Reads a plain key at the indentation of the innermost block mapping and the `: `
    /// after it, or returns `nil` (nothing taken) when the next token is anything else.
    /// - Parameter opening: Whether the key is instead the first of a mapping nested in
    ///   the innermost block collection, deeper than it; the mapping is then opened.
    /// - Returns: The key, and the mark of its `:` (where an empty value is placed).
    package mutating func blockMappingKey(opening: Bool = false) throws(Diagnostic) -> (key: LineScalar, colon: YAMLMark)? {
        guard head == tokens.count, !streamEnded, pendingSimpleKeys == 0, flowLevel == 0 else { return nil }
        // What `fetchMoreTokens()` does first; doing it twice changes nothing.
        try scanToNextToken()
        let column = position - lineStart
        guard position < end, allowSimpleKey, opening ? column > indent : column == indent,
            Self.startsLinePath(bytes[position])
        else { return nil }
        let start = mark
        let adjacentValue = adjacentValueAllowed
        allowSimpleKey = false
        adjacentValueAllowed = false
        let text = try scanPlain()
        let colon = position
        guard line == start.line, bytes[colon] == ASCII.colon, YAMLByte.isBlankOrEnd(bytes[colon + 1]),
            colon - start.offset <= 1024
        else {
            // Not a one-line key: back to where the token path starts.
            position = start.offset
            line = start.line
            lineStart = start.lineStart
            allowSimpleKey = true
            adjacentValueAllowed = adjacentValue
            return nil
        }
        let colonMark = mark
        position += 1
        tokensTaken += 3
        // As `fetchValue()` does for a key deeper than the innermost collection.
        if opening { _ = addIndent(column) }
        return (LineScalar(text: text, mark: start), colonMark)
    }

    /// Reads a plain or quoted value on the line of its key, after `blockMappingKey()`, or
    /// returns `nil` (nothing taken but spaces and a comment) when the value is anything else.
    package mutating func blockMappingValue() throws(Diagnostic) -> LineScalar? {
        let keyLine = line
        try scanToNextToken()
        guard line == keyLine, position < end else { return nil }
        let byte = bytes[position]
        let start = mark
        if Self.startsLinePath(byte) {
            adjacentValueAllowed = false
            let text = try scanPlain()
            tokensTaken += 1
            return LineScalar(text: text, mark: start)
        }
        guard byte == ASCII.apostrophe || byte == ASCII.quote else { return nil }
        // As `fetchFlowScalar(double:)`: no simple key can start after `: ` on the line.
        let double = byte == ASCII.quote
        let text = try scanFlowScalar(double: double)
        adjacentValueAllowed = true
        tokensTaken += 1
        return LineScalar(text: text, mark: start, style: double ? .doubleQuoted : .singleQuoted)
    }

    /// Whether a plain scalar starting with `byte` is read by the line path: letters,
    /// digits, `$`, `_` and `/`, which start no indicator, directive or document marker.
    @inline(__always) package static func startsLinePath(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- 0x61 < 26 || byte &- 0x30 < 10 || byte == 0x24 || byte == 0x5F || byte == 0x2F
    }
}
