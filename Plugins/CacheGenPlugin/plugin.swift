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
                outputFiles: [outputDirectory.appending(path: outputFileName(for: spec))]
            )
        }
    }

    /// Mirrors `Generator.outputFileName(forSpec:)`: plugins cannot link library targets.
    private func outputFileName(for spec: URL) -> String {
        var name = spec.lastPathComponent
        for suffix in [".json", ".cachegen"] where name.hasSuffix(suffix) {
            name.removeLast(suffix.count)
        }
        return name + ".cachegen.swift"
    }
}
