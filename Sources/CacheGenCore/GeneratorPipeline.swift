import CacheGenOpenAPI
import CacheGenReading
import CacheGenSpec
import CacheGenTranslation
import Foundation

/// The generator's stages, named in the order a run takes them, with the type each hands
/// to the next (as swift-openapi-generator's `GeneratorPipeline.swift` names its own):
///
/// 1. `readInput(_:path:)`: bytes → located JSON (`JSONReader` or `YAMLReader`, told
///    apart by name and content) and the `InputKind` of the file, decided here and only
///    here (`InputKind.swift`, which the plugins compile too): a spec, an OpenAPI document
///    or an overlay.
/// 2. `makeSpec(_:data:path:read:)`: the front stage for that kind → a `Spec` and the
///    reading's diagnostics (`SpecParser`, or `OpenAPIFrontStage` for a document or an
///    overlay, which reads the files it names through `read`).
/// 3. `validate(_:_:)`: `SpecValidator`'s diagnostics joined to the reading's, in file
///    order; in `run(_:path:options:read:)` the `Translator` is made on the other core
///    meanwhile (`validateAndIndex(_:_:sourceName:)`).
/// 4. `layOut(path:options:inputBytes:)`: `OutputLayout`, the files sized to every byte
///    read.
/// 5. `render(_:options:layout:)`: translation and rendering, shard by shard on all cores
///    (`Generator+Files.swift`), into `GeneratedFile`s.
///
/// Any error after stage 2 or 3 stops the run there, with every problem found so far.
/// `Generator` is the public face: the CLI and the plugin call `Generator.generate` and
/// `Generator.validate`, which run these stages.
package enum GeneratorPipeline {
    /// Stage 1's result: the input's located nodes and what kind of input they are.
    package struct Input {
        /// The input's root, located.
        package var root: JSONNode
        /// What the input is.
        var kind: InputKind
    }

    /// Runs every stage: the spec's files, or its located errors and warnings.
    package static func run(
        _ data: Data, path: String, options: Generator.Options, read: @escaping @Sendable (String) -> Data?
    ) -> Generator.Output {
        let counted = CountingReader(read, initial: data.count)
        let (readSpec, readDiagnostics) = self.spec(data, path: path, read: counted.read)
        let layout = layOut(path: path, options: options, inputBytes: counted.bytes)
        guard let spec = readSpec, !readDiagnostics.contains(where: { $0.severity == .error }) else {
            return Generator.Output(
                files: nil, diagnostics: readSpec.map { validate($0, readDiagnostics) } ?? readDiagnostics, layout: layout)
        }
        let sourceName = path.split(separator: "/").last.map(String.init) ?? path
        let (diagnostics, translator) = validateAndIndex(spec, readDiagnostics, sourceName: sourceName)
        guard !diagnostics.contains(where: { $0.severity == .error }) else {
            return Generator.Output(files: nil, diagnostics: diagnostics, layout: layout)
        }
        return Generator.Output(files: render(translator, options: options, layout: layout), diagnostics: diagnostics, layout: layout)
    }

    /// Stages 1 to 3 without rendering, as `cachegen validate` runs them.
    package static func check(_ data: Data, path: String, read: @escaping @Sendable (String) -> Data?)
        -> (spec: Spec?, diagnostics: [Diagnostic])
    {
        let (spec, diagnostics) = self.spec(data, path: path, read: read)
        guard let spec else { return (nil, diagnostics) }
        return (spec, validate(spec, diagnostics))
    }

    /// Stages 1 and 2: the spec the input becomes, not yet validated, with the reading's
    /// diagnostics; no spec when the input cannot be read.
    package static func spec(_ data: Data, path: String, read: @escaping @Sendable (String) -> Data?)
        -> (spec: Spec?, diagnostics: [Diagnostic])
    {
        let input: Input
        switch readInput(data, path: path) {
        case .success(let value): input = value
        case .failure(let error): return (nil, [error])
        }
        return makeSpec(input, data: data, path: path, read: read)
    }

    // MARK: - The stages, in order

    /// Stage 1, read and classify: JSON when the name ends in `.json` or the first non-blank
    /// byte is `{`, else YAML; then the `InputKind` of its root.
    package static func readInput(_ data: Data, path: String) -> Result<Input, Diagnostic> {
        do {
            let root = try OpenAPISource.parse(data, file: path)
            return .success(Input(root: root, kind: InputKind(of: root)))
        } catch {
            return .failure(error)
        }
    }

    /// Stage 2, the front stage for the input's kind: a spec through `SpecParser` (a spec is
    /// JSON: a YAML file without `openapi` is an error), a document or an overlay through
    /// `OpenAPIFrontStage`, which reads the files they name through `read`.
    package static func makeSpec(_ input: Input, data: Data, path: String, read: @escaping @Sendable (String) -> Data?)
        -> (spec: Spec?, diagnostics: [Diagnostic])
    {
        switch input.kind {
        case .spec:
            guard OpenAPISource.isJSON(data, file: path) else {
                let message = "this YAML file is not an OpenAPI document (it has no \"openapi\" key); cachegen reads OpenAPI documents, overlays and *.cachegen.json specs"
                return (nil, [.error(message, at: input.root.location)])
            }
            var parser = SpecParser()
            let spec = parser.parse(input.root, file: path)
            return (spec, parser.diagnostics)
        case .document:
            let result = OpenAPIFrontStage.spec(document: input.root, file: path, read: read)
            return (result.spec, result.diagnostics)
        case .overlay:
            let result = OpenAPIFrontStage.spec(overlay: input.root, file: path, read: read)
            return (result.spec, result.diagnostics)
        }
    }

    /// Stage 3, validation: the reading's diagnostics and the validator's, in file order.
    package static func validate(_ spec: Spec, _ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var validator = SpecValidator(spec: spec)
        return (diagnostics + validator.validate()).sorted { $0.location < $1.location }
    }

    /// Stage 3 as a run takes it: the translator is made while the validator runs, on the
    /// other core; when the validator finds an error it is thrown away unused. (Making it
    /// needs no valid spec: it only indexes the models and describes the cached responses'
    /// shapes.) It sees only the endpoints `include` / `exclude` choose, and the models they
    /// reach.
    package static func validateAndIndex(_ spec: Spec, _ diagnostics: [Diagnostic], sourceName: String)
        -> (diagnostics: [Diagnostic], translator: Translator)
    {
        Parallel.both({ validate(spec, diagnostics) }, { Translator(spec: spec.selected(), sourceName: sourceName) })
    }

    /// Stage 4, layout: the files of the spec at `path`, sized to `inputBytes` (every file
    /// read) unless the options name a size.
    package static func layOut(path: String, options: Generator.Options, inputBytes: Int) -> OutputLayout {
        OutputLayout(forSpec: path, size: options.size ?? OutputLayout.Size(inputBytes: inputBytes), mocks: options.mocks)
    }

    /// Stage 5, translation and rendering: every file of `layout`, in its order.
    package static func render(_ translator: Translator, options: Generator.Options, layout: OutputLayout) -> [GeneratedFile] {
        let renderer = SwiftRenderer(access: options.access)
        let clients = options.clientModule.map { SwiftFile.Import(module: $0, isTestable: options.access == .internal) }
        return Generator.files(translator, renderer: renderer, layout: layout, importing: layout.mocks == .only ? clients : nil)
    }
}

/// A file reader that adds up the bytes it returns, for sizing the output to the input.
private final class CountingReader: @unchecked Sendable {
    private let lock = NSLock()
    private var total: Int
    private let base: @Sendable (String) -> Data?

    init(_ base: @escaping @Sendable (String) -> Data?, initial: Int) {
        self.base = base
        total = initial
    }

    /// The bytes read so far, the spec's own included.
    var bytes: Int { lock.withLock { total } }

    /// Reads through `base`, counting.
    var read: @Sendable (String) -> Data? {
        { [self] path in
            let data = base(path)
            lock.withLock { total += data?.count ?? 0 }
            return data
        }
    }
}

extension InputKind {
    /// The kind of the input whose root is `root`.
    init(of root: JSONNode) {
        let openapi = root["openapi"].map { $0.value.stringValue }
        self.init(openapi: openapi, hasSwagger: root["swagger"] != nil, hasPaths: root["paths"] != nil, hasInfo: root["info"] != nil)
    }
}
