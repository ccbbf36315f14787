import CacheGenReading
import CacheGenSpec

/// An overlay's `include` and `exclude`: the spec's `Selection`, with the document's tags
/// where a spec names repositories, so an app generates a few dozen of a large document's
/// operations and the models they reach.
///
/// Tags are what the document's readers see (GitHub's `repos`, `issues`), while repository
/// names are made by cachegen (`typePrefix`, `Repository`, a number when two clash). An
/// operation matches a tag when it carries it, first or not. Once the document is mapped,
/// each tag becomes the generated operations that carry it, so the spec's `Selection`,
/// `Spec.selected()` and the "leaves no endpoint" rule apply unchanged. Names that match
/// nothing are reported here, in the document's words, and dropped.
package struct OpenAPISelection {
    /// The keys of an overlay's `include` or `exclude`, in the order the schema lists them.
    package static let filterKeys = ["tags", "operations", "paths"]

    /// `include` as read, its tags in `repositories` until resolved.
    private var include: Selection.Filter?
    /// `exclude` as read, its tags in `repositories` until resolved.
    private var exclude: Selection.Filter?
    /// Problems in the filters, read through the spec parser's value readers.
    private var values = SpecParser()

    /// Errors and warnings found in the filters.
    package var diagnostics: [Diagnostic] { values.diagnostics }

    /// Reads `include` and `exclude` of an overlay, when present.
    package mutating func read(overlay: JSONNode) {
        guard overlay.members != nil else { return }
        include = overlay["include"].flatMap { values.parseFilter($0.value, key: "include", groups: ("tags", "tag names")) }
        exclude = overlay["exclude"].flatMap { values.parseFilter($0.value, key: "exclude", groups: ("tags", "tag names")) }
    }

    /// Whether an operation is chosen, by its tags, name and path, whether or not it was
    /// mapped: what the document is mapped again with.
    package func selects(_ operation: OpenAPIOperations.Presence) -> Bool {
        func matches(_ filter: Selection.Filter) -> Bool {
            filter.repositories.contains { operation.tags.contains($0.name) }
                || filter.operations.contains { $0.name == operation.name }
                || filter.paths.contains { Selection.path(operation.path, startsWith: $0.name) }
        }
        return (include.map(matches) ?? true) && !(exclude.map(matches) ?? false)
    }

    /// The selection in the spec's terms.
    ///
    /// - Parameters:
    ///   - operations: the operations mapped, with their tags.
    ///   - names: every operation of the document, mapped or left out.
    ///   - tags: every tag of the document, declared at its root or carried by an operation.
    ///   - paths: every operation's path, mapped or left out.
    ///   - documentName: the document's file name, for messages.
    package mutating func resolve(
        _ operations: [OpenAPIOperations.Operation], names: [String], tags: [String], paths: [String], documentName: String
    ) -> Selection {
        let context = Context(operations: operations, names: names, tags: tags, paths: paths, documentName: documentName)
        return Selection(
            include: include.map { resolve($0, context) }, exclude: exclude.map { resolve($0, context) })
    }

    /// What names are checked against.
    private struct Context {
        /// The operations mapped.
        package var operations: [OpenAPIOperations.Operation]
        /// Every operation of the document.
        package var names: [String]
        /// Every tag, declared or used, in document order.
        package var tags: [String]
        /// Every operation's path, mapped or left out.
        package var paths: [String]
        /// The document's file name.
        package var documentName: String
    }

    /// One filter with its tags turned into operations and the names that match nothing dropped.
    private mutating func resolve(_ filter: Selection.Filter, _ context: Context) -> Selection.Filter {
        let key = quoted(filter.key)
        var result = filter
        result.repositories = []
        result.operations = []
        result.paths = []
        for tag in filter.repositories {
            guard context.tags.contains(tag.name) else {
                report(
                    "\(key) names the tag \(quoted(tag.name)), which no operation of \(context.documentName) has"
                        + Self.hint(for: tag.name, among: context.tags, noun: "tags"),
                    at: tag.location, in: &result)
                continue
            }
            for operation in context.operations where operation.tags.contains(tag.name) {
                result.operations.append(Named(name: operation.endpoint.name.name, location: tag.location))
            }
        }
        let generated = Set(context.operations.map(\.endpoint.name.name))
        for name in filter.operations {
            if generated.contains(name.name) {
                result.operations.append(name)
                for operation in context.operations where operation.streamOf == name.name {
                    result.operations.append(Named(name: operation.endpoint.name.name, location: name.location))
                }
            } else if context.names.contains(name.name) {
                values.diagnostics.append(
                    .warning(
                        "\(key) names \(quoted(name.name)), which is left out (see the warning in \(context.documentName))",
                        at: name.location))
            } else {
                report(
                    "\(key) names \(quoted(name.name)), which is not an operation of \(context.documentName)"
                        + Self.hint(for: name.name, among: context.names, noun: "operations"),
                    at: name.location, in: &result)
            }
        }
        let paths = context.paths
        for prefix in filter.paths {
            // A prefix without `/` is reported by the validator, as for a spec.
            guard prefix.name.hasPrefix("/"), !paths.contains(where: { Selection.path($0, startsWith: prefix.name) }) else {
                result.paths.append(prefix)
                continue
            }
            report(
                "\(key) path \(quoted(prefix.name)) starts no operation's path in \(context.documentName)"
                    + Self.hint(for: prefix.name, among: Selection.segmentPrefixes(of: paths), noun: "paths"),
                at: prefix.location, in: &result)
        }
        return result
    }

    /// Reports an error; what is left of the filter is no longer the whole of it, so the
    /// "leaves no endpoint" rule stays quiet.
    private mutating func report(_ message: String, at location: SourceLocation, in filter: inout Selection.Filter) {
        values.diagnostics.append(.error(message, at: location))
        filter.isWhole = false
    }

    /// "; did you mean …?" (a repository name such as `PetsRepository` is matched by its
    /// tag part), or the whole list when it is short enough to read.
    private static func hint(for word: String, among candidates: [String], noun: String) -> String {
        let bare = word.hasSuffix("Repository") ? String(word.dropLast("Repository".count)) : word
        if let match = Suggestion.closest(to: word, in: candidates) ?? Suggestion.closest(to: bare, in: candidates) {
            return "; did you mean \(quoted(match))?"
        }
        guard candidates.count <= 8 else { return "" }
        return "; the document's \(noun) are " + candidates.map { quoted($0) }.joined(separator: ", ")
    }
}
