import Foundation

/// The generator's one entry point: spec bytes in, Swift files or located diagnostics out.
///
/// Stages with typed boundaries: `JSONReader` (bytes → located JSON), `SpecParser`
/// (→ `Spec`), `SpecValidator` (rules), `Translator` (→ code model), `SwiftRenderer`
/// (→ text). The last two work shard by shard (each model shard, then each repository),
/// on all cores at once, and `OutputLayout` puts each piece in its file. The CLI and the
/// build plugin are thin wrappers over this.
public enum Generator {
    /// Options that change the generated text.
    public struct Options: Sendable, Hashable {
        /// The access level of generated declarations.
        public var access: AccessLevel

        /// Creates options; public API by default.
        public init(access: AccessLevel = .public) {
            self.access = access
        }
    }

    /// What one run produced.
    public struct Output: Sendable, Hashable {
        /// The generated files, every one of `OutputLayout(forSpec:).fileNames` in that order,
        /// or `nil` when the spec has errors.
        public var files: [GeneratedFile]?
        /// Errors and warnings, in file order.
        public var diagnostics: [Diagnostic]

        /// Whether any diagnostic is an error.
        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

        /// Every file's text joined in file order, one text that type-checks on its own:
        /// for comparing two runs or compiling a sample at once.
        public var source: String? { files.map { $0.map(\.contents).joined() } }
    }

    /// Parses, validates and, if the spec has no errors, renders it.
    ///
    /// - Parameters:
    ///   - data: the spec file's bytes.
    ///   - path: the path shown in diagnostics; its file name names the output files.
    public static func generate(_ data: Data, path: String, options: Options = Options()) -> Output {
        let (spec, diagnostics) = check(data, path: path)
        guard let spec, !diagnostics.contains(where: { $0.severity == .error }) else {
            return Output(files: nil, diagnostics: diagnostics)
        }
        let sourceName = path.split(separator: "/").last.map(String.init) ?? path
        // Only the endpoints `include` / `exclude` choose, and the models they reach.
        let translator = Translator(spec: spec.selected(), sourceName: sourceName)
        let renderer = SwiftRenderer(access: options.access)
        let files = files(translator, renderer: renderer, layout: OutputLayout(forSpec: path))
        return Output(files: files, diagnostics: diagnostics)
    }

    /// Parses and validates without rendering, as `cachegen validate` does.
    public static func validate(_ data: Data, path: String) -> [Diagnostic] {
        check(data, path: path).diagnostics
    }

    private static func check(_ data: Data, path: String) -> (spec: Spec?, diagnostics: [Diagnostic]) {
        let root: JSONNode
        do {
            root = try JSONReader.parse(data, file: path)
        } catch {
            return (nil, [error])
        }
        var parser = SpecParser()
        guard let spec = parser.parse(root, file: path) else { return (nil, parser.diagnostics) }
        var validator = SpecValidator(spec: spec)
        let diagnostics = (parser.diagnostics + validator.validate()).sorted { $0.location < $1.location }
        return (spec, diagnostics)
    }
}
