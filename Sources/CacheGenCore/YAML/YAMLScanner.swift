/// The bytes the YAML scanner compares against.
enum YAMLByte {
    static let end: UInt8 = 0x00
    static let tab: UInt8 = 0x09
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let exclamation: UInt8 = 0x21
    static let quote: UInt8 = 0x22
    static let hash: UInt8 = 0x23
    static let percent: UInt8 = 0x25
    static let ampersand: UInt8 = 0x26
    static let apostrophe: UInt8 = 0x27
    static let asterisk: UInt8 = 0x2A
    static let plus: UInt8 = 0x2B
    static let comma: UInt8 = 0x2C
    static let minus: UInt8 = 0x2D
    static let dot: UInt8 = 0x2E
    static let colon: UInt8 = 0x3A
    static let less: UInt8 = 0x3C
    static let greater: UInt8 = 0x3E
    static let question: UInt8 = 0x3F
    static let at: UInt8 = 0x40
    static let openBracket: UInt8 = 0x5B
    static let backslash: UInt8 = 0x5C
    static let closeBracket: UInt8 = 0x5D
    static let backtick: UInt8 = 0x60
    static let openBrace: UInt8 = 0x7B
    static let pipe: UInt8 = 0x7C
    static let closeBrace: UInt8 = 0x7D

    /// Space, tab, a line break or the end of the input: what must follow `-`, `?` and `:`
    /// for them to be indicators.
    @inline(__always) static func isBlankOrEnd(_ byte: UInt8) -> Bool {
        byte == space || byte == tab || byte == lineFeed || byte == carriageReturn || byte == end
    }

    @inline(__always) static func isBreak(_ byte: UInt8) -> Bool {
        byte == lineFeed || byte == carriageReturn
    }

    @inline(__always) static func isFlowIndicator(_ byte: UInt8) -> Bool {
        byte == comma || byte == openBracket || byte == closeBracket || byte == openBrace || byte == closeBrace
    }
}

/// Turns YAML bytes into tokens, tracking indentation the way the YAML 1.2 spec and
/// libyaml do: block collections open and close as columns change, and a key is only
/// known to be a key when the `:` after it is seen, so its token is inserted afterwards.
///
/// Nothing here recurses; the queue holds at most one line (1,024 bytes of simple key) ahead.
struct YAMLScanner {
    /// A token that may turn out to be the key of a mapping once `:` follows it.
    struct SimpleKey {
        /// The number of the token the key starts at, counted from the start.
        var tokenNumber: Int
        /// Whether it must be a key: a token at the indentation of a block mapping.
        var required: Bool
        /// Where it starts.
        var mark: YAMLMark
    }

    /// The input, followed by four zero bytes so look-ahead needs no bounds checks
    /// (the input itself holds no zero byte: `YAMLReader` rejects control characters).
    let bytes: [UInt8]
    /// The length of the input.
    let end: Int
    /// The path to put in locations.
    let file: String

    var position: Int
    var line = 1
    var lineStart: Int

    /// How many flow collections are open around `position`.
    var flowLevel = 0
    /// The column of the innermost block collection, -1 outside all of them.
    var indent = -1
    /// The enclosing block collections' columns.
    var indents: [Int] = []
    /// Whether a simple key may start at `position`.
    var allowSimpleKey = true
    /// The possible simple key per flow level.
    var simpleKeys: [SimpleKey?] = [nil]
    /// How many entries of `simpleKeys` are set, so the common case skips looking at them.
    var pendingSimpleKeys = 0
    /// Whether the last token was a quoted scalar or closed a flow collection, after which
    /// `:` is a value indicator even without a space (`{"a":b}`).
    var adjacentValueAllowed = false

    /// Tokens scanned and not yet taken: `tokens[head...]`.
    var tokens: [YAMLToken] = []
    var head = 0
    /// Tokens taken so far.
    var tokensTaken = 0
    /// Whether the stream-end token has been queued.
    var streamEnded = false
    /// Reused storage for scalars that need decoding.
    var scratch: [UInt8] = []
    /// The last located mark's line start, offset and column, for `nodeLocation(_:)`.
    var columnCache = (lineStart: -1, offset: 0, column: 1)

    /// The number of zero bytes `bytes` must end with.
    static let padding = 4

    /// Makes a scanner for `bytes`, which end with `padding` zero bytes that are not part
    /// of the input.
    init(paddedBytes bytes: [UInt8], start: Int, file: String) {
        self.bytes = bytes
        end = bytes.count - Self.padding
        self.file = file
        position = start
        lineStart = start
    }

    // MARK: - Taking tokens

    /// The next token, without taking it.
    mutating func peek() throws(Diagnostic) -> YAMLToken {
        try fill()
        return tokens[head]
    }

    /// The kind of the next token, without taking it.
    mutating func peekKind() throws(Diagnostic) -> YAMLToken.Kind {
        try fill()
        return tokens[head].kind
    }

    /// The next token, after `peekKind()`: no scanning, no copy of the whole token needed.
    var peeked: YAMLToken { tokens[head] }

    /// Takes the next token, moving it out of the queue; the stream-end token is returned
    /// again and again.
    mutating func next() throws(Diagnostic) -> YAMLToken {
        try fill()
        guard tokens[head].kind != .streamEnd else { return tokens[head] }
        var token = YAMLToken(kind: .streamEnd, mark: tokens[head].mark)
        swap(&token, &tokens[head])
        advance()
        return token
    }

    /// Takes the next token without returning it.
    mutating func skip() throws(Diagnostic) {
        try fill()
        if tokens[head].kind != .streamEnd { advance() }
    }

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
        case YAMLByte.minus where column == 0 && isDocumentMarker(YAMLByte.minus):
            try fetchDocumentIndicator(.documentStart)
        case YAMLByte.dot where column == 0 && isDocumentMarker(YAMLByte.dot):
            try fetchDocumentIndicator(.documentEnd)
        case YAMLByte.openBracket:
            try fetchFlowCollectionStart(.flowSequenceStart)
        case YAMLByte.openBrace:
            try fetchFlowCollectionStart(.flowMappingStart)
        case YAMLByte.closeBracket:
            try fetchFlowCollectionEnd(.flowSequenceEnd)
        case YAMLByte.closeBrace:
            try fetchFlowCollectionEnd(.flowMappingEnd)
        case YAMLByte.comma:
            try fetchFlowEntry()
        case YAMLByte.minus where YAMLByte.isBlankOrEnd(next):
            try fetchBlockEntry()
        case YAMLByte.question
        where YAMLByte.isBlankOrEnd(next) || (flowLevel > 0 && YAMLByte.isFlowIndicator(next)):
            throw failure(
                "explicit keys ('? ') are not supported; write the key as 'key: value' on one line", at: position)
        case YAMLByte.colon
        where YAMLByte.isBlankOrEnd(next) || (flowLevel > 0 && (YAMLByte.isFlowIndicator(next) || adjacentValue)):
            try fetchValue()
        case YAMLByte.asterisk:
            try fetchAnchorOrAlias(.alias)
        case YAMLByte.ampersand:
            try fetchAnchorOrAlias(.anchor)
        case YAMLByte.exclamation:
            try fetchTag()
        case YAMLByte.pipe where flowLevel == 0, YAMLByte.greater where flowLevel == 0:
            try fetchBlockScalar(folded: byte == YAMLByte.greater)
        case YAMLByte.apostrophe, YAMLByte.quote:
            try fetchFlowScalar(double: byte == YAMLByte.quote)
            adjacentValueAllowed = true
        default:
            guard canStartPlain(byte, next) else { throw unexpectedCharacter(at: position) }
            try fetchPlain()
        }
    }

    /// Whether a plain scalar can start with `byte` followed by `next` (YAML 1.2 `ns-plain-first`).
    private func canStartPlain(_ byte: UInt8, _ next: UInt8) -> Bool {
        switch byte {
        case YAMLByte.minus, YAMLByte.question, YAMLByte.colon:
            return !YAMLByte.isBlankOrEnd(next) && !(flowLevel > 0 && YAMLByte.isFlowIndicator(next))
        case YAMLByte.comma, YAMLByte.openBracket, YAMLByte.closeBracket, YAMLByte.openBrace, YAMLByte.closeBrace,
            YAMLByte.hash, YAMLByte.ampersand, YAMLByte.asterisk, YAMLByte.exclamation, YAMLByte.pipe,
            YAMLByte.greater, YAMLByte.apostrophe, YAMLByte.quote, YAMLByte.percent, YAMLByte.at,
            YAMLByte.backtick:
            return false
        default:
            return !YAMLByte.isBlankOrEnd(byte)
        }
    }

    /// Whether `---` or `...` (three of `byte`) starts at `position` and is followed by a blank.
    func isDocumentMarker(_ byte: UInt8) -> Bool {
        isDocumentMarker(byte, at: position)
    }

    /// Whether `---` or `...` (three of `byte`) starts at `offset` and is followed by a blank.
    func isDocumentMarker(_ byte: UInt8, at offset: Int) -> Bool {
        bytes[offset] == byte && bytes[offset + 1] == byte && bytes[offset + 2] == byte
            && YAMLByte.isBlankOrEnd(bytes[offset + 3])
    }

    // MARK: - Whitespace, comments, line breaks

    /// Skips to the next token: spaces, comments and line breaks, and tabs where they do
    /// not indent a block.
    private mutating func scanToNextToken() throws(Diagnostic) {
        var crossedLine = false
        var spacesEnd = position
        while true {
            while bytes[position] == YAMLByte.space { position += 1 }
            spacesEnd = position
            if bytes[position] == YAMLByte.tab {
                while bytes[position] == YAMLByte.space || bytes[position] == YAMLByte.tab { position += 1 }
                let byte = bytes[position]
                let onlyIndentation = isOnlyWhitespace(from: lineStart, to: spacesEnd)
                if flowLevel == 0, onlyIndentation, byte != YAMLByte.hash, !YAMLByte.isBreak(byte), position < end {
                    throw failure("a tab indents this line; indent with spaces", at: spacesEnd)
                }
            }
            let byte = bytes[position]
            if byte == YAMLByte.hash {
                if position > lineStart, bytes[position - 1] != YAMLByte.space, bytes[position - 1] != YAMLByte.tab {
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
    func isOnlyWhitespace(from: Int, to: Int, allowing other: UInt8 = YAMLByte.space, tabs: Bool = true) -> Bool {
        var index = from
        while index < to {
            let byte = bytes[index]
            if byte != YAMLByte.space && byte != other && !(tabs && byte == YAMLByte.tab) { return false }
            index += 1
        }
        return true
    }

    /// Steps over the line break at `position` (LF, CRLF or CR) and starts a new line.
    @inline(__always) mutating func consumeBreak() {
        if bytes[position] == YAMLByte.carriageReturn, bytes[position + 1] == YAMLByte.lineFeed {
            position += 2
        } else {
            position += 1
        }
        line += 1
        lineStart = position
    }

    /// The current position as a mark.
    var mark: YAMLMark { YAMLMark(offset: position, line: line, lineStart: lineStart) }

    // MARK: - Simple keys and indentation

    private mutating func staleSimpleKeys() throws(Diagnostic) {
        guard pendingSimpleKeys > 0 else { return }
        for level in simpleKeys.indices {
            guard let key = simpleKeys[level] else { continue }
            if key.mark.line != line || position - key.mark.offset > 1024 {
                if key.required { throw missingColon(key) }
                simpleKeys[level] = nil
                pendingSimpleKeys -= 1
            }
        }
    }

    mutating func saveSimpleKey() throws(Diagnostic) {
        guard allowSimpleKey else { return }
        try removeSimpleKey()
        let required = flowLevel == 0 && indent == position - lineStart
        simpleKeys[flowLevel] = SimpleKey(tokenNumber: tokensTaken + tokens.count - head, required: required, mark: mark)
        pendingSimpleKeys += 1
    }

    mutating func removeSimpleKey() throws(Diagnostic) {
        guard let key = simpleKeys[flowLevel] else { return }
        if key.required { throw missingColon(key) }
        simpleKeys[flowLevel] = nil
        pendingSimpleKeys -= 1
    }

    private func missingColon(_ key: SimpleKey) -> Diagnostic {
        failure(
            "expected ': ' after this key; a line at the indentation of a mapping must be 'key: value'",
            at: key.mark.offset)
    }

    private mutating func unwindIndent(column: Int) {
        guard flowLevel == 0 else { return }
        while indent > column {
            indent = indents.removeLast()
            tokens.append(YAMLToken(kind: .blockEnd, mark: mark))
        }
    }

    /// Opens a block collection at `column` when it is deeper than the current one.
    private mutating func addIndent(_ column: Int) -> Bool {
        guard indent < column else { return false }
        indents.append(indent)
        indent = column
        return true
    }

    // MARK: - Fetching tokens

    private mutating func fetchStreamEnd() throws(Diagnostic) {
        unwindIndent(column: -1)
        try removeSimpleKey()
        allowSimpleKey = false
        tokens.append(YAMLToken(kind: .streamEnd, mark: mark))
        streamEnded = true
    }

    private mutating func fetchDirective() throws(Diagnostic) {
        unwindIndent(column: -1)
        try removeSimpleKey()
        allowSimpleKey = false
        let start = mark
        var index = position + 1
        while !YAMLByte.isBlankOrEnd(bytes[index]) { index += 1 }
        let name = String(decoding: bytes[(position + 1)..<index], as: UTF8.self)
        guard name == "YAML" else {
            throw failure("the directive '%\(name)' is not supported; only %YAML is", at: position)
        }
        while bytes[index] == YAMLByte.space || bytes[index] == YAMLByte.tab { index += 1 }
        let versionStart = index
        while !YAMLByte.isBlankOrEnd(bytes[index]) { index += 1 }
        let version = String(decoding: bytes[versionStart..<index], as: UTF8.self)
        guard version == "1.2" || version == "1.1" else {
            throw failure("the YAML version \(quoted(version)) is not supported; write %YAML 1.2", at: versionStart)
        }
        position = index
        tokens.append(YAMLToken(kind: .directive, mark: start))
    }

    private mutating func fetchDocumentIndicator(_ kind: YAMLToken.Kind) throws(Diagnostic) {
        if flowLevel > 0 {
            throw failure("a document marker inside a flow collection; close the collection first", at: position)
        }
        unwindIndent(column: -1)
        try removeSimpleKey()
        allowSimpleKey = false
        tokens.append(YAMLToken(kind: kind, mark: mark))
        position += 3
    }

    private mutating func fetchFlowCollectionStart(_ kind: YAMLToken.Kind) throws(Diagnostic) {
        try saveSimpleKey()
        guard flowLevel < YAMLReader.maximumDepth else { throw tooDeep(at: position) }
        flowLevel += 1
        simpleKeys.append(nil)
        allowSimpleKey = true
        tokens.append(YAMLToken(kind: kind, mark: mark))
        position += 1
    }

    private mutating func fetchFlowCollectionEnd(_ kind: YAMLToken.Kind) throws(Diagnostic) {
        guard flowLevel > 0 else {
            throw failure("'\(Character(Unicode.Scalar(bytes[position])))' closes nothing; remove it", at: position)
        }
        try removeSimpleKey()
        flowLevel -= 1
        simpleKeys.removeLast()
        allowSimpleKey = false
        tokens.append(YAMLToken(kind: kind, mark: mark))
        position += 1
        adjacentValueAllowed = true
    }

    private mutating func fetchFlowEntry() throws(Diagnostic) {
        guard flowLevel > 0 else {
            throw failure("',' outside a flow collection; quote the value if the comma belongs to it", at: position)
        }
        allowSimpleKey = true
        try removeSimpleKey()
        tokens.append(YAMLToken(kind: .flowEntry, mark: mark))
        position += 1
    }

    private mutating func fetchBlockEntry() throws(Diagnostic) {
        guard flowLevel == 0 else {
            throw failure("'- ' entries are not allowed inside a flow collection; separate items with ','", at: position)
        }
        guard allowSimpleKey else {
            throw failure("a sequence entry ('- ') is not allowed here; start it on a new line", at: position)
        }
        if !isOnlyWhitespace(from: lineStart, to: position, allowing: YAMLByte.minus, tabs: false) {
            throw failure("a tab separates this '- ' from the one before it; use spaces", at: position)
        }
        if addIndent(position - lineStart) {
            tokens.append(YAMLToken(kind: .blockSequenceStart, mark: mark))
        }
        allowSimpleKey = true
        try removeSimpleKey()
        tokens.append(YAMLToken(kind: .blockEntry, mark: mark))
        position += 1
    }

    private mutating func fetchValue() throws(Diagnostic) {
        if let key = simpleKeys[flowLevel] {
            simpleKeys[flowLevel] = nil
            pendingSimpleKeys -= 1
            let index = head + key.tokenNumber - tokensTaken
            tokens.insert(YAMLToken(kind: .key, mark: key.mark), at: index)
            if flowLevel == 0, addIndent(key.mark.column) {
                tokens.insert(YAMLToken(kind: .blockMappingStart, mark: key.mark), at: index)
            }
            allowSimpleKey = false
        } else if flowLevel == 0 && !allowSimpleKey {
            throw failure("':' is not allowed here; quote the value if it contains ': '", at: position)
        } else {
            throw failure("':' with no key before it on the same line; write 'key: value' on one line", at: position)
        }
        tokens.append(YAMLToken(kind: .value, mark: mark))
        position += 1
    }

    private mutating func fetchAnchorOrAlias(_ kind: YAMLToken.Kind) throws(Diagnostic) {
        try saveSimpleKey()
        allowSimpleKey = false
        let start = mark
        var index = position + 1
        while !YAMLByte.isBlankOrEnd(bytes[index]), !YAMLByte.isFlowIndicator(bytes[index]) { index += 1 }
        guard index > position + 1 else {
            let what = kind == .alias ? "an alias ('*')" : "an anchor ('&')"
            throw failure("\(what) needs a name, as in \(kind == .alias ? "*name" : "&name")", at: position)
        }
        let name = String(decoding: bytes[(position + 1)..<index], as: UTF8.self)
        position = index
        tokens.append(YAMLToken(kind: kind, mark: start, text: name))
    }

    private mutating func fetchTag() throws(Diagnostic) {
        try saveSimpleKey()
        allowSimpleKey = false
        let start = mark
        var index = position + 1
        while !YAMLByte.isBlankOrEnd(bytes[index]),
            !(flowLevel > 0 && YAMLByte.isFlowIndicator(bytes[index]))
        {
            index += 1
        }
        let written = String(decoding: bytes[position..<index], as: UTF8.self)
        let tag: YAMLTag?
        if written == "!" {
            tag = .nonSpecific
        } else if written.hasPrefix("!!") {
            tag = YAMLTag(suffix: String(written.dropFirst(2)))
        } else if written.hasPrefix("!<tag:yaml.org,2002:"), written.hasSuffix(">") {
            tag = YAMLTag(suffix: String(written.dropFirst(20).dropLast()))
        } else {
            tag = nil
        }
        guard let tag else {
            throw failure(
                "the tag '\(excerpt(written))' is not supported; only !!str, !!int, !!float, !!bool, !!null, "
                    + "!!map, !!seq and ! are",
                at: position)
        }
        position = index
        tokens.append(YAMLToken(kind: .tag, mark: start, tag: tag))
    }

    private mutating func fetchBlockScalar(folded: Bool) throws(Diagnostic) {
        allowSimpleKey = true
        try removeSimpleKey()
        let start = mark
        let text = try scanBlockScalar(folded: folded)
        tokens.append(YAMLToken(kind: .scalar, mark: start, text: text, style: folded ? .folded : .literal))
    }

    private mutating func fetchFlowScalar(double: Bool) throws(Diagnostic) {
        try saveSimpleKey()
        allowSimpleKey = false
        let start = mark
        let text = try scanFlowScalar(double: double)
        tokens.append(
            YAMLToken(kind: .scalar, mark: start, text: text, style: double ? .doubleQuoted : .singleQuoted))
    }

    private mutating func fetchPlain() throws(Diagnostic) {
        try saveSimpleKey()
        allowSimpleKey = false
        let start = mark
        let text = try scanPlain()
        tokens.append(YAMLToken(kind: .scalar, mark: start, text: text, style: .plain))
    }
}
