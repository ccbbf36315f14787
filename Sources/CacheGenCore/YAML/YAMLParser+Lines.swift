/// The parser's side of the scanner's line path: a `key: value` line of a block mapping
/// handed on as the tokens it stands for would have been.
extension YAMLParser {
    /// Hands on a key read by `YAMLScanner.blockMappingKey()`, then its value: a plain or
    /// quoted value on the same line directly, a mapping on the lines below by opening it
    /// and reading its first line the same way, anything else (or nothing) as after a `:` token.
    mutating func readLine(key: YAMLScanner.LineScalar, colon: YAMLMark) throws(Diagnostic) {
        var line = (key: key, colon: colon)
        while true {
            try finishLineScalar(line.key)
            if let value = try scanner.blockMappingValue() {
                return try finishLineScalar(value)
            }
            guard let nested = try scanner.blockMappingKey(opening: true) else { break }
            try push(.blockMapping, at: nested.key.mark, anchor: nil, tag: nil)
            line = nested
        }
        let next = try scanner.peekKind()
        if next == .key || next == .value || next == .blockEnd { return try finish(empty(at: line.colon)) }
        try startNode(block: true, indentless: true)
    }

    /// Hands on a scalar with no anchor or tag, as `startNode` would.
    private mutating func finishLineScalar(_ scalar: YAMLScanner.LineScalar) throws(Diagnostic) {
        lastScalarIsMergeKey = false
        var token = YAMLToken(kind: .scalar, mark: scalar.mark, text: scalar.text, style: scalar.style)
        try finishScalar(&token, tag: nil, anchor: nil)
    }
}
