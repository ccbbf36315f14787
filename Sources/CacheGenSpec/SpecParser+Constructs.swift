import CacheGenReading

/// The `generate` object of a spec or an overlay: `{ "queries": false, "streams": false,
/// "pages": false, "overloads": false }`, each `true` by default.
extension SpecParser {
    /// The constructs `node` turns off; every construct on where it is not an object.
    package mutating func constructs(_ node: JSONNode) -> Constructs {
        var constructs = Constructs()
        guard let fields = object(node, "\"generate\"", allowed: Keys.constructs) else { return constructs }
        for member in fields.list {
            guard case .bool(let flag) = member.value.value else {
                report("\"\(member.key)\" must be true or false; found \(member.value.kindName)", at: member.value.location)
                continue
            }
            switch member.key {
            case "queries": constructs.queries = flag
            case "streams": constructs.streams = flag
            case "pages": constructs.pages = flag
            default: constructs.overloads = flag
            }
        }
        return constructs
    }
}
