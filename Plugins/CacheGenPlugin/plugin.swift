import Foundation
import PackagePlugin

/// Generates a Swift client from every `*.cachegen.json` in a target's sources: a spec,
/// or an overlay naming an OpenAPI document (`"openapi": "api.yaml"`).
///
/// A thin wrapper over `cachegen generate`: spec errors come back from the tool as
/// `file:line:column: error:` lines, which SwiftPM and Xcode show at the spec's line.
/// An overlay's document is an input of its command too, so editing either rebuilds.
/// Packages and Xcode projects go through the same `commands(files:…)`, which leaves the
/// choice of files to `CacheGenInputs` (shared with the command plugin).
@main
struct CacheGenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        return try Self.commands(
            files: target.sourceFiles.map(\.url), targetName: target.name,
            workDirectory: context.pluginWorkDirectoryURL, tool: context.tool(named:))
    }

    /// One build command per spec of a target, and the target's warnings; the whole plugin
    /// for both a package target and an Xcode target.
    static func commands(
        files: [URL], targetName: String, workDirectory: URL, tool: (String) throws -> PluginContext.Tool
    ) throws -> [Command] {
        let inputs = CacheGenInputs(files: files)
        for warning in inputs.warnings(targetName: targetName, plugin: "CacheGenPlugin") {
            Diagnostics.warning(warning)
        }
        guard !inputs.specs.isEmpty else { return [] }
        let executable = try tool("cachegen").url
        let outputDirectory = workDirectory.appending(path: "GeneratedSources")
        return inputs.specs.map { spec in
            let size = CacheGenInputs.outputSize(for: spec)
            return .buildCommand(
                displayName: "Generating a cached client from \(spec.lastPathComponent)",
                executable: executable,
                arguments: ["generate", spec.path, "--output", outputDirectory.path, "--layout", size],
                inputFiles: CacheGenInputs.inputFiles(for: spec),
                outputFiles: CacheGenInputs.outputFileNames(for: spec, size: size).map { outputDirectory.appending(path: $0) }
            )
        }
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

/// The same plugin in an Xcode project: an app target's input files play the part of a
/// package target's sources.
extension CacheGenPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        try Self.commands(
            files: target.inputFiles.map(\.url), targetName: target.displayName,
            workDirectory: context.pluginWorkDirectoryURL, tool: context.tool(named:))
    }
}
#endif
