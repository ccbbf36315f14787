import CacheGenReading

/// One fetch per kind of token: each keeps the simple-key and indentation state as
/// YAML 1.2 (and libyaml) require, then queues its token.
extension YAMLScanner {
    package mutating func fetchStreamEnd() throws(Diagnostic) {
        unwindIndent(column: -1)
        try removeSimpleKey()
        allowSimpleKey = false
        queue.append(YAMLToken(kind: .streamEnd, mark: cursor.mark))
        streamEnded = true
    }

    package mutating func fetchDirective() throws(Diagnostic) {
        unwindIndent(column: -1)
        try removeSimpleKey()
        allowSimpleKey = false
        let start = cursor.mark
        var index = cursor.position + 1
        while !YAMLByte.isBlankOrEnd(cursor.bytes[index]) { index += 1 }
        let name = String(decoding: cursor.bytes[(cursor.position + 1)..<index], as: UTF8.self)
        guard name == "YAML" else {
            throw cursor.failure("the directive '%\(name)' is not supported; only %YAML is", at: cursor.position)
        }
        while cursor.bytes[index] == ASCII.space || cursor.bytes[index] == ASCII.tab { index += 1 }
        let versionStart = index
        while !YAMLByte.isBlankOrEnd(cursor.bytes[index]) { index += 1 }
        let version = String(decoding: cursor.bytes[versionStart..<index], as: UTF8.self)
        guard version == "1.2" || version == "1.1" else {
            throw cursor.failure(
                "the YAML version \(quoted(version)) is not supported; write %YAML 1.2", at: versionStart)
        }
        cursor.position = index
        queue.append(YAMLToken(kind: .directive, mark: start))
    }

    package mutating func fetchDocumentIndicator(_ kind: YAMLToken.Kind) throws(Diagnostic) {
        if flowLevel > 0 {
            throw cursor.failure(
                "a document marker inside a flow collection; close the collection first", at: cursor.position)
        }
        unwindIndent(column: -1)
        try removeSimpleKey()
        allowSimpleKey = false
        queue.append(YAMLToken(kind: kind, mark: cursor.mark))
        cursor.position += 3
    }

    package mutating func fetchFlowCollectionStart(_ kind: YAMLToken.Kind) throws(Diagnostic) {
        try saveSimpleKey()
        guard flowLevel < YAMLReader.maximumDepth else { throw tooDeep(at: cursor.position) }
        flowLevel += 1
        simpleKeys.append(nil)
        allowSimpleKey = true
        queue.append(YAMLToken(kind: kind, mark: cursor.mark))
        cursor.position += 1
    }

    package mutating func fetchFlowCollectionEnd(_ kind: YAMLToken.Kind) throws(Diagnostic) {
        guard flowLevel > 0 else {
            throw cursor.failure(
                "'\(Character(Unicode.Scalar(cursor.bytes[cursor.position])))' closes nothing; remove it",
                at: cursor.position)
        }
        try removeSimpleKey()
        flowLevel -= 1
        simpleKeys.removeLast()
        while let level = explicitKeyLevels.last, level > flowLevel { explicitKeyLevels.removeLast() }
        allowSimpleKey = false
        queue.append(YAMLToken(kind: kind, mark: cursor.mark))
        cursor.position += 1
        adjacentValueAllowed = true
    }

    package mutating func fetchFlowEntry() throws(Diagnostic) {
        guard flowLevel > 0 else {
            throw cursor.failure(
                "',' outside a flow collection; quote the value if the comma belongs to it", at: cursor.position)
        }
        allowSimpleKey = true
        try removeSimpleKey()
        queue.append(YAMLToken(kind: .flowEntry, mark: cursor.mark))
        cursor.position += 1
    }

    package mutating func fetchBlockEntry() throws(Diagnostic) {
        guard flowLevel == 0 else {
            throw cursor.failure(
                "'- ' entries are not allowed inside a flow collection; separate items with ','", at: cursor.position)
        }
        guard allowSimpleKey else {
            throw cursor.failure(
                "a sequence entry ('- ') is not allowed here; start it on a new line", at: cursor.position)
        }
        if !cursor.isOnlyWhitespace(from: cursor.lineStart, to: cursor.position, allowing: ASCII.minus, tabs: false) {
            throw cursor.failure("a tab separates this '- ' from the one before it; use spaces", at: cursor.position)
        }
        if addIndent(cursor.position - cursor.lineStart) {
            queue.append(YAMLToken(kind: .blockSequenceStart, mark: cursor.mark))
        }
        allowSimpleKey = true
        try removeSimpleKey()
        queue.append(YAMLToken(kind: .blockEntry, mark: cursor.mark))
        cursor.position += 1
    }

    /// `? `: an explicit key, whose `:` may follow on a later line (`? key` / `: value`).
    package mutating func fetchExplicitKey() throws(Diagnostic) {
        if flowLevel == 0 {
            guard allowSimpleKey else {
                throw cursor.failure(
                    "an explicit key ('? ') is not allowed here; start it on a new line", at: cursor.position)
            }
            if addIndent(cursor.position - cursor.lineStart) {
                queue.append(YAMLToken(kind: .blockMappingStart, mark: cursor.mark))
            }
        }
        try removeSimpleKey()
        allowSimpleKey = flowLevel == 0
        explicitKeyLevels.append(flowLevel)
        queue.append(YAMLToken(kind: .key, mark: cursor.mark))
        cursor.position += 1
    }

    package mutating func fetchValue() throws(Diagnostic) {
        if let key = simpleKeys[flowLevel] {
            simpleKeys[flowLevel] = nil
            pendingSimpleKeys -= 1
            // The key's token is still queued; the key (and a mapping it opens) are marked
            // on it rather than inserted before it, which would move the tokens after it.
            queue.imply(YAMLToken.impliesKey, before: key.tokenNumber)
            if flowLevel == 0, addIndent(key.mark.column) {
                queue.imply(YAMLToken.impliesMappingStart, before: key.tokenNumber)
            }
            allowSimpleKey = false
        } else if explicitKeyLevels.last == flowLevel {
            // The `:` of an explicit key (`? key` then `: value`), as libyaml reads it.
            explicitKeyLevels.removeLast()
            if flowLevel == 0 {
                guard allowSimpleKey else {
                    throw cursor.failure(
                        "':' is not allowed here; start the value of an explicit key on a new line", at: cursor.position
                    )
                }
                if addIndent(cursor.position - cursor.lineStart) {
                    queue.append(YAMLToken(kind: .blockMappingStart, mark: cursor.mark))
                }
            }
            allowSimpleKey = flowLevel == 0
        } else if flowLevel == 0 && !allowSimpleKey {
            throw cursor.failure("':' is not allowed here; quote the value if it contains ': '", at: cursor.position)
        } else {
            throw cursor.failure(
                "':' with no key before it on the same line; write 'key: value' on one line", at: cursor.position)
        }
        queue.append(YAMLToken(kind: .value, mark: cursor.mark))
        cursor.position += 1
    }

    package mutating func fetchAnchorOrAlias(_ kind: YAMLToken.Kind) throws(Diagnostic) {
        try saveSimpleKey()
        allowSimpleKey = false
        let start = cursor.mark
        var index = cursor.position + 1
        while !YAMLByte.isBlankOrEnd(cursor.bytes[index]), !YAMLByte.isFlowIndicator(cursor.bytes[index]) { index += 1 }
        guard index > cursor.position + 1 else {
            let what = kind == .alias ? "an alias ('*')" : "an anchor ('&')"
            throw cursor.failure(
                "\(what) needs a name, as in \(kind == .alias ? "*name" : "&name")", at: cursor.position)
        }
        let name = String(decoding: cursor.bytes[(cursor.position + 1)..<index], as: UTF8.self)
        cursor.position = index
        queue.append(YAMLToken(kind: kind, mark: start, text: name))
    }

    package mutating func fetchTag() throws(Diagnostic) {
        try saveSimpleKey()
        allowSimpleKey = false
        let start = cursor.mark
        var index = cursor.position + 1
        while !YAMLByte.isBlankOrEnd(cursor.bytes[index]),
            !(flowLevel > 0 && YAMLByte.isFlowIndicator(cursor.bytes[index]))
        {
            index += 1
        }
        let written = String(decoding: cursor.bytes[cursor.position..<index], as: UTF8.self)
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
            throw cursor.failure(
                "the tag '\(MessageText.excerpt(written))' is not supported; "
                    + "only !!str, !!int, !!float, !!bool, !!null, !!map, !!seq and ! are",
                at: cursor.position)
        }
        cursor.position = index
        queue.append(YAMLToken(kind: .tag, mark: start, tag: tag))
    }

    package mutating func fetchBlockScalar(folded: Bool) throws(Diagnostic) {
        allowSimpleKey = true
        try removeSimpleKey()
        let start = cursor.mark
        let text = try scalars.readBlock(&cursor, folded: folded, indent: indent)
        queue.append(YAMLToken(kind: .scalar, mark: start, text: text, style: folded ? .folded : .literal))
    }

    package mutating func fetchFlowScalar(double: Bool) throws(Diagnostic) {
        try saveSimpleKey()
        allowSimpleKey = false
        let start = cursor.mark
        let text = try scalars.readQuoted(&cursor, double: double, indent: indent, flowLevel: flowLevel)
        queue.append(
            YAMLToken(kind: .scalar, mark: start, text: text, style: double ? .doubleQuoted : .singleQuoted))
    }

    package mutating func fetchPlain() throws(Diagnostic) {
        try saveSimpleKey()
        allowSimpleKey = false
        let start = cursor.mark
        let text = try scalars.readPlain(&cursor, indent: indent, flowLevel: flowLevel)
        // A plain scalar over more than one line ends where a simple key may start.
        if cursor.line != start.line { allowSimpleKey = true }
        queue.append(YAMLToken(kind: .scalar, mark: start, text: text, style: .plain))
    }
}
