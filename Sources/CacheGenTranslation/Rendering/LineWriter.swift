/// Lines with indentation, so that no other code counts spaces; lines are at most 120
/// characters wide where the renderer can wrap them, indented four spaces a level.
package struct LineWriter: TextSink {
    // UTF-8 bytes in one buffer, made into the file's text once at the end: appending to a
    // `String` piece by piece costs several times more.
    private var bytes: [UInt8] = []
    private var depth = 0
    /// What the last line was, for `blank()`.
    private var last = Last.nothing
    private static let indent = 4
    private static let width = 120

    private enum Last {
        case nothing, blank, opening, other
    }

    package var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Writes one whole line; an empty one has no indentation.
    package mutating func write(_ line: String) {
        guard !line.isEmpty else {
            bytes.append(UInt8(ascii: "\n"))
            last = .blank
            return
        }
        startLine()
        append(line)
        endLine()
    }

    /// Starts a line that `append(_:)` fills and `endLine()` ends.
    package mutating func startLine() {
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * Self.indent))
    }

    package mutating func append(_ piece: String) {
        bytes.append(contentsOf: piece.utf8)
    }

    package mutating func append(syntax: StaticString) {
        // A few bytes: one at a time costs less than a bulk copy's setup.
        syntax.withUTF8Buffer { buffer in
            for byte in buffer { bytes.append(byte) }
        }
    }

    package mutating func endLine() {
        last = bytes.last == UInt8(ascii: "{") ? .opening : .other
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Adds one empty line, never two in a row and never at the start of a block.
    package mutating func blank() {
        guard last == .other else { return }
        bytes.append(UInt8(ascii: "\n"))
        last = .blank
    }

    /// The width left at the current depth.
    package var room: Int { Self.width - depth * Self.indent }

    /// Whether a line of `bytes` UTF-8 bytes fits in the width at the current depth; the
    /// width counts characters, computed only when the bytes alone do not settle it.
    package func fits(bytes: Int, characters: @autoclosure () -> Int) -> Bool {
        bytes <= room || characters() <= room
    }

    package mutating func indented(_ body: (inout LineWriter) -> Void) {
        depth += 1
        body(&self)
        depth -= 1
    }
}
