import CacheGenReading

/// The short flow collection on the line of its key, `{type: string, format: uuid}` or
/// `[id, name]`, read without queueing tokens: after `key: value` lines, such values are
/// the commonest part of an API description, and each costs several tokens.
///
/// As on the line path, the collection is read only where the token path would give the
/// same values and leave the scanner in the same state; anywhere else (nesting, quotes,
/// empty or trailing entries, tabs, comments, more than one line, any error) the scanner
/// is put back as it was and the caller takes tokens, which report any error themselves.
extension YAMLScanner {
    /// Reads a flow mapping of plain `key: value` pairs or a flow sequence of plain items
    /// that starts at `position` and ends on `keyLine`, leaving its scalars in `flowScalars`
    /// (a mapping's keys and values alternating), or returns `nil` having changed nothing.
    /// - Parameter keyLine: The line of the key whose value the collection is.
    /// - Returns: Where the collection starts, and whether it is a mapping.
    package mutating func oneLineFlow(on keyLine: Int) -> (mark: YAMLMark, isMapping: Bool)? {
        // `allowSimpleKey` is false after `key: `, so `{` starts no simple key; the token path
        // then leaves no key pending after the collection either.
        guard queue.isEmpty, !streamEnded, pendingSimpleKeys == 0, flowLevel == 0, !allowSimpleKey,
            cursor.line == keyLine, cursor.position < cursor.end
        else { return nil }
        let opening = cursor.bytes[cursor.position]
        guard opening == ASCII.openBrace || opening == ASCII.openBracket else { return nil }
        let isMapping = opening == ASCII.openBrace
        let start = cursor.mark
        let adjacentValue = adjacentValueAllowed
        flowScalars.removeAll(keepingCapacity: true)
        // What `fetchFlowCollectionStart` sets, for `YAMLScalarReader.readPlain`'s flow rules.
        flowLevel = 1
        cursor.position += 1
        if readFlowEntries(isMapping: isMapping, line: start.line) {
            // As `fetchFlowCollectionEnd` leaves it.
            flowLevel = 0
            allowSimpleKey = false
            adjacentValueAllowed = true
            cursor.position += 1
            // Only differences between counts matter, and no simple key is pending.
            queue.taken += 2 + 2 * flowScalars.count
            return (start, isMapping)
        }
        flowScalars.removeAll(keepingCapacity: true)
        flowLevel = 0
        cursor.position = start.offset
        cursor.line = start.line
        cursor.lineStart = start.lineStart
        allowSimpleKey = false
        adjacentValueAllowed = adjacentValue
        return nil
    }

    /// Reads the entries after `{` or `[` up to the closing bracket (left at `position`),
    /// appending their scalars to `flowScalars`; `false` for anything it does not read.
    private mutating func readFlowEntries(isMapping: Bool, line keyLine: Int) -> Bool {
        let closing = isMapping ? ASCII.closeBrace : ASCII.closeBracket
        while true {
            guard let key = flowPlain(on: keyLine) else { return false }
            cursor.skipSpaces()
            if isMapping {
                // A key further than 1,024 bytes from its `:` is no simple key for the token path.
                guard cursor.bytes[cursor.position] == ASCII.colon, cursor.bytes[cursor.position + 1] == ASCII.space,
                    cursor.position - key.mark.offset <= 1024
                else { return false }
                cursor.position += 1
                cursor.skipSpaces()
                flowScalars.append(key)
                guard let value = flowPlain(on: keyLine) else { return false }
                flowScalars.append(value)
                cursor.skipSpaces()
            } else {
                flowScalars.append(key)
            }
            let byte = cursor.bytes[cursor.position]
            if byte == closing { return true }
            guard byte == ASCII.comma else { return false }
            cursor.position += 1
            cursor.skipSpaces()
        }
    }

    /// A plain scalar starting at `position` that the line path reads and that ends on `line`.
    private mutating func flowPlain(on keyLine: Int) -> LineScalar? {
        guard YAMLByte.startsLinePath(cursor.bytes[cursor.position]) else { return nil }
        let start = cursor.mark
        guard let text = try? scalars.readPlain(&cursor, indent: indent, flowLevel: flowLevel), cursor.line == keyLine
        else { return nil }
        return LineScalar(text: text, mark: start)
    }
}
