import CacheGenOpenAPI
import CacheGenReading
import CacheGenSpec
import CacheGenTranslation
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
        /// How many files to write; `nil`: from the size of the files read
        /// (`OutputLayout.Size(inputBytes:)`). The build plugin passes the size it named
        /// its outputs for.
        public var size: OutputLayout.Size?
        /// Whether mocks are written with the clients, without them, or alone.
        public var mocks: OutputLayout.Mocks
        /// The module that holds the clients, which the files of `mocks: .only` import
        /// (`@testable` when `access` is internal).
        public var clientModule: String?

        /// Creates options; public API, files sized to the input and mocks with the clients by
        /// default.
        public init(
            access: AccessLevel = .public, size: OutputLayout.Size? = nil, mocks: OutputLayout.Mocks = .included,
            clientModule: String? = nil
        ) {
            self.access = access
            self.size = size
            self.mocks = mocks
            self.clientModule = clientModule
        }
    }

    /// What one run produced.
    public struct Output: Sendable, Hashable {
        /// The generated files, every one of `layout.fileNames` in that order, or `nil` when
        /// the spec has errors.
        public var files: [GeneratedFile]?
        /// Errors and warnings, in file order.
        public var diagnostics: [Diagnostic]
        /// The files' names and how many there are.
        public var layout: OutputLayout

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
    ///   - read: reads the files the input names (an overlay's document, `$ref`ed files)
    ///     by path; from disk unless a caller gives its own.
    public static func generate(
        _ data: Data, path: String, options: Options = Options(), read: @escaping @Sendable (String) -> Data? = readFile
    ) -> Output {
        let counted = CountingReader(read, initial: data.count)
        let (readSpec, readDiagnostics) = self.read(data, path: path, read: counted.read)
        let layout = OutputLayout(
            forSpec: path, size: options.size ?? OutputLayout.Size(inputBytes: counted.bytes), mocks: options.mocks)
        guard let spec = readSpec, !readDiagnostics.contains(where: { $0.severity == .error }) else {
            return Output(files: nil, diagnostics: readSpec.map { validated($0, readDiagnostics) } ?? readDiagnostics, layout: layout)
        }
        let sourceName = path.split(separator: "/").last.map(String.init) ?? path
        // The translator is made while the validator runs, on the other core; when the
        // validator finds an error it is thrown away unused. (Making it needs no valid spec:
        // it only indexes the models and describes the cached responses' shapes.)
        let (diagnostics, translator) = Parallel.both(
            { validated(spec, readDiagnostics) },
            // Only the endpoints `include` / `exclude` choose, and the models they reach.
            { Translator(spec: spec.selected(), sourceName: sourceName) })
        guard !diagnostics.contains(where: { $0.severity == .error }) else {
            return Output(files: nil, diagnostics: diagnostics, layout: layout)
        }
        let renderer = SwiftRenderer(access: options.access)
        let clients = options.clientModule.map { SwiftFile.Import(module: $0, isTestable: options.access == .internal) }
        let files = files(translator, renderer: renderer, layout: layout, importing: layout.mocks == .only ? clients : nil)
        return Output(files: files, diagnostics: diagnostics, layout: layout)
    }

    /// Parses and validates without rendering, as `cachegen validate` does.
    public static func validate(_ data: Data, path: String, read: @escaping @Sendable (String) -> Data? = readFile) -> [Diagnostic] {
        check(data, path: path, read: read).diagnostics
    }

    /// Reads a file from disk; `nil` when it cannot be read.
    ///
    /// `FileManager.contents(atPath:)` reads as `Data(contentsOf:)` does without making a
    /// `URL` and a progress report for each file: a tenth of the instructions, which counts
    /// for a document split over a thousand files.
    public static let readFile: @Sendable (String) -> Data? = { path in FileManager.default.contents(atPath: path) }

    /// The file an overlay names as its OpenAPI document, relative to the overlay's
    /// folder; `nil` for any other input. The build plugin declares it as an input.
    public static func documentPath(forOverlay data: Data, path: String) -> String? {
        guard let root = try? JSONReader.parse(data, file: path), OpenAPISource.kind(of: root) == .overlay,
            let relative = root["openapi"]?.value.stringValue
        else { return nil }
        return OpenAPIReferences.path(relative, nextTo: path)
    }

    /// Reads the input as a spec, an OpenAPI document or an overlay (by content), then
    /// validates the spec it becomes.
    private static func check(_ data: Data, path: String, read: @escaping @Sendable (String) -> Data?)
        -> (spec: Spec?, diagnostics: [Diagnostic])
    {
        let (spec, diagnostics) = self.read(data, path: path, read: read)
        guard let spec else { return (nil, diagnostics) }
        return (spec, validated(spec, diagnostics))
    }

    /// The reading's diagnostics and the validator's, in file order.
    private static func validated(_ spec: Spec, _ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var validator = SpecValidator(spec: spec)
        return (diagnostics + validator.validate()).sorted { $0.location < $1.location }
    }

    /// Reads the input as a spec, an OpenAPI document or an overlay (by content) into the
    /// spec it becomes, not yet validated.
    private static func read(_ data: Data, path: String, read: @escaping @Sendable (String) -> Data?)
        -> (spec: Spec?, diagnostics: [Diagnostic])
    {
        let root: JSONNode
        do {
            root = try OpenAPISource.parse(data, file: path)
        } catch {
            return (nil, [error])
        }
        let spec: Spec?
        let diagnostics: [Diagnostic]
        switch OpenAPISource.kind(of: root) {
        case .spec:
            guard OpenAPISource.isJSON(data, file: path) else {
                let message = "this YAML file is not an OpenAPI document (it has no \"openapi\" key); cachegen reads OpenAPI documents, overlays and *.cachegen.json specs"
                return (nil, [.error(message, at: root.location)])
            }
            var parser = SpecParser()
            spec = parser.parse(root, file: path)
            diagnostics = parser.diagnostics
        case .document:
            let result = OpenAPIFrontStage.spec(document: root, file: path, read: read)
            (spec, diagnostics) = (result.spec, result.diagnostics)
        case .overlay:
            let result = OpenAPIFrontStage.spec(overlay: root, file: path, read: read)
            (spec, diagnostics) = (result.spec, result.diagnostics)
        }
        return (spec, diagnostics)
    }
}

/// A file reader that adds up the bytes it returns, for sizing the output to the input.
private final class CountingReader: @unchecked Sendable {
    private let lock = NSLock()
    private var total: Int
    private let base: @Sendable (String) -> Data?

    package init(_ base: @escaping @Sendable (String) -> Data?, initial: Int) {
        self.base = base
        total = initial
    }

    /// The bytes read so far, the spec's own included.
    package var bytes: Int { lock.withLock { total } }

    /// Reads through `base`, counting.
    package var read: @Sendable (String) -> Data? {
        { [self] path in
            let data = base(path)
            lock.withLock { total += data?.count ?? 0 }
            return data
        }
    }
}
