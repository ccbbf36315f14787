import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory generate-cached-clients`: one-off
/// generation into the source tree, for teams that check generated code in.
///
/// A thin wrapper over `cachegen generate`, with its options and exit status:
/// - `generate-cached-clients [--target <name>]... [--access public|internal] [--check]`
///   generates each target's specs (every `*.cachegen.json` under the target's folder,
///   excluded files included) into `<target folder>/Generated/`; without `--target`, every
///   target that has a spec.
/// - `generate-cached-clients <spec>... --output <dir> [--access …] [--check]` is the CLI's
///   own command line, paths relative to the package.
///
/// The plugin ends with the CLI's exit status: 0 success, 1 spec errors or stale output
/// (`--check`), 2 usage. `swift package` itself exits 1 for any failure and names the
/// plugin's status (`error: Plugin ended with exit code 2`).
@main
struct GenerateCachedClients: CommandPlugin {
    static let help = """
        OVERVIEW: Generate cached API clients into the source tree, to check them in.

        USAGE: swift package --allow-writing-to-package-directory generate-cached-clients
                 [--target <target>]... [--access public|internal] [--check]
               swift package --allow-writing-to-package-directory generate-cached-clients
                 <spec>... --output <dir> [--access public|internal] [--check]

        With --target (or nothing), each target's *.cachegen.json files (specs and OpenAPI
        overlays under the target's folder) are generated into <target folder>/Generated/.
        With spec files, this is `cachegen generate` run in the package's folder.
        Keep specs out of the build (exclude them, or keep them outside Sources/) and do not
        also apply CacheGenPlugin to the target: each would compile the same declarations.

        OPTIONS:
          --target <target>   A target to generate for; repeat for several (default: every
                              target that has a spec).
          --output <dir>      The folder for the Swift files (with spec files, or one target).
          --access <level>    public (default) or internal.
          --mocks <which>     included (default): Mock… repositories with the clients;
                              excluded: without them; only: just them, with --module <name>
                              naming the module of the clients they import.
          --check             Write nothing; exit 1 when the checked-in files are out of date.

        EXIT STATUS: the plugin ends with 0 on success, 1 for spec errors or stale output,
        2 for usage errors; swift package then exits 1 and prints "Plugin ended with exit code N".
        """

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(Self.help)
            return
        }
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        let passedOn = extractor.remainingArguments
        let tool = try context.tool(named: "cachegen").url
        let packageDirectory = context.package.directoryURL
        let hasSpecs = passedOn.contains { !$0.hasPrefix("-") && !isOptionValue($0, in: passedOn) }

        if hasSpecs {
            guard targetNames.isEmpty else {
                usageError("give either spec files or --target, not both")
            }
            finish(run(tool, ["generate"] + passedOn, in: packageDirectory))
        }

        let targets: [SourceModuleTarget]
        if targetNames.isEmpty {
            targets = context.package.targets.compactMap { $0 as? SourceModuleTarget }
                .filter { !CacheGenInputs(files: files(under: folder(of: $0))).specs.isEmpty }
        } else {
            let all = context.package.targets
            targets = targetNames.map { name in
                guard let target = all.first(where: { $0.name == name }) as? SourceModuleTarget else {
                    let names = all.map(\.name).sorted().joined(separator: ", ")
                    usageError("no source target named '\(name)' in this package; its targets are \(names)")
                }
                return target
            }
        }
        guard !targets.isEmpty else {
            usageError(
                "no target has a *.cachegen.json spec; add one to a target's folder, or name spec files and --output")
        }
        if targets.count > 1, passedOn.contains("--output") || passedOn.contains("-o") {
            usageError("--output names one folder; use it with one --target, or leave it out to use each target's Generated/")
        }

        var worst: Int32 = 0
        for target in targets {
            let inputs = CacheGenInputs(files: files(under: folder(of: target)))
            guard !inputs.specs.isEmpty else {
                printError(
                    "error: target '\(target.name)' has no *.cachegen.json under \(folder(of: target).path); add a spec there, or name spec files and --output")
                worst = max(worst, 1)
                continue
            }
            for warning in inputs.warnings(targetName: target.name, plugin: "generate-cached-clients") {
                Diagnostics.warning(warning)
            }
            var arguments = ["generate"] + inputs.specs.map(\.path) + passedOn
            if !passedOn.contains("--output") && !passedOn.contains("-o") {
                arguments += ["--output", folder(of: target).appending(path: "Generated").path]
            }
            worst = max(worst, run(tool, arguments, in: packageDirectory))
        }
        finish(worst)
    }

    /// Whether `argument` is the value of the option before it (`--output Generated`).
    private func isOptionValue(_ argument: String, in arguments: [String]) -> Bool {
        guard let index = arguments.firstIndex(of: argument), index > 0 else { return false }
        return ["--output", "-o", "--access", "--layout", "--mocks", "--module"].contains(arguments[index - 1])
    }

    /// The target's folder (`Target.directoryURL` needs tools version 6.1, and `Path.string` is deprecated).
    private func folder(of target: SourceModuleTarget) -> URL {
        URL(fileURLWithPath: String(describing: target.directory), isDirectory: true)
    }

    /// Every file under a target's folder, excluded ones included, sorted so that runs agree;
    /// `Generated/` folders are skipped.
    private func files(under directory: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        else { return [] }
        var files: [URL] = []
        for case let url as URL in enumerator {
            if url.lastPathComponent == "Generated" {
                enumerator.skipDescendants()
            } else if url.pathExtension == "json" || url.pathExtension == "yaml" || url.pathExtension == "yml" {
                files.append(url)
            }
        }
        return files.sorted { $0.path < $1.path }
    }

    /// Runs the tool with the plugin's standard output and error, and returns its exit status.
    private func run(_ tool: URL, _ arguments: [String], in directory: URL) -> Int32 {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        process.currentDirectoryURL = directory
        do {
            try process.run()
        } catch {
            Diagnostics.error("cannot run cachegen at \(tool.path): \(error.localizedDescription)")
            return 1
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Ends the command with the tool's exit status, which `swift package` passes on.
    private func finish(_ status: Int32) -> Never {
        exit(status)
    }

    private func usageError(_ message: String) -> Never {
        printError("error: \(message)")
        exit(2)
    }

    private func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
