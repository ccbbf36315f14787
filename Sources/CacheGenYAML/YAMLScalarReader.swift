import CacheGenReading

/// Reads the scalars whose text is more than a run of the input: plain scalars folded over
/// lines, quoted ones with their escapes (`YAMLScalarReader+Quoted.swift`) and block scalars
/// with their chomping (`YAMLScalarReader+Block.swift`), per YAML 1.2.
///
/// It reads at the scanner's cursor and leaves the cursor after the scalar; the scanner
/// passes the indentation and flow level the scalar is read in, and keeps the tokens.
package struct YAMLScalarReader {
    /// Reused storage for scalars that need decoding.
    package var scratch: [UInt8] = []

    /// A reader with no storage yet.
    package init() {}

    /// Reads a plain scalar at the cursor, folding its lines.
    /// - Parameters:
    ///   - indent: The column of the innermost block collection, -1 outside all of them.
    ///   - flowLevel: How many flow collections are open around the scalar.
    package mutating func readPlain(
        _ cursor: inout YAMLCursor, indent: Int, flowLevel: Int
    ) throws(Diagnostic) -> String {
        let start = cursor.position
        let minimumIndent = indent + 1
        var buffer: [UInt8] = []
        var usesBuffer = false
        var chunkEnd = cursor.position
        // What joins the previous chunk to the next one: 0 nothing yet, -1 the spaces in
        // `spaceStart..<spaceEnd`, n > 0 a fold of n line breaks.
        var join = 0
        var spaceStart = 0
        var spaceEnd = 0
        scan: while true {
            if cursor.bytes[cursor.position] == YAMLByte.hash { break }
            var index = cursor.position
            while true {
                let byte = cursor.bytes[index]
                if !YAMLByte.mayEndPlain(byte) {
                    index += 1
                    continue
                }
                if YAMLByte.isBlankOrEnd(byte) { break }
                if byte == ASCII.colon {
                    let next = cursor.bytes[index + 1]
                    if YAMLByte.isBlankOrEnd(next) || (flowLevel > 0 && YAMLByte.isFlowIndicator(next)) { break }
                } else if flowLevel > 0 && YAMLByte.isFlowIndicator(byte) {
                    break
                }
                index += 1
            }
            if index == cursor.position { break }
            // Spaces inside a line are kept as written, so until a line is folded the text
            // is still one run of the input and needs no buffer.
            if join > 0 || usesBuffer {
                if !usesBuffer {
                    swap(&buffer, &scratch)
                    buffer.removeAll(keepingCapacity: true)
                    buffer.append(contentsOf: cursor.bytes[start..<chunkEnd])
                    usesBuffer = true
                }
                if join < 0 {
                    buffer.append(contentsOf: cursor.bytes[spaceStart..<spaceEnd])
                } else if join == 1 {
                    buffer.append(ASCII.space)
                } else if join > 1 {
                    for _ in 1..<join { buffer.append(ASCII.lineFeed) }
                }
                buffer.append(contentsOf: cursor.bytes[cursor.position..<index])
            }
            cursor.position = index
            chunkEnd = index
            join = 0

            // The whitespace after the chunk.
            var after = cursor.position
            while cursor.bytes[after] == ASCII.space || cursor.bytes[after] == ASCII.tab { after += 1 }
            guard YAMLByte.isBreak(cursor.bytes[after]) else {
                guard after > cursor.position else { break }
                spaceStart = cursor.position
                spaceEnd = after
                join = -1
                cursor.position = after
                continue
            }
            // A line break: fold it with any empty lines after it.
            cursor.position = after
            var breaks = 0
            while YAMLByte.isBreak(cursor.bytes[cursor.position]) {
                cursor.consumeBreak()
                breaks += 1
                if cursor.isDocumentMarker(ASCII.minus) || cursor.isDocumentMarker(ASCII.dot) { break scan }
                while cursor.bytes[cursor.position] == ASCII.space { cursor.position += 1 }
                let spacesEnd = cursor.position
                while cursor.bytes[cursor.position] == ASCII.space || cursor.bytes[cursor.position] == ASCII.tab {
                    cursor.position += 1
                }
                let byte = cursor.bytes[cursor.position]
                if YAMLByte.isBreak(byte) { continue }
                if cursor.position >= cursor.end || byte == YAMLByte.hash { break scan }
                let column = spacesEnd - cursor.lineStart
                if flowLevel == 0 {
                    if column < minimumIndent {
                        cursor.position = spacesEnd
                        break scan
                    }
                } else if indent >= 0 && column <= indent {
                    throw cursor.failure(
                        "this line of a flow collection must be indented more than the block around it",
                        at: spacesEnd)
                }
            }
            join = breaks
        }
        guard usesBuffer else { return cursor.text(from: start, to: chunkEnd) }
        let text = String(decoding: buffer, as: UTF8.self)
        swap(&buffer, &scratch)
        return text
    }
}
