import CacheGenReading

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Reading a large document in parts, one per core: the entries of its top-level mapping
/// are split into runs of about equal size, each run is read as a document of its own (a
/// mapping of those entries), and the runs' members are joined in order.
///
/// A 3 MB API description takes a third of a second to read on one core, and everything
/// after it waits for the whole document. Its top level is nearly always a block mapping of a
/// few large entries (`paths`, `components`) whose keys start lines in column 0, and nothing
/// else can start a line there in a valid document at that level: a value's own lines (a
/// plain, quoted or block scalar's, a flow collection's) must be indented more than the
/// mapping (or, for a sequence's items, `- `, as much). So each column-0 key line starts an
/// entry, and a run of entries read alone gives the same keys and values, at the same lines
/// and columns, as when read with the rest.
///
/// The parts are used only when that reasoning holds for sure; otherwise the document is
/// read whole, as before, and the reader's result and messages are always the same:
/// - every line in column 0 is blank, a comment, an item of a sequence (`- `), or starts
///   with a letter, digit, `$`, `_` or `/` (no `---`, `...`, `%`, `?`, quote, anchor, alias,
///   tag, merge key or tab), and the file has no carriage return and no byte order mark;
/// - every part reads without error as a mapping, and no key appears in two parts;
/// - the parts' aliases copy no more values in all than one document may.
/// An alias to an anchor in an earlier part, or any other error, makes its part fail, and the
/// whole document is then read again in one piece, which gives the usual value or message.
extension YAMLReader {
    /// Documents smaller than this are read in one piece: the parts would save too little.
    package static let partSize = 256 * 1024

    /// The most parts a document is read in.
    package static let maximumParts = 8

    /// The document read in parts on all cores, or `nil` when it must be read whole.
    /// - Parameters:
    ///   - bytes: the file's bytes followed by `YAMLCursor.padding` zero bytes.
    ///   - count: the length of the file, without the padding.
    package static func parseInParts(_ bytes: [UInt8], count: Int, file: String) -> JSONNode? {
        let starts = partStarts(bytes, count: count)
        guard starts.count > 1 else { return nil }
        let ends = starts.dropFirst().map(\.offset) + [count]
        let parts = Parallel.map(count: starts.count) { index -> (root: JSONNode, aliasExpansion: Int)? in
            parsePart(bytes, from: starts[index], to: ends[index], file: file)
        }
        var members: [JSONMember] = []
        var keys: Set<String> = []
        var aliasExpansion = 0
        for part in parts {
            guard let part, let partMembers = part.root.members else { return nil }
            for member in partMembers {
                guard keys.insert(member.key).inserted else { return nil }
            }
            members += partMembers
            aliasExpansion += part.aliasExpansion
        }
        guard aliasExpansion <= maximumAliasExpansion, let first = parts[0] else { return nil }
        return JSONNode(value: .object(members), location: first.root.location)
    }

    /// Where a part starts: a byte offset at the start of a line, and that line's number.
    private struct PartStart {
        package var offset: Int
        package var line: Int
    }

    /// Where each part starts: the file's start, then the column-0 key lines nearest to equal
    /// shares of the file; just the file's start when it is too small or may not be split.
    private static func partStarts(_ bytes: [UInt8], count: Int) -> [PartStart] {
        let whole = [PartStart(offset: 0, line: 1)]
        let partCount = min(maximumParts, count / partSize)
        guard partCount > 1 else { return whole }
        var keyLines: [PartStart] = []
        let mayBeSplit = bytes.withUnsafeBufferPointer { buffer -> Bool in
            guard let base = UnsafeRawPointer(buffer.baseAddress) else { return false }
            var line = 1
            // Whether the line starting at `lineStart` may be in a part (and notes key lines).
            func allows(lineStart: Int) -> Bool {
                switch buffer[lineStart] {
                case ASCII.space, ASCII.lineFeed, YAMLByte.hash, YAMLByte.end:
                    // An indented line, an empty one, a comment, or the end of the file.
                    return true
                case ASCII.minus where buffer[lineStart + 1] == ASCII.space || buffer[lineStart + 1] == ASCII.lineFeed:
                    // An item of a sequence as indented as its key (`tags:` then `- name: …`),
                    // inside the entry that key starts.
                    return true
                case let first where YAMLByte.startsLinePath(first):
                    keyLines.append(PartStart(offset: lineStart, line: line))
                    return true
                default:
                    return false
                }
            }
            // A file with carriage returns is read whole.
            guard allows(lineStart: 0), memchr(base, Int32(ASCII.carriageReturn), count) == nil else { return false }
            // From line feed to line feed with `memchr`, which looks at many bytes at a time.
            var index = 0
            while index < count, let found = memchr(base + index, Int32(ASCII.lineFeed), count - index) {
                index = base.distance(to: UnsafeRawPointer(found)) + 1
                line += 1
                guard allows(lineStart: index) else { return false }
            }
            return true
        }
        // The first key line starts the mapping (part 0 also holds any comments before it).
        guard mayBeSplit, keyLines.count > 1 else { return whole }
        var starts = whole
        var next = 1
        for share in 1..<partCount {
            let target = count * share / partCount
            while next < keyLines.count, keyLines[next].offset < target { next += 1 }
            guard next < keyLines.count else { break }
            starts.append(keyLines[next])
            next += 1
        }
        return starts
    }

    /// One part, `bytes[start.offset..<end]`, read as a document of its own that starts at
    /// line `start.line`; `nil` when it does not read.
    private static func parsePart(_ bytes: [UInt8], from start: PartStart, to end: Int, file: String)
        -> (root: JSONNode, aliasExpansion: Int)?
    {
        var part: [UInt8] = []
        part.reserveCapacity(end - start.offset + YAMLCursor.padding)
        part.append(contentsOf: bytes[start.offset..<end])
        part.append(contentsOf: repeatElement(0, count: YAMLCursor.padding))
        var parser = YAMLParser(scanner: YAMLScanner(paddedBytes: part, start: 0, file: file, line: start.line))
        guard let root = try? parser.parseDocument() else { return nil }
        return (root, parser.aliasExpansion)
    }
}
