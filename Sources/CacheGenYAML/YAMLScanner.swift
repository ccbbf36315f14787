import CacheGenReading

/// Turns YAML bytes into tokens, tracking indentation the way the YAML 1.2 spec and
/// libyaml do: block collections open and close as columns change, and a key is only
/// known to be a key when the `:` after it is seen, so its token is inserted afterwards.
///
/// The scanner keeps that state (simple keys, indentation, flow levels) and decides which
/// token comes next; where it is in the bytes is its `YAMLCursor`, the text of scalars is read
/// by its `YAMLScalarReader`, and the tokens wait in its `YAMLTokenQueue` until taken.
///
/// Nothing here recurses; the queue holds at most one line (1,024 bytes of simple key) ahead.
package struct YAMLScanner {
    /// Where the scanner is in the bytes.
    package var cursor: YAMLCursor
    /// Reads the scalars of every style at the cursor.
    package var scalars = YAMLScalarReader()
    /// The tokens scanned and not yet taken.
    package var queue = YAMLTokenQueue()

    /// How many flow collections are open around the cursor.
    package var flowLevel = 0
    /// The column of the innermost block collection, -1 outside all of them.
    package var indent = -1
    /// The enclosing block collections' columns.
    package var indents: [Int] = []
    /// Whether a simple key may start at the cursor.
    package var allowSimpleKey = true
    /// The possible simple key per flow level.
    package var simpleKeys: [SimpleKey?] = [nil]
    /// How many entries of `simpleKeys` are set, so the common case skips looking at them.
    package var pendingSimpleKeys = 0
    /// The line every pending simple key is on (a key on an earlier line is stale), and
    /// the earliest of their offsets: while both still hold, no key can have gone stale.
    package var simpleKeysLine = -1
    package var simpleKeysEarliest = 0
    /// The flow levels at which an explicit key (`? `) waits for its `:`, innermost last.
    package var explicitKeyLevels: [Int] = []
    /// Whether the last token was a quoted scalar or closed a flow collection, after which
    /// `:` is a value indicator even without a space (`{"a":b}`).
    package var adjacentValueAllowed = false

    /// Whether the stream-end token has been queued.
    package var streamEnded = false
    /// The scalars of the last collection read by `oneLineFlow(on:)`, in order.
    package var flowScalars: [LineScalar] = []

    /// Makes a scanner for `bytes`, which end with `YAMLCursor.padding` zero bytes that are
    /// not part of the input.
    /// - Parameter line: the number of the input's first line: 1, or for a part of a file
    ///   (`YAMLReader+Parts.swift`) the line of the file it starts at.
    package init(paddedBytes bytes: [UInt8], start: Int, file: String, line: Int = 1) {
        cursor = YAMLCursor(paddedBytes: bytes, start: start, file: file, line: line)
    }

    // MARK: - Taking tokens

    /// The next token, without taking it.
    package mutating func peek() throws(Diagnostic) -> YAMLToken {
        try fill()
        return queue.peeked
    }

    /// The kind of the next token, without taking it.
    @inline(__always)
    package mutating func peekKind() throws(Diagnostic) -> YAMLToken.Kind {
        try fill()
        return queue.headKind
    }

    /// The next token, after `peekKind()`.
    package var peeked: YAMLToken { queue.peeked }

    /// Where the next token starts, after `peekKind()`.
    package var peekedMark: YAMLMark { queue.peekedMark }

    /// Takes the next token; the stream-end token is returned again and again.
    @inline(__always)
    package mutating func next() throws(Diagnostic) -> YAMLToken {
        try fill()
        return queue.take()
    }

    /// Takes the next token without returning it.
    @inline(__always)
    package mutating func skip() throws(Diagnostic) {
        try fill()
        queue.drop()
    }

    /// Scans until the next token is known: queued, and no simple key pending could still
    /// imply a token before it.
    @inline(__always) private mutating func fill() throws(Diagnostic) {
        while try needMoreTokens() { try fetchMoreTokens() }
    }

    @inline(__always) private mutating func needMoreTokens() throws(Diagnostic) -> Bool {
        if queue.isEmpty { return !streamEnded || queue.tokens.isEmpty }
        if streamEnded || pendingSimpleKeys == 0 { return false }
        try staleSimpleKeys()
        return nextPossibleSimpleKey() == queue.taken
    }

    private func nextPossibleSimpleKey() -> Int? {
        var lowest: Int?
        for key in simpleKeys {
            if let key, lowest.map({ key.tokenNumber < $0 }) ?? true { lowest = key.tokenNumber }
        }
        return lowest
    }

    // MARK: - Dispatch

    private mutating func fetchMoreTokens() throws(Diagnostic) {
        try scanToNextToken()
        try staleSimpleKeys()
        unwindIndent(column: cursor.position - cursor.lineStart)
        let adjacentValue = adjacentValueAllowed
        adjacentValueAllowed = false
        guard cursor.position < cursor.end else { return try fetchStreamEnd() }
        let byte = cursor.bytes[cursor.position]
        let next = cursor.bytes[cursor.position + 1]
        let column = cursor.position - cursor.lineStart
        switch byte {
        case YAMLByte.percent where column == 0:
            try fetchDirective()
        case ASCII.minus where column == 0 && cursor.isDocumentMarker(ASCII.minus):
            try fetchDocumentIndicator(.documentStart)
        case ASCII.dot where column == 0 && cursor.isDocumentMarker(ASCII.dot):
            try fetchDocumentIndicator(.documentEnd)
        case ASCII.openBracket:
            try fetchFlowCollectionStart(.flowSequenceStart)
        case ASCII.openBrace:
            try fetchFlowCollectionStart(.flowMappingStart)
        case ASCII.closeBracket:
            try fetchFlowCollectionEnd(.flowSequenceEnd)
        case ASCII.closeBrace:
            try fetchFlowCollectionEnd(.flowMappingEnd)
        case ASCII.comma:
            try fetchFlowEntry()
        case ASCII.minus where YAMLByte.isBlankOrEnd(next):
            try fetchBlockEntry()
        case YAMLByte.question
        where YAMLByte.isBlankOrEnd(next) || (flowLevel > 0 && YAMLByte.isFlowIndicator(next)):
            try fetchExplicitKey()
        case ASCII.colon
        where YAMLByte.isBlankOrEnd(next) || (flowLevel > 0 && (YAMLByte.isFlowIndicator(next) || adjacentValue)):
            try fetchValue()
        case ASCII.asterisk:
            try fetchAnchorOrAlias(.alias)
        case YAMLByte.ampersand:
            try fetchAnchorOrAlias(.anchor)
        case YAMLByte.exclamation:
            try fetchTag()
        case YAMLByte.pipe where flowLevel == 0, YAMLByte.greater where flowLevel == 0:
            try fetchBlockScalar(folded: byte == YAMLByte.greater)
        case ASCII.apostrophe, ASCII.quote:
            try fetchFlowScalar(double: byte == ASCII.quote)
            adjacentValueAllowed = true
        default:
            guard canStartPlain(byte, next) else { throw unexpectedCharacter(at: cursor.position) }
            try fetchPlain()
        }
    }

    /// Whether a plain scalar can start with `byte` followed by `next` (YAML 1.2 `ns-plain-first`).
    private func canStartPlain(_ byte: UInt8, _ next: UInt8) -> Bool {
        switch byte {
        case ASCII.minus, YAMLByte.question, ASCII.colon:
            return !YAMLByte.isBlankOrEnd(next) && !(flowLevel > 0 && YAMLByte.isFlowIndicator(next))
        case ASCII.comma, ASCII.openBracket, ASCII.closeBracket, ASCII.openBrace, ASCII.closeBrace,
            YAMLByte.hash, YAMLByte.ampersand, ASCII.asterisk, YAMLByte.exclamation, YAMLByte.pipe,
            YAMLByte.greater, ASCII.apostrophe, ASCII.quote, YAMLByte.percent, YAMLByte.at,
            YAMLByte.backtick:
            return false
        default:
            return !YAMLByte.isBlankOrEnd(byte)
        }
    }

    // MARK: - Whitespace, comments, line breaks

    /// Skips to the next token: spaces, comments and line breaks, and tabs where they do
    /// not indent a block.
    package mutating func scanToNextToken() throws(Diagnostic) {
        var crossedLine = false
        var spacesEnd = cursor.position
        while true {
            while cursor.bytes[cursor.position] == ASCII.space { cursor.position += 1 }
            spacesEnd = cursor.position
            if cursor.bytes[cursor.position] == ASCII.tab {
                while cursor.bytes[cursor.position] == ASCII.space || cursor.bytes[cursor.position] == ASCII.tab {
                    cursor.position += 1
                }
                let byte = cursor.bytes[cursor.position]
                let onlyIndentation = cursor.isOnlyWhitespace(from: cursor.lineStart, to: spacesEnd)
                if flowLevel == 0, onlyIndentation, byte != YAMLByte.hash, !YAMLByte.isBreak(byte),
                    cursor.position < cursor.end
                {
                    throw cursor.failure("a tab indents this line; indent with spaces", at: spacesEnd)
                }
            }
            let byte = cursor.bytes[cursor.position]
            if byte == YAMLByte.hash {
                if cursor.position > cursor.lineStart, cursor.bytes[cursor.position - 1] != ASCII.space,
                    cursor.bytes[cursor.position - 1] != ASCII.tab
                {
                    throw cursor.failure(
                        "a comment must be separated from what comes before it by a space", at: cursor.position)
                }
                while cursor.position < cursor.end, !YAMLByte.isBreak(cursor.bytes[cursor.position]) {
                    cursor.position += 1
                }
            }
            if YAMLByte.isBreak(cursor.bytes[cursor.position]) {
                cursor.consumeBreak()
                crossedLine = true
                if flowLevel == 0 { allowSimpleKey = true }
                continue
            }
            break
        }
        if crossedLine, flowLevel > 0, indent >= 0, cursor.position < cursor.end, spacesEnd - cursor.lineStart <= indent
        {
            throw cursor.failure(
                "this line of a flow collection must be indented more than the block around it", at: spacesEnd)
        }
    }

    // MARK: - Simple keys and indentation

    /// Drops the simple keys that can no longer be keys (on an earlier line, or more than
    /// 1,024 bytes back); throws for such a key that had to be one.
    @inline(__always) private mutating func staleSimpleKeys() throws(Diagnostic) {
        guard pendingSimpleKeys > 0, cursor.line != simpleKeysLine || cursor.position - simpleKeysEarliest > 1024 else {
            return
        }
        try dropStaleSimpleKeys()
    }

    /// `staleSimpleKeys()` after its quick test: looks at every level.
    private mutating func dropStaleSimpleKeys() throws(Diagnostic) {
        var earliest = Int.max
        for level in simpleKeys.indices {
            guard let key = simpleKeys[level] else { continue }
            if key.mark.line != cursor.line || cursor.position - key.mark.offset > 1024 {
                if key.required { throw missingColon(key) }
                simpleKeys[level] = nil
                pendingSimpleKeys -= 1
            } else {
                earliest = min(earliest, key.mark.offset)
            }
        }
        simpleKeysLine = cursor.line
        simpleKeysEarliest = earliest
    }

    package mutating func saveSimpleKey() throws(Diagnostic) {
        guard allowSimpleKey else { return }
        try removeSimpleKey()
        let required = flowLevel == 0 && indent == cursor.position - cursor.lineStart
        simpleKeys[flowLevel] = SimpleKey(tokenNumber: queue.nextNumber, required: required, mark: cursor.mark)
        if pendingSimpleKeys == 0 {
            simpleKeysLine = cursor.line
            simpleKeysEarliest = cursor.position
        } else if simpleKeysLine != cursor.line {
            // Not expected (keys are checked before each token), but then the next check looks at all.
            simpleKeysLine = -1
        }
        pendingSimpleKeys += 1
    }

    package mutating func removeSimpleKey() throws(Diagnostic) {
        guard let key = simpleKeys[flowLevel] else { return }
        if key.required { throw missingColon(key) }
        simpleKeys[flowLevel] = nil
        pendingSimpleKeys -= 1
    }

    package func missingColon(_ key: SimpleKey) -> Diagnostic {
        cursor.failure(
            "expected ': ' after this key; a line at the indentation of a mapping must be 'key: value'",
            at: key.mark.offset)
    }

    package mutating func unwindIndent(column: Int) {
        guard flowLevel == 0 else { return }
        while indent > column {
            indent = indents.removeLast()
            queue.append(YAMLToken(kind: .blockEnd, mark: cursor.mark))
        }
    }

    /// Opens a block collection at `column` when it is deeper than the current one.
    package mutating func addIndent(_ column: Int) -> Bool {
        guard indent < column else { return false }
        indents.append(indent)
        indent = column
        return true
    }
}
