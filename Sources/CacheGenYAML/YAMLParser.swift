import CacheGenReading

/// Builds located nodes from the scanner's tokens: an iterative parser whose open
/// collections live on an explicit stack, so deep input is an error, never a stack overflow.
package struct YAMLParser {
    /// The kinds of collection a frame can be.
    package enum FrameKind {
        case blockMapping, blockSequence, indentlessSequence, flowMapping, flowSequence
        /// `[key: value]`: a one-pair mapping inside a flow sequence.
        case flowPair
    }

    /// A mapping's pending merge (`<<`): where its members go and where they come from.
    package struct Merge {
        /// How many explicit members came before the `<<` key.
        package var position: Int
        /// The mappings to merge, earlier ones first.
        package var sources: [JSONNode]
    }

    /// A collection that has been opened and not yet closed.
    ///
    /// Frames are made and dropped for every collection, so a frame holds few counted
    /// references: locations as line and column (the file is the scanner's), and the
    /// rare anchor and merges on the parser's own stacks.
    package struct Frame {
        /// What the collection is.
        package var kind: FrameKind
        /// The line where the collection starts.
        package var startLine: Int
        /// The column where the collection starts.
        package var startColumn: Int
        /// A mapping's members so far.
        package var members: [JSONMember] = []
        /// A sequence's items so far.
        package var elements: [JSONNode] = []
        /// The key whose value is being read, for mappings.
        package var key = ""
        /// The line of `key`.
        package var keyLine = 0
        /// The column of `key`.
        package var keyColumn = 0
        /// Whether the pending key is the merge key `<<`.
        package var isMergeKey = false
        /// For mappings: a key has been read and its value has not.
        package var expectingValue = false
        /// For flow collections: an entry has been read, so `,` or the end comes next.
        package var needsSeparator = false
        /// The keys so far, for the duplicate-key check.
        package var keys = DuplicateKeyIndex()
        /// How many merges (`<<`) the mapping has: the last ones of `openMerges`.
        package var mergeCount = 0
        /// Whether the collection has an anchor: then its name is the last of `openAnchors`.
        package var isAnchored = false
        /// How many values had been built when this collection opened, for its size.
        package var nodeCountAtStart: Int
    }

    /// What `top` holds while no collection is open.
    package static let emptyFrame = Frame(kind: .blockSequence, startLine: 1, startColumn: 1, nodeCountAtStart: 0)

    package var scanner: YAMLScanner
    /// The open collections around the innermost one, outermost first.
    package var frames: [Frame] = []
    /// The innermost open collection when `depth > 0`. Kept out of `frames` so the hot
    /// path reads and changes it in place, never through an array's accessors (which
    /// copied the whole frame, retaining each of its arrays and strings).
    package var top = YAMLParser.emptyFrame
    /// How many collections are open: `frames` and `top`.
    package var depth = 0
    /// The anchors of the open collections that have one, outermost first.
    package var openAnchors: [String] = []
    /// The merges of the open mappings that have some, outermost mapping first.
    package var openMerges: [Merge] = []
    /// Anchored values by name, with how many values each holds.
    package var anchors: [String: (node: JSONNode, size: Int)] = [:]
    /// Values built so far, counting each alias as the values it copies.
    package var nodeCount = 0
    /// Values copied by aliases so far.
    package var aliasExpansion = 0
    /// Whether the last scalar read was a plain `<<`, the merge key.
    package var lastScalarIsMergeKey = false
    /// The document's value, once it is complete.
    package var root: JSONNode?

    package init(scanner: YAMLScanner) {
        self.scanner = scanner
    }

    // MARK: - Document

    /// Reads the stream's one document.
    package mutating func parseDocument() throws(Diagnostic) -> JSONNode {
        var token = try scanner.peek()
        if token.kind == .directive {
            try scanner.skip()
            token = try scanner.peek()
            guard token.kind == .documentStart else {
                throw failure("a %YAML directive must be followed by '---' on its own line", at: token.mark)
            }
        }
        var explicitStart: YAMLToken?
        if token.kind == .documentStart {
            explicitStart = try scanner.next()
            token = try scanner.peek()
        }
        let root: JSONNode
        switch token.kind {
        case .streamEnd, .documentEnd, .documentStart:
            guard let explicitStart else {
                throw failure("the file holds no YAML document; expected a value", at: token.mark)
            }
            root = JSONNode(value: .null, location: scanner.cursor.location(explicitStart.mark))
        default:
            root = try parseRoot()
        }
        token = try scanner.peek()
        var ended = false
        while token.kind == .documentEnd {
            ended = true
            try scanner.skip()
            token = try scanner.peek()
        }
        switch token.kind {
        case .streamEnd:
            return root
        case .documentStart, .directive:
            throw failure(
                "a second document starts here; a file may hold only one YAML document", at: token.mark)
        default:
            if ended {
                throw failure(
                    "content after the end of the document ('...'); a file may hold only one YAML document",
                    at: token.mark)
            }
            throw failure(
                "found \(describe(token)) after the document's top-level value; check the indentation",
                at: token.mark)
        }
    }

    /// Reads one complete value, including everything nested in it.
    private mutating func parseRoot() throws(Diagnostic) -> JSONNode {
        try startNode(block: true, indentless: false)
        while true {
            if let root = root.take() { return root }
            try step()
        }
    }

    /// Hands a finished value to the innermost open collection, or makes it the root.
    package mutating func finish(_ node: consuming JSONNode) throws(Diagnostic) {
        if depth == 0 {
            root = node
        } else {
            try deliver(node)
        }
    }

    // MARK: - Values

    /// Reads a value's anchor and tag, then the value itself when it is a scalar or an
    /// alias (handed on with `finish`), or opens the collection it starts.
    package mutating func startNode(block: Bool, indentless: Bool) throws(Diagnostic) {
        var anchor: YAMLToken?
        var tag: YAMLToken?
        var kind = try scanner.peekKind()
        while kind == .anchor || kind == .tag {
            let token = try scanner.next()
            if kind == .anchor {
                if anchor != nil { throw failure("a value has two anchors; keep one", at: token.mark) }
                anchor = token
            } else {
                if tag != nil { throw failure("a value has two tags; keep one", at: token.mark) }
                tag = token
            }
            kind = try scanner.peekKind()
        }
        lastScalarIsMergeKey = false
        let mark = scanner.peekedMark
        switch kind {
        case .alias:
            if let property = anchor ?? tag {
                throw failure("an alias cannot have an anchor or a tag; remove it", at: property.mark)
            }
            let token = try scanner.next()
            guard let entry = anchors[token.text] else {
                throw failure(
                    "unknown alias '*\(MessageText.excerpt(token.text))'; define the anchor "
                        + "'&\(MessageText.excerpt(token.text))' before using it",
                    at: token.mark)
            }
            aliasExpansion += entry.size
            nodeCount += entry.size
            if aliasExpansion > YAMLReader.maximumAliasExpansion {
                throw failure(
                    "aliases expand to more than \(YAMLReader.maximumAliasExpansion) values; "
                        + "the document repeats itself too much to read safely",
                    at: token.mark)
            }
            var node = entry.node
            node.location = scanner.cursor.nodeLocation(mark)
            try finish(node)
        case .scalar:
            var token = try scanner.next()
            try finishScalar(&token, tag: tag, anchor: anchor)
        case .flowSequenceStart, .flowMappingStart:
            try scanner.skip()
            let isMapping = kind == .flowMappingStart
            try push(isMapping ? .flowMapping : .flowSequence, at: mark, anchor: anchor, tag: tag)
            return
        case .blockSequenceStart where block, .blockMappingStart where block:
            try scanner.skip()
            let isMapping = kind == .blockMappingStart
            try push(isMapping ? .blockMapping : .blockSequence, at: mark, anchor: anchor, tag: tag)
            return
        case .blockEntry where indentless:
            try push(.indentlessSequence, at: mark, anchor: anchor, tag: tag)
            return
        default:
            guard let property = anchor ?? tag else {
                throw failure("expected a value, found \(describe(scanner.peeked))", at: mark)
            }
            let node = JSONNode(value: try resolveEmpty(tag: tag), location: scanner.cursor.nodeLocation(property.mark))
            nodeCount += 1
            if let anchor { anchors[anchor.text] = (node, 1) }
            try finish(node)
        }
    }

    /// Resolves a scalar (moving its text out of `token`) and hands the value on.
    package mutating func finishScalar(_ token: inout YAMLToken, tag: YAMLToken?, anchor: YAMLToken?) throws(Diagnostic)
    {
        let node = JSONNode(value: try resolve(&token, tag: tag), location: scanner.cursor.nodeLocation(token.mark))
        if tag == nil, token.style == .plain, case .string(let text) = node.value, text.utf8.count == 2 {
            lastScalarIsMergeKey = text == "<<"
        }
        nodeCount += 1
        if let anchor { anchors[anchor.text] = (node, 1) }
        try finish(node)
    }

    /// An empty value (`key:` with nothing after it): null.
    package mutating func empty(at mark: YAMLMark) -> JSONNode {
        nodeCount += 1
        return JSONNode(value: .null, location: scanner.cursor.nodeLocation(mark))
    }

    /// Opens a collection.
    package mutating func push(
        _ kind: FrameKind, at mark: YAMLMark, anchor: YAMLToken?, tag: YAMLToken?
    ) throws(Diagnostic) {
        guard depth < YAMLReader.maximumDepth else { throw scanner.tooDeep(at: mark.offset) }
        let isMapping = kind == .blockMapping || kind == .flowMapping || kind == .flowPair
        if let tag, tag.tag != .nonSpecific, tag.tag != (isMapping ? .mapping : .sequence) {
            throw failure(
                "the tag '\(tag.tag.name)' cannot be on a \(isMapping ? "mapping" : "sequence"); remove it",
                at: tag.mark)
        }
        let column = scanner.cursor.nodeColumn(mark)
        if let anchor { openAnchors.append(anchor.text) }
        open(
            Frame(
                kind: kind, startLine: mark.line, startColumn: column, isAnchored: anchor != nil,
                nodeCountAtStart: nodeCount))
        // Most collections in API descriptions have a few entries: one allocation, not three.
        if isMapping { top.members.reserveCapacity(4) } else { top.elements.reserveCapacity(4) }
    }

    /// Makes `frame` the innermost open collection.
    package mutating func open(_ frame: consuming Frame) {
        var frame = frame
        swap(&frame, &top)
        if depth > 0 { frames.append(frame) }
        depth += 1
    }

    /// Closes the innermost collection and returns it as a value.
    package mutating func close() -> JSONNode {
        var frame = depth > 1 ? frames.removeLast() : Self.emptyFrame
        swap(&frame, &top)
        depth -= 1
        let value: JSONNode.Value
        switch frame.kind {
        case .blockSequence, .indentlessSequence, .flowSequence:
            value = .array(frame.elements)
        case .blockMapping, .flowMapping, .flowPair:
            if frame.mergeCount == 0 {
                value = .object(frame.members)
            } else {
                let merges = Array(openMerges.suffix(frame.mergeCount))
                openMerges.removeLast(frame.mergeCount)
                value = .object(Self.merged(frame.members, merges))
            }
        }
        let node = JSONNode(
            value: value,
            location: SourceLocation(file: scanner.cursor.file, line: frame.startLine, column: frame.startColumn))
        nodeCount += 1
        if frame.isAnchored {
            let anchor = openAnchors.removeLast()
            anchors[anchor] = (node, nodeCount - frame.nodeCountAtStart)
        }
        return node
    }

    /// The members of a mapping with `<<` keys: its own members, and in place of each
    /// `<<` the members of the mappings it names that the mapping does not set itself.
    private static func merged(_ members: [JSONMember], _ merges: [Merge]) -> [JSONMember] {
        var present = Set(members.map(\.key))
        var result: [JSONMember] = []
        var next = 0
        for merge in merges {
            result.append(contentsOf: members[next..<merge.position])
            next = merge.position
            for source in merge.sources {
                for member in source.members ?? [] where !present.contains(member.key) {
                    present.insert(member.key)
                    result.append(member)
                }
            }
        }
        result.append(contentsOf: members[next...])
        return result
    }
}
