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
    /// A target's own specs become its clients, with their mocks only in a test target; a test
    /// target also gets the mocks of the specs of the targets it depends on, importing them,
    /// so an app compiles no mock and its tests have every one.
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let isTest = target.kind == .test
        var tested: [(module: String, files: [URL])] = []
        if isTest {
            for case .target(let dependency) in target.dependencies {
                guard let dependency = dependency as? SourceModuleTarget else { continue }
                tested.append((dependency.moduleName, dependency.sourceFiles.map(\.url)))
            }
        }
        return try Self.commands(
            files: target.sourceFiles.map(\.url), targetName: target.name, workDirectory: context.pluginWorkDirectoryURL,
            tool: context.tool(named:), mocks: isTest ? "included" : "excluded", tested: tested)
    }

    /// The build commands of a target and its warnings; the whole plugin for both a package
    /// target and an Xcode target. `files` are the target's own; `tested` are the targets whose
    /// mocks it gets (module name and files).
    static func commands(
        files: [URL], targetName: String, workDirectory: URL, tool: (String) throws -> PluginContext.Tool, mocks: String,
        tested: [(module: String, files: [URL])] = []
    ) throws -> [Command] {
        let inputs = CacheGenInputs(files: files)
        let testedInputs = tested.map { (module: $0.module, inputs: CacheGenInputs(files: $0.files)) }.filter { !$0.inputs.specs.isEmpty }
        for warning in inputs.warnings(targetName: targetName, plugin: "CacheGenPlugin", testsOthers: !testedInputs.isEmpty) {
            Diagnostics.warning(warning)
        }
        guard !inputs.specs.isEmpty || !testedInputs.isEmpty else { return [] }
        let executable = try tool("cachegen").url
        let outputDirectory = workDirectory.appending(path: "GeneratedSources")
        var commands = inputs.specs.map { spec in
            command(for: spec, executable: executable, outputDirectory: outputDirectory, mocks: mocks, module: nil)
        }
        for (module, moduleInputs) in testedInputs {
            // A folder per tested module: two of them may have specs of one name.
            let folder = outputDirectory.appending(path: module)
            commands += moduleInputs.specs.map { spec in
                command(for: spec, executable: executable, outputDirectory: folder, mocks: "only", module: module)
            }
        }
        return commands
    }

    /// The command that writes `spec`'s files into `outputDirectory`.
    private static func command(for spec: URL, executable: URL, outputDirectory: URL, mocks: String, module: String?) -> Command {
        let size = CacheGenInputs.outputSize(for: spec)
        var arguments = ["generate", spec.path, "--output", outputDirectory.path, "--layout", size, "--mocks", mocks]
        if let module { arguments += ["--module", module] }
        return .buildCommand(
            displayName: module.map { "Generating the mocks of \($0)'s \(spec.lastPathComponent)" }
                ?? "Generating a cached client from \(spec.lastPathComponent)",
            executable: executable,
            arguments: arguments,
            inputFiles: CacheGenInputs.inputFiles(for: spec),
            outputFiles: CacheGenInputs.outputFileNames(for: spec, size: size, mocks: mocks).map { outputDirectory.appending(path: $0) }
        )
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

/// The same plugin in an Xcode project: an app target's input files play the part of a
/// package target's sources.
extension CacheGenPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        // Mocks stay with the clients here: the project's test targets are not known to the
        // plugin in this form.
        try Self.commands(
            files: target.inputFiles.map(\.url), targetName: target.displayName,
            workDirectory: context.pluginWorkDirectoryURL, tool: context.tool(named:), mocks: "included")
    }
}
#endif
