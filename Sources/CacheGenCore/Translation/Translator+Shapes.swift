/// The response shape of each cached endpoint, in a file of its own: a model edit changes the
/// shape of every response that reaches the model, and with the shapes apart only that file
/// changes, so the build recompiles it instead of every repository.
extension Translator {
    /// The section of the shapes file: per repository with a cached endpoint, an extension of
    /// `Live…` with one static computed property per endpoint. Computed, not stored: the
    /// compiler does not count a getter's body as part of what other files see, so a new
    /// value recompiles no other file. Static properties may share a name with the
    /// repository's methods, so `…Shape` never collides with anything a spec can name.
    func shapeSection(_ repositories: [Repository]) -> SwiftFile.Section? {
        let extensions = repositories.compactMap { repository -> Declaration? in
            let shapes = repository.endpoints.compactMap { endpoint -> Declaration? in
                let method = method(endpoint, in: repository)
                guard method.isCached, let response = endpoint.response else { return nil }
                return .property(
                    PropertyDeclaration(
                        visibility: .none, isStatic: true, name: method.shapeName, type: .named("String"),
                        getter: [.expression(.string(fingerprints[response] ?? ""))]))
            }
            guard !shapes.isEmpty else { return nil }
            return .type(
                TypeDeclaration(
                    doc: [
                        "A fingerprint of each cached response type and the models it reaches: an entry",
                        "stored under another shape is never read.",
                    ],
                    kind: .extension, name: liveTypeName(repository), members: shapes))
        }
        return extensions.isEmpty ? nil : SwiftFile.Section(title: "Response shapes", declarations: extensions)
    }
}
