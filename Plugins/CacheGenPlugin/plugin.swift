import Foundation
import PackagePlugin

/// Generates a Swift client from every `*.cachegen.json` in a target's sources.
///
/// A thin wrapper over `cachegen generate`: spec errors come back from the tool as
/// `file:line:column: error:` lines, which SwiftPM and Xcode show at the spec's line.
@main
struct CacheGenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let specs = target.sourceFiles.map(\.url).filter { $0.lastPathComponent.hasSuffix(".cachegen.json") }
        guard !specs.isEmpty else {
            Diagnostics.warning(
                "CacheGenPlugin found no spec in target '\(target.name)'; add a file named Name.cachegen.json to its sources, or remove the plugin"
            )
            return []
        }
        let tool = try context.tool(named: "cachegen")
        let outputDirectory = context.pluginWorkDirectoryURL.appending(path: "GeneratedSources")
        return specs.map { spec in
            .buildCommand(
                displayName: "Generating a cached client from \(spec.lastPathComponent)",
                executable: tool.url,
                arguments: ["generate", spec.path, "--output", outputDirectory.path],
                inputFiles: [spec],
                outputFiles: Self.outputFileNames(for: spec).map { outputDirectory.appending(path: $0) }
            )
        }
    }

    /// Files per kind, the same for every spec. The set is fixed so that outputs are known
    /// here, before the tool runs, without reading the spec (which may be JSON, YAML or an
    /// OpenAPI document); declarations are spread over the shards by a stable hash.
    static let shards = [("Models", 8), ("Repositories", 8), ("Mocks", 4)]

    /// Mirrors `OutputLayout(forSpec:).fileNames`: plugins cannot link library targets.
    static func outputFileNames(for spec: URL) -> [String] {
        var name = spec.lastPathComponent
        for suffix in [".json", ".cachegen"] where name.hasSuffix(suffix) {
            name.removeLast(suffix.count)
        }
        return shards.flatMap { kind, count in (0..<count).map { "\(name)+\(kind)\($0).cachegen.swift" } }
    }
}
