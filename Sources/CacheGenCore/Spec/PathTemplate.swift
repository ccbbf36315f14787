/// Reading `{name}` segments of endpoint paths, in one place.
enum PathTemplate {
    /// The names between braces, in order (`/a/{id}/b/{x}` → `id`, `x`).
    static func parameterNames(_ path: String) -> [String] {
        var names: [String] = []
        var current: String?
        for character in path {
            switch character {
            case "{": current = ""
            case "}":
                if let name = current { names.append(name) }
                current = nil
            default: current?.append(character)
            }
        }
        return names
    }

    /// Why a path template is malformed, or `nil` when it is fine.
    static func problem(_ path: String) -> String? {
        guard path.hasPrefix("/") else { return "path \(quoted(path)) must start with \"/\"" }
        if path.contains("?") { return "path \(quoted(path)) contains \"?\"; declare query items under \"query\"" }
        var open = false
        for character in path {
            if character == "{" {
                if open { return "path \(quoted(path)) has a \"{\" inside another \"{…}\"" }
                open = true
            } else if character == "}" {
                if !open { return "path \(quoted(path)) has a \"}\" without a matching \"{\"" }
                open = false
            }
        }
        if open { return "path \(quoted(path)) has a \"{\" that is never closed" }
        if parameterNames(path).contains(where: \.isEmpty) { return "path \(quoted(path)) has an empty \"{}\"; name the parameter" }
        return nil
    }
}
