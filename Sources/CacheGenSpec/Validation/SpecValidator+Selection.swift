import CacheGenReading

/// `include` and `exclude` name things that exist, and leave something to generate.
extension SpecValidator {
    /// Every name in a filter exists; a path prefix starts with `/` and starts some endpoint's
    /// path; and, when all that holds, at least one endpoint is left.
    package mutating func checkSelection() {
        let filters = [spec.selection.include, spec.selection.exclude].compactMap { $0 }
        guard !filters.isEmpty else { return }
        let before = diagnostics.count
        for filter in filters { checkNames(filter) }
        guard diagnostics.count == before, filters.allSatisfy(\.isWhole), let first = filters.first else { return }
        let selected = spec.repositories.contains { repository in
            repository.endpoints.contains { spec.selection.selects($0, in: repository) }
        }
        if !selected, spec.repositories.contains(where: { !$0.endpoints.isEmpty }) {
            report(
                "\"include\" and \"exclude\" leave no endpoint to generate; include more or exclude less",
                at: first.location)
        }
    }

    private mutating func checkNames(_ filter: Selection.Filter) {
        let key = quoted(filter.key)
        let repositories = spec.repositories.map(\.name.name)
        for name in filter.repositories where !repositories.contains(name.name) {
            report(
                "\(key) names the repository \(quoted(name.name)), which the spec does not have"
                    + Self.hint(for: name.name, among: repositories, noun: "repositories"),
                at: name.location)
        }
        let operations = spec.repositories.flatMap { $0.endpoints.map(\.name.name) }
        for name in filter.operations where !operations.contains(name.name) {
            report(
                "\(key) names the operation \(quoted(name.name)), which no repository has"
                    + Self.hint(for: name.name, among: operations, noun: "operations"),
                at: name.location)
        }
        let paths = spec.repositories.flatMap { $0.endpoints.map(\.path) }
        for prefix in filter.paths {
            guard prefix.name.hasPrefix("/") else {
                report("\(key) path \(quoted(prefix.name)) must start with \"/\", as endpoint paths do", at: prefix.location)
                continue
            }
            guard !paths.contains(where: { Selection.path($0, startsWith: prefix.name) }) else { continue }
            report(
                "\(key) path \(quoted(prefix.name)) starts no endpoint's path"
                    + Self.hint(for: prefix.name, among: Selection.segmentPrefixes(of: paths), noun: "paths"),
                at: prefix.location)
        }
    }

    /// "; did you mean …?", or the whole list when it is short enough to read.
    private static func hint(for word: String, among candidates: [String], noun: String) -> String {
        if let match = Suggestion.closest(to: word, in: candidates) { return "; did you mean \(quoted(match))?" }
        guard candidates.count <= 8 else { return "" }
        return "; the spec's \(noun) are " + candidates.map { quoted($0) }.joined(separator: ", ")
    }
}
