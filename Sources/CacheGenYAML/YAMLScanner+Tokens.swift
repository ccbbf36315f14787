import CacheGenReading

/// One fetch per kind of token: each keeps the simple-key and indentation state as
/// YAML 1.2 (and libyaml) require, then queues its token.
extension YAMLScanner {
    package mutating func fetchStreamEnd() throws(Diagnostic) {
        unwindIndent(column: -1)
        try removeSimpleKey()
        allowSimpleKey = false
        tokens.append(YAMLToken(kind: .streamEnd, mark: mark))
        streamEnded = true
    }

    package mutating func fetchDirective() throws(Diagnostic) {
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
        while bytes[index] == ASCII.space || bytes[index] == ASCII.tab { index += 1 }
        let versionStart = index
        while !YAMLByte.isBlankOrEnd(bytes[index]) { index += 1 }
        let version = String(decoding: bytes[versionStart..<index], as: UTF8.self)
        guard version == "1.2" || version == "1.1" else {
            throw failure("the YAML version \(quoted(version)) is not supported; write %YAML 1.2", at: versionStart)
        }
        position = index
        tokens.append(YAMLToken(kind: .directive, mark: start))
    }

    package mutating func fetchDocumentIndicator(_ kind: YAMLToken.Kind) throws(Diagnostic) {
        if flowLevel > 0 {
            throw failure("a document marker inside a flow collection; close the collection first", at: position)
        }
        unwindIndent(column: -1)
        try removeSimpleKey()
        allowSimpleKey = false
        tokens.append(YAMLToken(kind: kind, mark: mark))
        position += 3
    }

    package mutating func fetchFlowCollectionStart(_ kind: YAMLToken.Kind) throws(Diagnostic) {
        try saveSimpleKey()
        guard flowLevel < YAMLReader.maximumDepth else { throw tooDeep(at: position) }
        flowLevel += 1
        simpleKeys.append(nil)
        allowSimpleKey = true
        tokens.append(YAMLToken(kind: kind, mark: mark))
        position += 1
    }

    package mutating func fetchFlowCollectionEnd(_ kind: YAMLToken.Kind) throws(Diagnostic) {
        guard flowLevel > 0 else {
            throw failure("'\(Character(Unicode.Scalar(bytes[position])))' closes nothing; remove it", at: position)
        }
        try removeSimpleKey()
        flowLevel -= 1
        simpleKeys.removeLast()
        while let level = explicitKeyLevels.last, level > flowLevel { explicitKeyLevels.removeLast() }
        allowSimpleKey = false
        tokens.append(YAMLToken(kind: kind, mark: mark))
        position += 1
        adjacentValueAllowed = true
    }

    package mutating func fetchFlowEntry() throws(Diagnostic) {
        guard flowLevel > 0 else {
            throw failure("',' outside a flow collection; quote the value if the comma belongs to it", at: position)
        }
        allowSimpleKey = true
        try removeSimpleKey()
        tokens.append(YAMLToken(kind: .flowEntry, mark: mark))
        position += 1
    }

    package mutating func fetchBlockEntry() throws(Diagnostic) {
        guard flowLevel == 0 else {
            throw failure("'- ' entries are not allowed inside a flow collection; separate items with ','", at: position)
        }
        guard allowSimpleKey else {
            throw failure("a sequence entry ('- ') is not allowed here; start it on a new line", at: position)
        }
        if !isOnlyWhitespace(from: lineStart, to: position, allowing: ASCII.minus, tabs: false) {
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

    /// `? `: an explicit key, whose `:` may follow on a later line (`? key` / `: value`).
    package mutating func fetchExplicitKey() throws(Diagnostic) {
        if flowLevel == 0 {
            guard allowSimpleKey else {
                throw failure("an explicit key ('? ') is not allowed here; start it on a new line", at: position)
            }
            if addIndent(position - lineStart) { tokens.append(YAMLToken(kind: .blockMappingStart, mark: mark)) }
        }
        try removeSimpleKey()
        allowSimpleKey = flowLevel == 0
        explicitKeyLevels.append(flowLevel)
        tokens.append(YAMLToken(kind: .key, mark: mark))
        position += 1
    }

    package mutating func fetchValue() throws(Diagnostic) {
        if let key = simpleKeys[flowLevel] {
            simpleKeys[flowLevel] = nil
            pendingSimpleKeys -= 1
            // The key's token is still queued; the key (and a mapping it opens) are marked
            // on it rather than inserted before it, which would move the tokens after it.
            let index = head + key.tokenNumber - tokensTaken
            tokens[index].implied |= YAMLToken.impliesKey
            if flowLevel == 0, addIndent(key.mark.column) {
                tokens[index].implied |= YAMLToken.impliesMappingStart
            }
            allowSimpleKey = false
        } else if explicitKeyLevels.last == flowLevel {
            // The `:` of an explicit key (`? key` then `: value`), as libyaml reads it.
            explicitKeyLevels.removeLast()
            if flowLevel == 0 {
                guard allowSimpleKey else {
                    throw failure("':' is not allowed here; start the value of an explicit key on a new line", at: position)
                }
                if addIndent(position - lineStart) { tokens.append(YAMLToken(kind: .blockMappingStart, mark: mark)) }
            }
            allowSimpleKey = flowLevel == 0
        } else if flowLevel == 0 && !allowSimpleKey {
            throw failure("':' is not allowed here; quote the value if it contains ': '", at: position)
        } else {
            throw failure("':' with no key before it on the same line; write 'key: value' on one line", at: position)
        }
        tokens.append(YAMLToken(kind: .value, mark: mark))
        position += 1
    }

    package mutating func fetchAnchorOrAlias(_ kind: YAMLToken.Kind) throws(Diagnostic) {
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

    package mutating func fetchTag() throws(Diagnostic) {
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

    package mutating func fetchBlockScalar(folded: Bool) throws(Diagnostic) {
        allowSimpleKey = true
        try removeSimpleKey()
        let start = mark
        let text = try scanBlockScalar(folded: folded)
        tokens.append(YAMLToken(kind: .scalar, mark: start, text: text, style: folded ? .folded : .literal))
    }

    package mutating func fetchFlowScalar(double: Bool) throws(Diagnostic) {
        try saveSimpleKey()
        allowSimpleKey = false
        let start = mark
        let text = try scanFlowScalar(double: double)
        tokens.append(
            YAMLToken(kind: .scalar, mark: start, text: text, style: double ? .doubleQuoted : .singleQuoted))
    }

    package mutating func fetchPlain() throws(Diagnostic) {
        try saveSimpleKey()
        allowSimpleKey = false
        let start = mark
        let text = try scanPlain()
        tokens.append(YAMLToken(kind: .scalar, mark: start, text: text, style: .plain))
    }
}
