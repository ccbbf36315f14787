/// The tokens `YAMLScanner` has scanned and the parser has not yet taken, numbered from the
/// start of the input so a simple key can name the token it starts at.
///
/// A key and a block mapping found only when the `:` after them is seen are marked on the
/// token they precede (`YAMLToken.implied`) rather than inserted before it, and are taken
/// from it first.
package struct YAMLTokenQueue {
    /// Tokens scanned and not yet taken: `tokens[head...]`.
    package var tokens: [YAMLToken] = []
    /// The first token not yet taken.
    package var head = 0
    /// Tokens taken so far, counting those the scanner's line path read without queueing.
    package var taken = 0

    /// An empty queue.
    package init() {}

    /// Whether every scanned token has been taken.
    @inline(__always) package var isEmpty: Bool { head == tokens.count }

    /// The number the next token queued will have.
    package var nextNumber: Int { taken + tokens.count - head }

    /// Queues a token.
    @inline(__always) package mutating func append(_ token: YAMLToken) {
        tokens.append(token)
    }

    /// Marks the token numbered `number`, still queued, as preceded by the implied tokens `flags`.
    package mutating func imply(_ flags: UInt8, before number: Int) {
        tokens[head + number - taken].implied |= flags
    }

    /// The kind of the next token, after any tokens implied before it.
    @inline(__always) package var headKind: YAMLToken.Kind { Self.kind(of: tokens[head]) }

    /// The kind a queued token reads as: one of the tokens implied before it, if any are left.
    @inline(__always) private static func kind(of token: YAMLToken) -> YAMLToken.Kind {
        if token.implied == 0 { return token.kind }
        return token.implied & YAMLToken.impliesMappingStart != 0 ? .blockMappingStart : .key
    }

    /// The next token, without taking it.
    package var peeked: YAMLToken {
        let token = tokens[head]
        if token.implied == 0 { return token }
        return YAMLToken(kind: Self.kind(of: token), mark: token.mark)
    }

    /// Where the next token starts.
    package var peekedMark: YAMLMark { tokens[head].mark }

    /// Takes the next token, moving it out of the queue; the stream-end token is returned
    /// again and again.
    @inline(__always)
    package mutating func take() -> YAMLToken {
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
    package mutating func drop() {
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
        taken += 1
        // Emptied in batches: clearing after every token costs more than the tokens.
        if head == tokens.count && head >= 64 {
            tokens.removeAll(keepingCapacity: true)
            head = 0
        }
    }
}
