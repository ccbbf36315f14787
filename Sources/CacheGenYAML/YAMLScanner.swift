import CacheGenReading

/// Turns YAML bytes into tokens, tracking indentation the way the YAML 1.2 spec and
/// libyaml do: block collections open and close as columns change, and a key is only
/// known to be a key when the `:` after it is seen, so its token is inserted afterwards.
///
/// Nothing here recurses; the queue holds at most one line (1,024 bytes of simple key) ahead.
package struct YAMLScanner {
    /// The input, followed by four zero bytes so look-ahead needs no bounds checks
    /// (the input itself holds no zero byte: `YAMLReader` rejects control characters).
    package let bytes: [UInt8]
    /// The length of the input.
    package let end: Int
    /// The path to put in locations.
    package let file: String

    package var position: Int
    package var line = 1
    package var lineStart: Int

    /// How many flow collections are open around `position`.
    package var flowLevel = 0
    /// The column of the innermost block collection, -1 outside all of them.
    package var indent = -1
    /// The enclosing block collections' columns.
    package var indents: [Int] = []
    /// Whether a simple key may start at `position`.
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

    /// Tokens scanned and not yet taken: `tokens[head...]`.
    package var tokens: [YAMLToken] = []
    package var head = 0
    /// Tokens taken so far.
    package var tokensTaken = 0
    /// Whether the stream-end token has been queued.
    package var streamEnded = false
    /// Reused storage for scalars that need decoding.
    package var scratch: [UInt8] = []
    /// The scalars of the last collection read by `oneLineFlow(on:)`, in order.
    package var flowScalars: [LineScalar] = []
    /// The last located mark's line start, offset and column, for `nodeLocation(_:)`.
    package var columnCache = (lineStart: -1, offset: 0, column: 1)

    /// The number of zero bytes `bytes` must end with.
    package static let padding = 4

    /// Makes a scanner for `bytes`, which end with `padding` zero bytes that are not part
    /// of the input.
    /// - Parameter line: the number of the input's first line: 1, or for a part of a file
    ///   (`YAMLReader+Parts.swift`) the line of the file it starts at.
    package init(paddedBytes bytes: [UInt8], start: Int, file: String, line: Int = 1) {
        self.bytes = bytes
        end = bytes.count - Self.padding
        self.file = file
        self.line = line
        position = start
        lineStart = start
    }

    // MARK: - Taking tokens

    /// The next token, without taking it.
    package mutating func peek() throws(Diagnostic) -> YAMLToken {
        try fill()
        return peeked
    }

    /// The kind of the next token, without taking it.
    @inline(__always)
    package mutating func peekKind() throws(Diagnostic) -> YAMLToken.Kind {
        try fill()
        return Self.kind(of: tokens[head])
    }

    /// The kind a queued token reads as: one of the tokens implied before it, if any are left.
    @inline(__always) private static func kind(of token: YAMLToken) -> YAMLToken.Kind {
        if token.implied == 0 { return token.kind }
        return token.implied & YAMLToken.impliesMappingStart != 0 ? .blockMappingStart : .key
    }

    /// The next token, after `peekKind()`.
    package var peeked: YAMLToken {
        let token = tokens[head]
        if token.implied == 0 { return token }
        return YAMLToken(kind: Self.kind(of: token), mark: token.mark)
    }

    /// Where the next token starts, after `peekKind()`.
    package var peekedMark: YAMLMark { tokens[head].mark }

    /// Takes the next token, moving it out of the queue; the stream-end token is returned
    /// again and again.
    @inline(__always)
    package mutating func next() throws(Diagnostic) -> YAMLToken {
        try fill()
        if tokens[head].implied != 0 {
            let token = peeked
            takeImplied()
            return token
        }
        guard tokens[head].kind != .streamEnd else { return tokens[head] }
        var token = YAMLToken(kind: .streamEnd, mark: tokens[head].mark)
        swap(&token, &tokens[head])
        advance()
        return token
    }

    /// Takes the next token without returning it.
    @inline(__always)
    package mutating func skip() throws(Diagnostic) {
        try fill()
        if tokens[head].implied != 0 {
            takeImplied()
        } else if tokens[head].kind != .streamEnd {
            advance()
        }
    }

    /// Takes the first implied token before the queue's head.
    @inline(__always)
    private mutating func takeImplied() {
        let implied = tokens[head].implied
        tokens[head].implied =
            implied & YAMLToken.impliesMappingStart != 0 ? implied & ~YAMLToken.impliesMappingStart : 0
    }

    @inline(__always)
    private mutating func advance() {
        head += 1
        tokensTaken += 1
        // Emptied in batches: clearing after every token costs more than the tokens.
        if head == tokens.count && head >= 64 {
            tokens.removeAll(keepingCapacity: true)
            head = 0
        }
    }

    @inline(__always) private mutating func fill() throws(Diagnostic) {
        while try needMoreTokens() { try fetchMoreTokens() }
    }

    @inline(__always) private mutating func needMoreTokens() throws(Diagnostic) -> Bool {
        if head == tokens.count { return !streamEnded || tokens.isEmpty }
        if streamEnded || pendingSimpleKeys == 0 { return false }
        try staleSimpleKeys()
        return nextPossibleSimpleKey() == tokensTaken
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
        unwindIndent(column: position - lineStart)
        let adjacentValue = adjacentValueAllowed
        adjacentValueAllowed = false
        guard position < end else { return try fetchStreamEnd() }
        let byte = bytes[position]
        let next = bytes[position + 1]
        let column = position - lineStart
        switch byte {
        case YAMLByte.percent where column == 0:
            try fetchDirective()
        case ASCII.minus where column == 0 && isDocumentMarker(ASCII.minus):
            try fetchDocumentIndicator(.documentStart)
        case ASCII.dot where column == 0 && isDocumentMarker(ASCII.dot):
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
            guard canStartPlain(byte, next) else { throw unexpectedCharacter(at: position) }
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

    /// Whether `---` or `...` (three of `byte`) starts at `position` and is followed by a blank.
    package func isDocumentMarker(_ byte: UInt8) -> Bool {
        isDocumentMarker(byte, at: position)
    }

    /// Whether `---` or `...` (three of `byte`) starts at `offset` and is followed by a blank.
    package func isDocumentMarker(_ byte: UInt8, at offset: Int) -> Bool {
        bytes[offset] == byte && bytes[offset + 1] == byte && bytes[offset + 2] == byte
            && YAMLByte.isBlankOrEnd(bytes[offset + 3])
    }

    // MARK: - Whitespace, comments, line breaks

    /// Skips to the next token: spaces, comments and line breaks, and tabs where they do
    /// not indent a block.
    package mutating func scanToNextToken() throws(Diagnostic) {
        var crossedLine = false
        var spacesEnd = position
        while true {
            while bytes[position] == ASCII.space { position += 1 }
            spacesEnd = position
            if bytes[position] == ASCII.tab {
                while bytes[position] == ASCII.space || bytes[position] == ASCII.tab { position += 1 }
                let byte = bytes[position]
                let onlyIndentation = isOnlyWhitespace(from: lineStart, to: spacesEnd)
                if flowLevel == 0, onlyIndentation, byte != YAMLByte.hash, !YAMLByte.isBreak(byte), position < end {
                    throw failure("a tab indents this line; indent with spaces", at: spacesEnd)
                }
            }
            let byte = bytes[position]
            if byte == YAMLByte.hash {
                if position > lineStart, bytes[position - 1] != ASCII.space, bytes[position - 1] != ASCII.tab {
                    throw failure("a comment must be separated from what comes before it by a space", at: position)
                }
                while position < end, !YAMLByte.isBreak(bytes[position]) { position += 1 }
            }
            if YAMLByte.isBreak(bytes[position]) {
                consumeBreak()
                crossedLine = true
                if flowLevel == 0 { allowSimpleKey = true }
                continue
            }
            break
        }
        if crossedLine, flowLevel > 0, indent >= 0, position < end, spacesEnd - lineStart <= indent {
            throw failure(
                "this line of a flow collection must be indented more than the block around it", at: spacesEnd)
        }
    }

    /// Whether `bytes[from..<to]` holds only spaces and tabs.
    package func isOnlyWhitespace(from: Int, to: Int, allowing other: UInt8 = ASCII.space, tabs: Bool = true) -> Bool {
        var index = from
        while index < to {
            let byte = bytes[index]
            if byte != ASCII.space && byte != other && !(tabs && byte == ASCII.tab) { return false }
            index += 1
        }
        return true
    }

    /// Steps over the line break at `position` (LF, CRLF or CR) and starts a new line.
    @inline(__always) package mutating func consumeBreak() {
        if bytes[position] == ASCII.carriageReturn, bytes[position + 1] == ASCII.lineFeed {
            position += 2
        } else {
            position += 1
        }
        line += 1
        lineStart = position
    }

    /// The input's bytes `from..<to` as a string, read in place (a slice of the array
    /// would retain and release it for each scalar).
    @inline(__always) package func text(from start: Int, to end: Int) -> String {
        bytes.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self)
        }
    }

    /// The current position as a mark.
    package var mark: YAMLMark { YAMLMark(offset: position, line: line, lineStart: lineStart) }

    // MARK: - Simple keys and indentation

    /// Drops the simple keys that can no longer be keys (on an earlier line, or more than
    /// 1,024 bytes back); throws for such a key that had to be one.
    @inline(__always) private mutating func staleSimpleKeys() throws(Diagnostic) {
        guard pendingSimpleKeys > 0, line != simpleKeysLine || position - simpleKeysEarliest > 1024 else { return }
        try dropStaleSimpleKeys()
    }

    /// `staleSimpleKeys()` after its quick test: looks at every level.
    private mutating func dropStaleSimpleKeys() throws(Diagnostic) {
        var earliest = Int.max
        for level in simpleKeys.indices {
            guard let key = simpleKeys[level] else { continue }
            if key.mark.line != line || position - key.mark.offset > 1024 {
                if key.required { throw missingColon(key) }
                simpleKeys[level] = nil
                pendingSimpleKeys -= 1
            } else {
                earliest = min(earliest, key.mark.offset)
            }
        }
        simpleKeysLine = line
        simpleKeysEarliest = earliest
    }

    package mutating func saveSimpleKey() throws(Diagnostic) {
        guard allowSimpleKey else { return }
        try removeSimpleKey()
        let required = flowLevel == 0 && indent == position - lineStart
        simpleKeys[flowLevel] = SimpleKey(tokenNumber: tokensTaken + tokens.count - head, required: required, mark: mark)
        if pendingSimpleKeys == 0 {
            simpleKeysLine = line
            simpleKeysEarliest = position
        } else if simpleKeysLine != line {
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
        failure(
            "expected ': ' after this key; a line at the indentation of a mapping must be 'key: value'",
            at: key.mark.offset)
    }

    package mutating func unwindIndent(column: Int) {
        guard flowLevel == 0 else { return }
        while indent > column {
            indent = indents.removeLast()
            tokens.append(YAMLToken(kind: .blockEnd, mark: mark))
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
