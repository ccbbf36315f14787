import CacheGenReading

/// Reading `include` and `exclude`: objects of string arrays; names are checked against the
/// spec by `SpecValidator+Selection.swift`.
extension SpecParser {
    /// The keys an `include` or `exclude` object may have.
    package static let filterKeys = ["repositories", "operations", "paths"]

    /// `key` is `"include"` or `"exclude"`. `groups` names the first list: a spec's
    /// `repositories`, or an overlay's `tags` (read into `repositories` until resolved).
    package mutating func parseFilter(
        _ node: JSONNode, key: String, groups: (key: String, items: String) = ("repositories", "repository names")
    ) -> Selection.Filter? {
        guard let members = object(node, quoted(key), allowed: [groups.key] + Self.filterKeys.dropFirst()) else {
            return Selection.Filter(key: key, location: node.location, isWhole: false)
        }
        var filter = Selection.Filter(key: key, location: node.location)
        let errors = diagnostics.count
        filter.repositories = names(members[groups.key]?.value, "\(quoted(key)) \(quoted(groups.key))", groups.items)
        filter.operations = names(members["operations"]?.value, "\(quoted(key)) \"operations\"", "endpoint names")
        filter.paths = names(members["paths"]?.value, "\(quoted(key)) \"paths\"", "path prefixes")
        filter.isWhole = diagnostics.count == errors
        return filter
    }

    /// The strings of an array, each with its location.
    private mutating func names(_ node: JSONNode?, _ what: String, _ items: String) -> [Named] {
        guard let node else { return [] }
        guard case .array(let list) = node.value else {
            report("\(what) must be an array of \(items); found \(node.kindName)", at: node.location)
            return []
        }
        return list.compactMap { item in string(item, "an entry of \(what)").map { Named(name: $0, location: item.location) } }
    }
}
