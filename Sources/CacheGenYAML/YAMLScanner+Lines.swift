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
    package mutating func blockMappingKey(opening: Bool = false) throws(Diagnostic) -> (
        key: LineScalar, colon: YAMLMark
    )? {
        guard queue.isEmpty, !streamEnded, pendingSimpleKeys == 0, flowLevel == 0 else { return nil }
        // What `fetchMoreTokens()` does first; doing it twice changes nothing.
        try scanToNextToken()
        let column = cursor.position - cursor.lineStart
        guard cursor.position < cursor.end, allowSimpleKey, opening ? column > indent : column == indent,
            YAMLByte.startsLinePath(cursor.bytes[cursor.position])
        else { return nil }
        let start = cursor.mark
        let adjacentValue = adjacentValueAllowed
        allowSimpleKey = false
        adjacentValueAllowed = false
        let text = try scalars.readPlain(&cursor, indent: indent, flowLevel: flowLevel)
        let colon = cursor.position
        guard cursor.line == start.line, cursor.bytes[colon] == ASCII.colon,
            YAMLByte.isBlankOrEnd(cursor.bytes[colon + 1]),
            colon - start.offset <= 1024
        else {
            // Not a one-line key: back to where the token path starts.
            cursor.position = start.offset
            cursor.line = start.line
            cursor.lineStart = start.lineStart
            allowSimpleKey = true
            adjacentValueAllowed = adjacentValue
            return nil
        }
        let colonMark = cursor.mark
        cursor.position += 1
        queue.taken += 3
        // As `fetchValue()` does for a key deeper than the innermost collection.
        if opening { _ = addIndent(column) }
        return (LineScalar(text: text, mark: start), colonMark)
    }

    /// Reads a plain or quoted value on the line of its key, after `blockMappingKey()`, or
    /// returns `nil` (nothing taken but spaces and a comment) when the value is anything else.
    package mutating func blockMappingValue() throws(Diagnostic) -> LineScalar? {
        let keyLine = cursor.line
        try scanToNextToken()
        guard cursor.line == keyLine, cursor.position < cursor.end else { return nil }
        let byte = cursor.bytes[cursor.position]
        let start = cursor.mark
        if YAMLByte.startsLinePath(byte) {
            adjacentValueAllowed = false
            let text = try scalars.readPlain(&cursor, indent: indent, flowLevel: flowLevel)
            // A plain scalar over more than one line ends where a simple key may start.
            if cursor.line != start.line { allowSimpleKey = true }
            queue.taken += 1
            return LineScalar(text: text, mark: start)
        }
        guard byte == ASCII.apostrophe || byte == ASCII.quote else { return nil }
        // As `fetchFlowScalar(double:)`: no simple key can start after `: ` on the line.
        let double = byte == ASCII.quote
        let text = try scalars.readQuoted(&cursor, double: double, indent: indent, flowLevel: flowLevel)
        adjacentValueAllowed = true
        queue.taken += 1
        return LineScalar(text: text, mark: start, style: double ? .doubleQuoted : .singleQuoted)
    }
}
