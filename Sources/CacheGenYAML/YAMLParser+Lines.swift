import CacheGenReading

/// The parser's side of the scanner's line path: a `key: value` line of a block mapping
/// handed on as the tokens it stands for would have been.
extension YAMLParser {
    /// Hands on a key read by `YAMLScanner.blockMappingKey()`, then its value: a plain or
    /// quoted value on the same line directly, a mapping on the lines below by opening it
    /// and reading its first line the same way, anything else (or nothing) as after a `:` token.
    package mutating func readLine(key: YAMLScanner.LineScalar, colon: YAMLMark) throws(Diagnostic) {
        var key = key
        var colon = colon
        while true {
            try deliverLineKey(&key)
            if let value = try scanner.blockMappingValue() {
                return try finishLineScalar(value)
            }
            if let flow = scanner.oneLineFlow(on: colon.line) {
                return try finishOneLineFlow(at: flow.mark, isMapping: flow.isMapping)
            }
            guard let nested = try scanner.blockMappingKey(opening: true) else { break }
            try push(.blockMapping, at: nested.key.mark, anchor: nil, tag: nil)
            key = nested.key
            colon = nested.colon
        }
        let next = try scanner.peekKind()
        if next == .key || next == .value || next == .blockEnd { return try finish(empty(at: colon)) }
        try startNode(block: true, indentless: true)
    }

    /// Opens the collection read by `YAMLScanner.oneLineFlow(on:)`, hands on its scalars
    /// as the token path would (a mapping's keys and values in turn), and closes it.
    private mutating func finishOneLineFlow(at mark: YAMLMark, isMapping: Bool) throws(Diagnostic) {
        try push(isMapping ? .flowMapping : .flowSequence, at: mark, anchor: nil, tag: nil)
        var scalars: [YAMLScanner.LineScalar] = []
        swap(&scalars, &scanner.flowScalars)
        for index in scalars.indices {
            if isMapping && index & 1 == 0 {
                try deliverLineKey(&scalars[index])
            } else {
                try finishLineScalar(scalars[index])
            }
        }
        scalars.removeAll(keepingCapacity: true)
        swap(&scalars, &scanner.flowScalars)
        try finish(close())
    }

    /// Hands a key read by the line or flow path to the innermost mapping as `finishScalar`
    /// and `deliver` would, without building the node they drop, when the key can only be
    /// text and the mapping is small enough to be checked for duplicates by a scan. The
    /// key's text may be moved out.
    private mutating func deliverLineKey(_ key: inout YAMLScanner.LineScalar) throws(Diagnostic) {
        guard Self.isTextKey(key.text), top.keys.scans(count: top.members.count + top.mergeCount) else {
            return try finishLineScalar(key)
        }
        lastScalarIsMergeKey = false
        nodeCount += 1
        let column = scanner.cursor.nodeColumn(key.mark)
        if let first = DuplicateKeyIndex.scan(for: key.text, in: top.members) {
            let location = SourceLocation(file: scanner.cursor.file, line: key.mark.line, column: column)
            throw duplicateKey(key.text, first: first, at: location)
        }
        top.key = Self.take(&key.text)
        top.keyLine = key.mark.line
        top.keyColumn = column
        top.isMergeKey = false
        top.expectingValue = true
    }

    /// Whether the core schema reads a plain scalar starting like a line-path key (a
    /// letter, digit, `$`, `_` or `/`) as text, whatever its value: not null, a boolean
    /// or a number, which need `resolvePlain`.
    @inline(__always) package static func isTextKey(_ text: String) -> Bool {
        guard let first = text.utf8.first else { return false }
        switch first {
        case 0x6E, 0x4E, 0x74, 0x54: return text.utf8.count != 4  // null, true
        case 0x66, 0x46: return text.utf8.count != 5  // false
        case 0x30...0x39, 0x7E, ASCII.plus, ASCII.minus, ASCII.dot: return false
        default: return true
        }
    }

    /// Hands on a scalar with no anchor or tag, as `startNode` would.
    private mutating func finishLineScalar(_ scalar: YAMLScanner.LineScalar) throws(Diagnostic) {
        lastScalarIsMergeKey = false
        var token = YAMLToken(kind: .scalar, mark: scalar.mark, text: scalar.text, style: scalar.style)
        try finishScalar(&token, tag: nil, anchor: nil)
    }
}
