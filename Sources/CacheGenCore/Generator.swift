import Dispatch
import Foundation

/// The generator's one entry point: spec bytes in, Swift source or located diagnostics out.
///
/// Stages with typed boundaries: `JSONReader` (bytes → located JSON), `SpecParser`
/// (→ `Spec`), `SpecValidator` (rules), `Translator` (→ code model), `SwiftRenderer`
/// (→ text). The last two work section by section (the models, then each repository), on
/// all cores at once; the text is the same as one pass would write. The CLI and the build
/// plugin are thin wrappers over this.
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
        /// The generated Swift source, or `nil` when the spec has errors.
        public var source: String?
        /// Errors and warnings, in file order.
        public var diagnostics: [Diagnostic]

        /// Whether any diagnostic is an error.
        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// Parses, validates and, if the spec has no errors, renders it.
    ///
    /// - Parameters:
    ///   - data: the spec file's bytes.
    ///   - path: the path shown in diagnostics.
    public static func generate(_ data: Data, path: String, options: Options = Options()) -> Output {
        let (spec, diagnostics) = check(data, path: path)
        guard let spec, !diagnostics.contains(where: { $0.severity == .error }) else {
            return Output(source: nil, diagnostics: diagnostics)
        }
        let sourceName = path.split(separator: "/").last.map(String.init) ?? path
        let translator = Translator(spec: spec, sourceName: sourceName)
        let renderer = SwiftRenderer(access: options.access)
        // Sections are independent: each is translated, rendered and freed on its own core.
        let sections = concurrentMap(count: translator.sectionCount) { renderer.render(translator.section($0)) }
        let source = ([renderer.renderOutline(translator.outline())] + sections).joined()
        return Output(source: source, diagnostics: diagnostics)
    }

    /// Parses and validates without rendering, as `cachegen validate` does.
    public static func validate(_ data: Data, path: String) -> [Diagnostic] {
        check(data, path: path).diagnostics
    }

    /// The Swift file name for a spec: `Accounts.cachegen.json` → `Accounts.cachegen.swift`.
    public static func outputFileName(forSpec path: String) -> String {
        var name = path.split(separator: "/").last.map(String.init) ?? path
        for suffix in [".json", ".cachegen"] where name.hasSuffix(suffix) {
            name.removeLast(suffix.count)
        }
        return name + ".cachegen.swift"
    }

    /// `transform` of `0..<count` on every core, in order.
    private static func concurrentMap(count: Int, _ transform: @Sendable (Int) -> String) -> [String] {
        let results = Results(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { index in results.set(transform(index), at: index) }
        return results.values
    }

    /// One slot per index; `concurrentPerform` fills them from several threads.
    private final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [String]

        init(count: Int) { slots = Array(repeating: "", count: count) }

        func set(_ value: String, at index: Int) {
            lock.lock()
            slots[index] = value
            lock.unlock()
        }

        var values: [String] {
            lock.lock()
            defer { lock.unlock() }
            return slots
        }
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
