import CacheGenCore
import CacheGenReading

/// Location-free views of a `JSONNode`, for comparing what two readers (or a reader and a
/// re-read of its own result) made of a document.
public enum JSONValue {
    /// Whether `a` and `b` hold the same value: same kinds, same object keys in the same
    /// order, equal strings and booleans, numbers equal as `Double`s. Locations are ignored.
    public static func same(_ a: JSONNode, _ b: JSONNode) -> Bool {
        switch (a.value, b.value) {
        case (.object(let x), .object(let y)):
            guard x.count == y.count else { return false }
            for (m, n) in zip(x, y) where m.key != n.key || !same(m.value, n.value) { return false }
            return true
        case (.array(let x), .array(let y)):
            guard x.count == y.count else { return false }
            for (m, n) in zip(x, y) where !same(m, n) { return false }
            return true
        case (.string(let x), .string(let y)): return x == y
        case (.number(let x, _), .number(let y, _)): return x == y || (x.isNaN && y.isNaN)
        case (.bool(let x), .bool(let y)): return x == y
        case (.null, .null): return true
        default: return false
        }
    }

    /// RFC 8259 text of `node`: every string escaped, numbers as the reader kept them
    /// (or, when that text is not a JSON number, as the `Double`'s description).
    public static func text(_ node: JSONNode) -> String {
        var out = ""
        write(node, into: &out)
        return out
    }

    /// Calls `body` on every node and member key location, in document (pre-)order.
    public static func forEachLocation(_ node: JSONNode, _ body: (SourceLocation) -> Void) {
        body(node.location)
        switch node.value {
        case .object(let members):
            for member in members {
                body(member.keyLocation)
                forEachLocation(member.value, body)
            }
        case .array(let elements):
            for element in elements { forEachLocation(element, body) }
        default: break
        }
    }

    /// How deep `node` nests (a scalar is 0) and how many nodes it holds.
    public static func shape(_ node: JSONNode) -> (depth: Int, count: Int) {
        switch node.value {
        case .object(let members):
            var depth = 0
            var count = 1
            for member in members {
                let inner = shape(member.value)
                depth = max(depth, inner.depth)
                count += inner.count
            }
            return (depth + 1, count)
        case .array(let elements):
            var depth = 0
            var count = 1
            for element in elements {
                let inner = shape(element)
                depth = max(depth, inner.depth)
                count += inner.count
            }
            return (depth + 1, count)
        default:
            return (0, 1)
        }
    }

    private static func write(_ node: JSONNode, into out: inout String) {
        switch node.value {
        case .object(let members):
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += "," }
                writeString(member.key, into: &out)
                out += ":"
                write(member.value, into: &out)
            }
            out += "}"
        case .array(let elements):
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                write(element, into: &out)
            }
            out += "]"
        case .string(let text): writeString(text, into: &out)
        case .number(let value, let literal):
            out += isJSONNumber(literal) ? literal : "\(value)"
        case .bool(let value): out += value ? "true" : "false"
        case .null: out += "null"
        }
    }

    private static func writeString(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    static func isJSONNumber(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        func digits() -> Int {
            var count = 0
            while let byte = bytes.first, (0x30...0x39).contains(byte) {
                bytes.removeFirst()
                count += 1
            }
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
        if bytes.first == UInt8(ascii: "0") {
            bytes.removeFirst()
        } else if digits() == 0 {
            return false
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes.removeFirst()
            if digits() == 0 { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes.removeFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
            if digits() == 0 { return false }
        }
        return bytes.isEmpty
    }
}
