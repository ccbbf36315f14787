import CacheGenReading

/// Which endpoints a spec generates: the spec's `include` and `exclude`, so an app that uses
/// a few dozen of a large API's endpoints compiles only those and the models they reach.
///
/// An endpoint is generated when `include` is absent or it matches `include`, and it does
/// not match `exclude`. It matches a filter when its repository, its name or its path is
/// listed there; a path matches by whole segments (`/accounts` matches `/accounts` and
/// `/accounts/{id}`, not `/accountsettings`).
public struct Selection: Sendable, Hashable {
    /// Endpoints to generate; `nil` for all.
    public var include: Filter?
    /// Endpoints not to generate, even when included.
    public var exclude: Filter?

    /// One `include` or `exclude` object.
    public struct Filter: Sendable, Hashable {
        /// `"include"` or `"exclude"`, for messages.
        public var key: String
        /// Where the object starts.
        public var location: SourceLocation
        /// Repository names, as in the spec.
        public var repositories: [Named] = []
        /// Endpoint names, in any repository.
        public var operations: [Named] = []
        /// Path prefixes, by whole segments.
        public var paths: [Named] = []
        /// False when part of the object could not be read (an error was reported), so that
        /// rules needing all of it stay quiet.
        public var isWhole = true

        /// Whether `endpoint` of `repository` is listed by name, repository or path.
        package func matches(_ endpoint: EndpointSpec, in repository: Repository) -> Bool {
            repositories.contains { $0.name == repository.name.name }
                || operations.contains { $0.name == endpoint.name.name }
                || paths.contains { Selection.path(endpoint.path, startsWith: $0.name) }
        }
    }

    /// Whether the spec selects all endpoints.
    public var selectsEverything: Bool { include == nil && exclude == nil }

    /// Whether `endpoint` of `repository` is generated.
    package func selects(_ endpoint: EndpointSpec, in repository: Repository) -> Bool {
        (include?.matches(endpoint, in: repository) ?? true) && !(exclude?.matches(endpoint, in: repository) ?? false)
    }

    /// Whether `prefix` is `path` or the start of it up to a `/`; a trailing `/` is ignored.
    package static func path(_ path: String, startsWith prefix: String) -> Bool {
        let trimmed = prefix.count > 1 && prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
        guard path.hasPrefix(trimmed) else { return false }
        return path.count == trimmed.count || trimmed == "/" || path.dropFirst(trimmed.count).first == "/"
    }

    /// Every prefix of every path that ends at a segment boundary, sorted, each once: the
    /// candidates for "did you mean" on a path prefix.
    package static func segmentPrefixes(of paths: [String]) -> [String] {
        var prefixes: Set<String> = []
        for path in paths {
            var prefix = ""
            for segment in path.split(separator: "/") {
                prefix += "/" + segment
                prefixes.insert(prefix)
            }
        }
        return prefixes.sorted()
    }

    /// The memberwise initializer, for the package's other modules.
    package init(include: Filter? = nil, exclude: Filter? = nil) {
        self.include = include
        self.exclude = exclude
    }
}
