import CacheGenSpec

/// The response shape of each cached endpoint, in a file of its own: a model edit changes the
/// shape of every response that reaches the model, and with the shapes apart only that file
/// changes, so the build recompiles it instead of every repository.
extension Translator {
    /// A repository's part of the shapes file, or `nil` without a cached endpoint: an
    /// extension of `Live…` with one static computed property per cached endpoint. Computed,
    /// not stored: the compiler does not count a getter's body as part of what other files
    /// see, so a new value recompiles no other file. Static properties may share a name with
    /// the repository's methods, so `…Shape` never collides with anything a spec can name.
    package func shapeExtension(_ repository: Repository, _ methods: [Method]) -> TypeDeclaration? {
        let shapes = methods.compactMap { method -> Declaration? in
            guard method.isCached, let response = method.endpoint.response else { return nil }
            return .property(
                PropertyDeclaration(
                    visibility: .none, isStatic: true, name: method.shapeName, type: .named("String"),
                    getter: [.expression(.string(fingerprints[response] ?? ""))]))
        }
        guard !shapes.isEmpty else { return nil }
        return TypeDeclaration(
            doc: [
                "A fingerprint of each cached response type and the models it reaches: an entry",
                "stored under another shape is never read.",
            ],
            kind: .extension, name: liveTypeName(repository), members: shapes)
    }

    /// The section of the shapes file: the repositories' extensions, in spec order.
    package func shapeSection(_ extensions: [TypeDeclaration]) -> SwiftFile.Section? {
        extensions.isEmpty ? nil : SwiftFile.Section(title: "Response shapes", declarations: extensions.map { .type($0) })
    }
}
