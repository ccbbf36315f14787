import CacheGenCore
import CacheGenReading
import CacheGenSpec
import CacheGenTranslation
import Foundation

/// The `cachegen` command line: argument handling and file I/O around `Generator`.
struct CommandLineTool {
    /// The version `--version` prints.
    static let version = "0.1.0"

    /// How a run ended.
    enum ExitStatus: Int32, Sendable {
        /// Everything worked.
        case success = 0
        /// A spec has errors, a file could not be read or written, or `--check` found stale output.
        case failure = 1
        /// The command line itself was wrong.
        case usage = 2
    }

    /// Where messages go; injected so tests read them word for word.
    let output: any ToolOutput

    static let help = """
        OVERVIEW: Generate typed, cached Swift API clients from *.cachegen.json specs
        and OpenAPI 3.0/3.1/3.2 or Swagger 2.0 documents (JSON or YAML).

        USAGE: cachegen <command> [options]

        A <spec> is a *.cachegen.json spec, an OpenAPI document (every GET cached with
        the defaults), or an overlay: a *.cachegen.json with "openapi": "api.yaml" and
        cache rules per operationId.

        COMMANDS:
          generate <spec>... --output <dir> [--access public|internal] [--check]
                   [--layout small|medium|large] [--mocks included|excluded|only]
                   [--module <name>]
                      Write each spec's Swift files into <dir>: Name+Models0.cachegen.swift
                      and the rest of a set sized to the spec (--layout: small is 3 files,
                      medium 11, large 41; by default from the bytes of the files read, under
                      16 KB small, under 64 KB medium). Nothing is written when any spec has
                      errors; a file is rewritten only when its bytes change, and files an
                      earlier run wrote for the spec that are no longer in the set are removed.
                      With --check, write nothing and exit 1 when <dir> is out of date.
                      --mocks: the Mock… repositories with the clients (the default),
                      without them (an app's target), or alone (a test target), importing
                      the clients' module, --module.
          validate <spec>...
                      Check specs and report every problem as file:line:column: error: …
          init [<spec>]
                      Write a starter spec (default API.cachegen.json) that explains itself.

        OPTIONS:
          -h, --help  Show this help.
          --version   Show the version.

        EXIT STATUS: 0 success, 1 spec errors or stale output, 2 usage errors.
        """

    /// Runs one command line (without the program name).
    func run(_ arguments: [String]) -> ExitStatus {
        guard let command = arguments.first else {
            output.error(Self.help)
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "-h", "--help", "help":
            output.print(Self.help)
            return .success
        case "--version":
            output.print("cachegen \(Self.version)")
            return .success
        case "generate":
            return generate(rest)
        case "validate":
            return validate(rest)
        case "init":
            return initialize(rest)
        default:
            return usageError("unknown command '\(command)'; use 'generate', 'validate' or 'init' (see cachegen --help)")
        }
    }

    // MARK: - Commands

    private struct GenerateOptions {
        var specs: [String] = []
        var outputDirectory: String?
        var access = AccessLevel.public
        var size: OutputLayout.Size?
        var mocks = OutputLayout.Mocks.included
        var module: String?
        var check = false
    }

    private func generate(_ arguments: [String]) -> ExitStatus {
        var options = GenerateOptions()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--output", "-o", "--access", "--layout", "--mocks", "--module":
                guard index + 1 < arguments.count else {
                    return usageError("\(argument) needs a value")
                }
                let value = arguments[index + 1]
                if argument == "--access" {
                    guard let access = AccessLevel(rawValue: value) else {
                        return usageError("--access must be 'public' or 'internal', not '\(value)'")
                    }
                    options.access = access
                } else if argument == "--layout" {
                    guard let size = OutputLayout.Size(rawValue: value) else {
                        return usageError("--layout must be 'small', 'medium' or 'large', not '\(value)'")
                    }
                    options.size = size
                } else if argument == "--mocks" {
                    guard let mocks = OutputLayout.Mocks(rawValue: value) else {
                        return usageError("--mocks must be 'included', 'excluded' or 'only', not '\(value)'")
                    }
                    options.mocks = mocks
                } else if argument == "--module" {
                    options.module = value
                } else {
                    options.outputDirectory = value
                }
                index += 2
                continue
            case "--check":
                options.check = true
            case "-h", "--help":
                output.print(Self.help)
                return .success
            default:
                if argument.hasPrefix("-") { return usageError("unknown option '\(argument)' for generate") }
                options.specs.append(argument)
            }
            index += 1
        }
        guard !options.specs.isEmpty else { return usageError("generate needs at least one spec file") }
        if options.mocks == .only, options.module == nil {
            return usageError("--mocks only needs --module <name>, the module that holds the clients")
        }
        guard let directory = options.outputDirectory else {
            return usageError("generate needs --output <dir>, the folder for the Swift files")
        }
        let names = options.specs.map(OutputLayout.specName(of:))
        if let duplicate = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
            return usageError("two specs would both write \(duplicate)+*.cachegen.swift; rename one of them")
        }

        var sets: [OutputSet] = []
        var failed = false
        for spec in options.specs {
            guard let data = read(spec) else {
                failed = true
                continue
            }
            let result = Generator.generate(
                data, path: spec,
                options: .init(access: options.access, size: options.size, mocks: options.mocks, clientModule: options.module))
            report(result.diagnostics)
            if let files = result.files { sets.append(OutputSet(layout: result.layout, files: files)) } else { failed = true }
        }
        if failed {
            output.error("error: no files written: fix the errors above and run again")
            return .failure
        }
        let outputURL = URL(fileURLWithPath: directory, isDirectory: true)
        return options.check ? check(sets, in: outputURL) : write(sets, to: outputURL)
    }

    private func validate(_ arguments: [String]) -> ExitStatus {
        if let option = arguments.first(where: { $0.hasPrefix("-") }) {
            if option == "-h" || option == "--help" {
                output.print(Self.help)
                return .success
            }
            return usageError("unknown option '\(option)' for validate")
        }
        guard !arguments.isEmpty else { return usageError("validate needs at least one spec file") }
        var failed = false
        for spec in arguments {
            guard let data = read(spec) else {
                failed = true
                continue
            }
            let diagnostics = Generator.validate(data, path: spec)
            report(diagnostics)
            if diagnostics.contains(where: { $0.severity == .error }) { failed = true }
        }
        if !failed { output.print("\(arguments.count == 1 ? "spec is" : "\(arguments.count) specs are") valid") }
        return failed ? .failure : .success
    }

    /// Writes the starter spec; never over an existing file.
    private func initialize(_ arguments: [String]) -> ExitStatus {
        if let option = arguments.first(where: { $0.hasPrefix("-") }) {
            return usageError("unknown option '\(option)' for init")
        }
        guard arguments.count <= 1 else { return usageError("init takes at most one file name") }
        let path = arguments.first ?? "API.cachegen.json"
        guard !FileManager.default.fileExists(atPath: path) else {
            output.error("error: \(path) already exists; choose another name or remove it first")
            return .failure
        }
        do {
            try Data(StarterSpec.text.utf8).write(to: URL(fileURLWithPath: path), options: .withoutOverwriting)
        } catch {
            output.error("error: cannot write \(path): \(error.localizedDescription)")
            return .failure
        }
        output.print(
            """
            Wrote \(path). Next:
              1. Describe your API in it: models, repositories and their endpoints.
              2. Put it in a target's sources and add CacheGenPlugin to the target, or run
                 cachegen generate \(path) --output Generated/
            """)
        return .success
    }

    private func read(_ path: String) -> Data? {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            output.error("\(path): error: cannot read the spec file; check the path")
            return nil
        }
    }

    private func report(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics { output.error(diagnostic.description) }
    }

    private func usageError(_ message: String) -> ExitStatus {
        output.error("error: \(message)")
        return .usage
    }
}

/// Where the tool writes; standard output and error in the real program.
protocol ToolOutput: Sendable {
    /// Normal output.
    func print(_ text: String)
    /// Diagnostics and errors.
    func error(_ text: String)
}

/// The process's standard output and standard error.
struct StandardStreams: ToolOutput {
    func print(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
