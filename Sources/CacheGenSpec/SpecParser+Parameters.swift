import CacheGenReading

/// An endpoint's `pathParameters`, `query` and `headers`: name → type, or
/// `{ "type": …, "style": "json" }` for a value sent as JSON text.
extension SpecParser {
    package mutating func parameterList(_ node: JSONNode?, place: ParameterPlace, _ what: String) -> [Parameter] {
        guard let node, let entries = object(node, what, allowed: nil) else { return [] }
        return entries.list.compactMap { member in
            // A type, or `{ "type": …, "style": "json" }` for a value sent as JSON text.
            var typeNode = member.value
            var style: ParameterStyle?
            if case .object = member.value.value {
                guard let fields = object(member.value, "parameter \(quoted(member.key))", allowed: Keys.parameter) else { return nil }
                guard let node = fields["type"]?.value else {
                    report("parameter \(quoted(member.key)) needs a \"type\"", at: member.value.location)
                    return nil
                }
                typeNode = node
                if let node = fields["style"]?.value {
                    guard let text = string(node, "\"style\"") else { return nil }
                    guard text == ParameterStyle.json.rawValue else {
                        report("\"style\" cannot be \(quoted(text)); the one style a spec parameter takes is \"json\" (the value as JSON text)", at: node.location)
                        return nil
                    }
                    style = .json
                }
            }
            guard let type = typeRef(typeNode) else { return nil }
            return Parameter(
                name: Named(name: member.key, location: member.keyLocation), place: place, type: type,
                typeLocation: typeNode.location, style: style)
        }
    }
}
