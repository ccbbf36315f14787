import CacheGenReading

/// Reading `{name}` segments of endpoint paths, in one place.
///
/// Braces, `/` and `?` are ASCII, so paths are read as UTF-8 bytes; names keep whatever
/// text lies between the braces.
package enum PathTemplate {
    /// The names between braces, in order (`/a/{id}/b/{x}` → `id`, `x`).
    package static func parameterNames(_ path: String) -> [String] {
        var names: [String] = []
        var start: String.Index?
        var index = path.utf8.startIndex
        while index != path.utf8.endIndex {
            switch path.utf8[index] {
            case UInt8(ascii: "{"): start = path.utf8.index(after: index)
            case UInt8(ascii: "}"):
                if let start { names.append(String(path[start..<index])) }
                start = nil
            default: break
            }
            index = path.utf8.index(after: index)
        }
        return names
    }

    /// Why a path template is malformed, or `nil` when it is fine.
    package static func problem(_ path: String) -> String? {
        guard path.utf8.first == UInt8(ascii: "/") else { return "path \(quoted(path)) must start with \"/\"" }
        if path.utf8.contains(UInt8(ascii: "?")) {
            return "path \(quoted(path)) contains \"?\"; declare query items under \"query\""
        }
        var open = false
        for byte in path.utf8 {
            if byte == UInt8(ascii: "{") {
                if open { return "path \(quoted(path)) has a \"{\" inside another \"{…}\"" }
                open = true
            } else if byte == UInt8(ascii: "}") {
                if !open { return "path \(quoted(path)) has a \"}\" without a matching \"{\"" }
                open = false
            }
        }
        if open { return "path \(quoted(path)) has a \"{\" that is never closed" }
        if parameterNames(path).contains(where: \.isEmpty) { return "path \(quoted(path)) has an empty \"{}\"; name the parameter" }
        return nil
    }
}
