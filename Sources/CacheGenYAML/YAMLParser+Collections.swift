import CacheGenReading

/// What comes next inside each kind of open collection, and where finished values go.
extension YAMLParser {
    /// Advances the innermost collection by one token or value, handing on each value
    /// finished on the way (a scalar, an alias or a closed collection).
    package mutating func step() throws(Diagnostic) {
        if top.kind == .blockMapping, !top.expectingValue, let line = try scanner.blockMappingKey() {
            return try readLine(key: line.key, colon: line.colon)
        }
        let kind = try scanner.peekKind()
        let mark = scanner.peekedMark
        switch top.kind {
        case .blockSequence:
            switch kind {
            case .blockEntry:
                try scanner.skip()
                let next = try scanner.peekKind()
                if next == .blockEntry || next == .blockEnd { return try finish(empty(at: mark)) }
                return try startNode(block: true, indentless: false)
            case .blockEnd:
                try scanner.skip()
                return try finish(close())
            default:
                throw failure(
                    "expected '- ' for the next item of the sequence that starts at \(topStart), "
                        + "found \(describe(scanner.peeked)); check the indentation",
                    at: mark)
            }
        case .indentlessSequence:
            guard kind == .blockEntry else { return try finish(close()) }
            try scanner.skip()
            let next = try scanner.peekKind()
            if next == .blockEntry || next == .key || next == .value || next == .blockEnd {
                return try finish(empty(at: mark))
            }
            return try startNode(block: true, indentless: false)
        case .blockMapping:
            if top.expectingValue {
                // An explicit key (`? key`) may have no `:`; its value is then empty.
                if kind == .key || kind == .blockEnd { return try finish(empty(at: mark)) }
                guard kind == .value else {
                    throw failure("expected ':' after the key \(quoted(top.key))", at: mark)
                }
                try scanner.skip()
                let next = try scanner.peekKind()
                if next == .key || next == .value || next == .blockEnd { return try finish(empty(at: mark)) }
                return try startNode(block: true, indentless: true)
            }
            switch kind {
            case .key:
                try scanner.skip()
                // `?` with nothing after it: an empty key, which `deliver` reports.
                let next = try scanner.peekKind()
                if next == .value || next == .key || next == .blockEnd { return try finish(empty(at: mark)) }
                return try startNode(block: true, indentless: false)
            case .blockEnd:
                try scanner.skip()
                return try finish(close())
            default:
                throw failure(
                    "expected a key of the mapping that starts at \(topStart), found \(describe(scanner.peeked)); "
                        + "check the indentation",
                    at: mark)
            }
        case .flowSequence:
            if kind == .flowSequenceEnd {
                try scanner.skip()
                return try finish(close())
            }
            if top.needsSeparator {
                guard kind == .flowEntry else {
                    throw failure(
                        "expected ',' or ']' after an item of the sequence that starts at \(topStart), "
                            + "found \(describe(scanner.peeked))",
                        at: mark)
                }
                try scanner.skip()
                top.needsSeparator = false
                return
            }
            switch kind {
            case .key:
                try scanner.skip()
                try pushPair(at: mark)
                return try startNode(block: false, indentless: false)
            case .flowEntry:
                throw failure("expected an item before ','; remove the extra comma", at: mark)
            default:
                return try startNode(block: false, indentless: false)
            }
        case .flowPair:
            if top.needsSeparator { return try finish(close()) }
            guard kind == .value else { return try finish(empty(at: mark)) }
            try scanner.skip()
            let next = try scanner.peekKind()
            if next == .flowEntry || next == .flowSequenceEnd { return try finish(empty(at: mark)) }
            return try startNode(block: false, indentless: false)
        case .flowMapping:
            if top.expectingValue {
                guard kind == .value else { return try finish(empty(at: mark)) }
                try scanner.skip()
                let next = try scanner.peekKind()
                if next == .flowEntry || next == .flowMappingEnd { return try finish(empty(at: mark)) }
                return try startNode(block: false, indentless: false)
            }
            if kind == .flowMappingEnd {
                try scanner.skip()
                return try finish(close())
            }
            if top.needsSeparator {
                guard kind == .flowEntry else {
                    throw failure(
                        "expected ',' or '}' after a member of the mapping that starts at \(topStart), "
                            + "found \(describe(scanner.peeked))",
                        at: mark)
                }
                try scanner.skip()
                top.needsSeparator = false
                return
            }
            switch kind {
            case .key:
                try scanner.skip()
                return try startNode(block: false, indentless: false)
            case .flowEntry:
                throw failure("expected a key before ','; remove the extra comma", at: mark)
            default:
                return try startNode(block: false, indentless: false)
            }
        }
    }

    /// Opens the one-pair mapping of `[key: value]`.
    private mutating func pushPair(at mark: YAMLMark) throws(Diagnostic) {
        guard depth < YAMLReader.maximumDepth else { throw scanner.tooDeep(at: mark.offset) }
        let column = scanner.cursor.nodeColumn(mark)
        open(Frame(kind: .flowPair, startLine: mark.line, startColumn: column, nodeCountAtStart: nodeCount))
    }

    /// Hands a finished value to the innermost collection: an item, a key or a key's value.
    package mutating func deliver(_ node: consuming JSONNode) throws(Diagnostic) {
        switch top.kind {
        case .blockSequence, .indentlessSequence:
            top.elements.append(node)
        case .flowSequence:
            top.elements.append(node)
            top.needsSeparator = true
        case .blockMapping, .flowMapping, .flowPair:
            if !top.expectingValue {
                let key = try keyText(node)
                try checkUnique(key, at: node.location)
                top.key = key
                top.keyLine = node.location.line
                top.keyColumn = node.location.column
                top.isMergeKey = lastScalarIsMergeKey
                top.expectingValue = true
                return
            }
            top.expectingValue = false
            if top.kind != .blockMapping { top.needsSeparator = true }
            if top.isMergeKey {
                try addMerge(node)
            } else {
                // Swapping the pending key out moves it rather than retaining it only to
                // release it when the next key replaces it.
                var key = ""
                swap(&key, &top.key)
                let keyLocation = SourceLocation(file: scanner.cursor.file, line: top.keyLine, column: top.keyColumn)
                top.members.append(JSONMember(key: key, keyLocation: keyLocation, value: node))
            }
        }
    }

    /// A key's text: scalars as written (numbers in their plain decimal form), and an
    /// error for null and for collections, which JSON cannot hold as keys.
    private func keyText(_ node: JSONNode) throws(Diagnostic) -> String {
        switch node.value {
        case .string(let text): return text
        case .number(_, let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .null:
            throw Diagnostic.error(
                "a key cannot be null (empty, '~' or 'null'); write a key, or quote it to use it as text",
                at: node.location)
        case .object, .array:
            throw Diagnostic.error(
                "a mapping or sequence cannot be a key; keys must be scalars such as text or numbers",
                at: node.location)
        }
    }

    /// Throws when the innermost mapping already has `key`, or a second merge key.
    private mutating func checkUnique(_ key: String, at location: SourceLocation) throws(Diagnostic) {
        let count = top.members.count + top.mergeCount
        let first =
            top.keys.scans(count: count)
            ? DuplicateKeyIndex.scan(for: key, in: top.members)
            : top.keys.firstUse(of: key, at: location, among: top.members, count: count)
        if let first { throw duplicateKey(key, first: first, at: location) }
        if top.keys.isScanning, key == "<<", lastScalarIsMergeKey, top.mergeCount > 0 {
            throw Diagnostic.error(
                "duplicate merge key '<<'; merge several mappings with '<<: [*a, *b]'", at: location)
        }
    }

    /// The error for `key` written a second time, at `location`, first at `first`.
    package func duplicateKey(_ key: String, first: SourceLocation, at location: SourceLocation) -> Diagnostic {
        .error("duplicate key \(quoted(key)); it was first used at \(first.line):\(first.column)", at: location)
    }

    /// Records the value of a `<<` key: a mapping, or a sequence of mappings.
    private mutating func addMerge(_ node: JSONNode) throws(Diagnostic) {
        let sources: [JSONNode]
        switch node.value {
        case .object: sources = [node]
        case .array(let elements) where elements.allSatisfy({ $0.members != nil }): sources = elements
        default:
            throw Diagnostic.error(
                "a merge key ('<<') takes a mapping or a sequence of mappings, usually aliases such as *base; "
                    + "found \(node.kindName)",
                at: node.location)
        }
        openMerges.append(Merge(position: top.members.count, sources: sources))
        top.mergeCount += 1
    }

    /// Where the innermost collection starts, as `line:column` for messages.
    private var topStart: String {
        "\(top.startLine):\(top.startColumn)"
    }
}
