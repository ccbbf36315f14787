import CacheGenOpenAPI
import CacheGenReading
import CacheGenSpec
import CacheGenTranslation
import Foundation

/// The generator's one entry point: spec bytes in, Swift files or located diagnostics out.
///
/// It runs the stages `GeneratorPipeline` names in order (read and classify the input,
/// make the `Spec`, validate, lay out, translate and render), each with a typed boundary.
/// The CLI and the build plugin are thin wrappers over this.
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
        GeneratorPipeline.run(data, path: path, options: options, read: read)
    }

    /// Parses and validates without rendering, as `cachegen validate` does.
    public static func validate(_ data: Data, path: String, read: @escaping @Sendable (String) -> Data? = readFile) -> [Diagnostic] {
        GeneratorPipeline.check(data, path: path, read: read).diagnostics
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
        guard let root = try? JSONReader.parse(data, file: path), InputKind(of: root) == .overlay,
            let relative = root["openapi"]?.value.stringValue
        else { return nil }
        return OpenAPIReferences.path(relative, nextTo: path)
    }
}
