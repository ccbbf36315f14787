/// The parser's side of the scanner's line path: a `key: value` line of a block mapping
/// handed on as the tokens it stands for would have been.
extension YAMLParser {
    /// Hands on a key read by `YAMLScanner.blockMappingKey()`, then its value: a plain
    /// value on the same line directly, anything else (or nothing) as after a `:` token.
    mutating func readLine(key: YAMLScanner.LineScalar, colon: YAMLMark) throws(Diagnostic) {
        try finishLineScalar(key)
        if let value = try scanner.blockMappingValue() {
            return try finishLineScalar(value)
        }
        let next = try scanner.peekKind()
        if next == .key || next == .value || next == .blockEnd { return try finish(empty(at: colon)) }
        try startNode(block: true, indentless: true)
    }

    /// Hands on a scalar with no anchor or tag, as `startNode` would.
    private mutating func finishLineScalar(_ scalar: YAMLScanner.LineScalar) throws(Diagnostic) {
        lastScalarIsMergeKey = false
        var token = YAMLToken(kind: .scalar, mark: scalar.mark, text: scalar.text, style: scalar.style)
        try finishScalar(&token, tag: nil, anchor: nil)
    }
}
