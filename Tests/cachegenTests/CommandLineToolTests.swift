import CacheGenCore
import FixtureServerSupport
import Foundation
import Testing

@testable import cachegen

/// The CLI's exit codes and every message it prints, word for word.
@Suite struct CommandLineToolTests {
    static let examples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/specs")

    @Test func helpAndVersion() {
        let help = run(["--help"])
        #expect(help.status == .success)
        #expect(help.out == [CommandLineTool.help])
        let version = run(["--version"])
        #expect(version.status == .success)
        #expect(version.out == ["cachegen 0.1.0"])
    }

    @Test func usageErrorsExitTwo() {
        #expect(run([]).status == .usage)
        #expect(run(["frobnicate"]).err == ["error: unknown command 'frobnicate'; use 'generate', 'validate' or 'init' (see cachegen --help)"])
        #expect(run(["generate"]).err == ["error: generate needs at least one spec file"])
        #expect(run(["generate", "a.json"]).err == ["error: generate needs --output <dir>, the folder for the Swift files"])
        #expect(run(["generate", "a.json", "--output"]).err == ["error: --output needs a value"])
        #expect(run(["generate", "a.json", "-o", "x", "--access", "open"]).err == ["error: --access must be 'public' or 'internal', not 'open'"])
        #expect(run(["generate", "a.json", "-o", "x", "--verbose"]).err == ["error: unknown option '--verbose' for generate"])
        #expect(run(["generate", "a/X.cachegen.json", "b/X.cachegen.json", "-o", "x"]).err == ["error: two specs would both write X+*.cachegen.swift; rename one of them"])
        #expect(run(["generate", "a.json", "-o", "x", "--mocks", "none"]).err == ["error: --mocks must be 'included', 'excluded' or 'only', not 'none'"])
        #expect(run(["generate", "a.json", "-o", "x", "--mocks", "only"]).err == ["error: --mocks only needs --module <name>, the module that holds the clients"])
        #expect(run(["validate"]).err == ["error: validate needs at least one spec file"])
        for arguments in [["frobnicate"], ["generate"], ["validate", "--strict", "a.json"]] {
            #expect(run(arguments).status == .usage)
        }
    }

    @Test func validateReportsEveryProblemAndExitsOne() throws {
        let directory = try TemporaryDirectory()
        let spec = try directory.write("Bad.cachegen.json", #"{ "version": 2, "modles": {}, "repositories": {} }"#)
        let result = run(["validate", spec])
        #expect(result.status == .failure)
        #expect(
            result.err == [
                "\(spec):1:14: error: unsupported spec version 2; this cachegen reads version 1",
                "\(spec):1:17: error: unknown key \"modles\" in the spec; did you mean \"models\"?",
            ])
        let good = run(["validate", Self.examples.appendingPathComponent("Accounts.cachegen.json").path])
        #expect(good.status == .success)
        #expect(good.out == ["spec is valid"])
    }

    @Test func initWritesAValidStarterSpecAndNeverOverwrites() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("Shop.cachegen.json").path
        let first = run(["init", path])
        #expect(first.status == .success)
        #expect(
            first.out == [
                """
                Wrote \(path). Next:
                  1. Describe your API in it: models, repositories and their endpoints.
                  2. Put it in a target's sources and add CacheGenPlugin to the target, or run
                     cachegen generate \(path) --output Generated/
                """
            ])
        #expect(run(["validate", path]).status == .success)
        let again = run(["init", path])
        #expect(again.status == .failure)
        #expect(again.err == ["error: \(path) already exists; choose another name or remove it first"])
        #expect(run(["init", "a.json", "b.json"]).err == ["error: init takes at most one file name"])
    }

    @Test func unreadableSpecIsAnError() {
        let result = run(["validate", "/nonexistent/Missing.cachegen.json"])
        #expect(result.status == .failure)
        #expect(result.err == ["/nonexistent/Missing.cachegen.json: error: cannot read the spec file; check the path"])
    }

    @Test func anOpenAPIDocumentAndAnOverlayGenerateValidateAndCheck() throws {
        let directory = try TemporaryDirectory()
        let document = try directory.write(
            "api.yaml",
            """
            openapi: 3.0.3
            info: { title: Notes, version: "1" }
            paths:
              /notes:
                get:
                  operationId: listNotes
                  responses:
                    "200":
                      description: ok
                      content: { application/json: { schema: { type: array, items: { type: string } } } }
            """)
        let overlay = try directory.write(
            "Notes.cachegen.json", #"{ "openapi": "api.yaml", "operations": { "listNote": { "ttl": "1h" } } }"#)
        let output = directory.url.appendingPathComponent("Out").path
        #expect(run(["validate", document]).out == ["spec is valid"])
        #expect(run(["generate", document, "--output", output]).out == ["cachegen: 3 written, 0 unchanged in \(output)"])
        #expect(FileManager.default.fileExists(atPath: output + "/api+Repositories0.cachegen.swift"))
        #expect(run(["generate", document, "--output", output, "--check"]).status == .success)

        let wrong = run(["validate", overlay])
        #expect(wrong.status == .failure)
        #expect(
            wrong.err == [
                "\(overlay):1:42: error: \"operations\" names \"listNote\", which is not an operation of api.yaml; did you mean \"listNotes\"?"
            ])
        _ = try directory.write("Notes.cachegen.json", #"{ "openapi": "api.yaml", "operations": { "listNotes": { "ttl": "1h" } } }"#)
        #expect(run(["generate", overlay, "--output", output]).out == ["cachegen: 3 written, 0 unchanged in \(output)"])
        let source = try FileManager.default.contentsOfDirectory(atPath: output).filter { $0.hasPrefix("Notes+") }
            .map { try String(contentsOfFile: output + "/" + $0, encoding: .utf8) }.joined()
        #expect(source.contains("cache: CacheRule(ttl: 3600, maxStale: 604800, policy: .networkFirst, scope: .user)"))
        #expect(run(["generate", overlay, "--output", output, "--check"]).out == ["cachegen: 3 up to date in \(output)"])
    }

    @Test func nothingIsWrittenWhenAnySpecHasErrors() throws {
        let directory = try TemporaryDirectory()
        let good = Self.examples.appendingPathComponent("News.cachegen.json").path
        let bad = try directory.write("Bad.cachegen.json", "{ \"version\": 1, \"repositories\": { \"R\": 3 } }")
        let output = directory.url.appendingPathComponent("Out").path
        let result = run(["generate", good, bad, "--output", output])
        #expect(result.status == .failure)
        #expect(
            result.err == [
                "\(bad):1:40: error: repository \"R\" must be an object; found a number",
                "error: no files written: fix the errors above and run again",
            ])
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func filesAreRewrittenOnlyWhenTheirBytesChange() throws {
        let directory = try TemporaryDirectory()
        let spec = Self.examples.appendingPathComponent("Music.cachegen.json").path
        let output = directory.url.appendingPathComponent("Generated")
        let first = run(["generate", spec, "--output", output.path])
        #expect(first.status == .success)
        #expect(first.out == ["cachegen: 3 written, 0 unchanged in \(output.path)"])

        let file = output.appendingPathComponent(Self.chartFile)
        let past = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: file.path)
        let second = run(["generate", spec, "--output", output.path])
        #expect(second.out == ["cachegen: 0 written, 3 unchanged in \(output.path)"])
        let date = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        #expect(date == past)
    }

    @Test func checkModeFailsOnStaleOutputAndWritesNothing() throws {
        let directory = try TemporaryDirectory()
        let spec = Self.examples.appendingPathComponent("Music.cachegen.json").path
        let output = directory.url.appendingPathComponent("Generated")
        let missing = run(["generate", spec, "--output", output.path, "--check"])
        #expect(missing.status == .failure)
        #expect(
            missing.err == OutputLayout(forSpec: spec, size: .small).fileNames.map { "stale: \($0): missing" } + [
                "error: generated code is out of date; run cachegen generate without --check"
            ])
        #expect(!FileManager.default.fileExists(atPath: output.path))

        #expect(run(["generate", spec, "--output", output.path]).status == .success)
        let upToDate = run(["generate", spec, "--output", output.path, "--check"])
        #expect(upToDate.status == .success)
        #expect(upToDate.out == ["cachegen: 3 up to date in \(output.path)"])

        let file = output.appendingPathComponent(Self.chartFile)
        var text = try String(contentsOf: file, encoding: .utf8)
        text = text.replacingOccurrences(of: "public struct Chart:", with: "public struct Chart2:")
        try Data(text.utf8).write(to: file)
        let stale = run(["generate", spec, "--output", output.path, "--check"])
        #expect(stale.status == .failure)
        #expect(stale.err.first?.hasPrefix("stale: \(Self.chartFile): differs from line ") == true)
    }

    /// The file of Music's models (a small spec: one file of models) that holds `Chart`.
    static let chartFile = "Music+Models0.cachegen.swift"

    /// Files an earlier run wrote for the spec (the one-file layout, a shard no longer in the
    /// set) are removed by generate and reported by --check; other files are left alone.
    @Test func filesNoLongerGeneratedAreRemovedAndCheckedFor() throws {
        let directory = try TemporaryDirectory()
        let spec = Self.examples.appendingPathComponent("Music.cachegen.json").path
        let output = directory.url.appendingPathComponent("Generated")
        #expect(run(["generate", spec, "--output", output.path]).status == .success)
        let kept = ["Music.V2+Models0.cachegen.swift", "News+Models0.cachegen.swift", "Music.swift"]
        for name in ["Music.cachegen.swift", "Music+Models99.cachegen.swift"] + kept {
            try Data("// old\n".utf8).write(to: output.appendingPathComponent(name))
        }
        let check = run(["generate", spec, "--output", output.path, "--check"])
        #expect(check.status == .failure)
        #expect(
            check.err == [
                "stale: Music+Models99.cachegen.swift: no longer generated; remove it",
                "stale: Music.cachegen.swift: no longer generated; remove it",
                "error: generated code is out of date; run cachegen generate without --check",
            ])
        let write = run(["generate", spec, "--output", output.path])
        #expect(write.out == ["cachegen: 0 written, 3 unchanged, 2 stale removed in \(output.path)"])
        let left = try FileManager.default.contentsOfDirectory(atPath: output.path)
        #expect(Set(left) == Set(OutputLayout(forSpec: spec, size: .small).fileNames + kept))
        #expect(run(["generate", spec, "--output", output.path, "--check"]).status == .success)
    }

    /// Mocks without the clients and the clients without mocks, into one folder in turn: each
    /// run writes its files and removes the other's.
    @Test func mocksGoWhereTheyAreAskedFor() throws {
        let directory = try TemporaryDirectory()
        let spec = Self.examples.appendingPathComponent("Music.cachegen.json").path
        let output = directory.url.appendingPathComponent("Generated").path
        #expect(run(["generate", spec, "--output", output, "--mocks", "only", "--module", "MusicApp"]).status == .success)
        #expect(try FileManager.default.contentsOfDirectory(atPath: output) == ["Music+Mocks0.cachegen.swift"])
        let mocks = try String(contentsOfFile: output + "/Music+Mocks0.cachegen.swift", encoding: .utf8)
        #expect(mocks.contains("import Foundation\nimport MusicApp\n"))
        let clients = run(["generate", spec, "--output", output, "--mocks", "excluded"])
        #expect(clients.out == ["cachegen: 2 written, 0 unchanged, 1 stale removed in \(output)"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: output).sorted() == ["Music+Models0.cachegen.swift", "Music+Repositories0.cachegen.swift"])
    }

    @Test func everyMalformedSpecExitsOneWithLocatedErrors() throws {
        let directory = try TemporaryDirectory()
        let valid = try String(contentsOf: Self.examples.appendingPathComponent("Accounts.cachegen.json"), encoding: .utf8)
        let malformed = [
            "", "{", "[]", "{\"version\": 1,}", "{\"version\": 1 \"repositories\": {}}", "{'version': 1}",
            "{\"version\": 1, \"version\": 1}", "\u{FF}\u{FE}", String(valid.dropLast(40)),
            valid.replacingOccurrences(of: "\"response\": \"[Account]\"", with: "\"response\": \"[Acount]\""),
            valid.replacingOccurrences(of: "\"10m\"", with: "\"10 minutes\""),
            valid.replacingOccurrences(of: "\"key\": [\"page\", \"per_page\"]", with: "\"key\": [\"pages\"]"),
        ]
        let output = directory.url.appendingPathComponent("Out")
        for (index, text) in malformed.enumerated() {
            let spec = try directory.write("M\(index).cachegen.json", text)
            let result = run(["generate", spec, "--output", output.path])
            #expect(result.status == .failure, "case \(index)")
            let located = result.err.dropLast()
            #expect(!located.isEmpty, "case \(index)")
            for line in located {
                #expect(line.range(of: #"^.+:\d+:\d+: error: .+"#, options: .regularExpression) != nil, "\(line)")
            }
            #expect(!FileManager.default.fileExists(atPath: output.path), "case \(index)")
        }
    }

    @Test(.enabled(if: CommandLineToolTests.binary != nil))
    func theBuiltBinaryExitsWithTheDocumentedCodes() throws {
        let directory = try TemporaryDirectory()
        let bad = try directory.write("Bad.cachegen.json", "{")
        #expect(try launch(["--version"]) == 0)
        #expect(try launch(["validate", bad]) == 1)
        #expect(try launch(["nonsense"]) == 2)
    }

    // MARK: - Helpers

    /// The `cachegen` executable next to the test bundle, when SwiftPM built it there.
    static let binary: URL? = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("cachegen")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        return nil
    }()

    private func launch(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try ChildProcess.start(process)
        process.waitUntilExit()
        return process.terminationStatus
    }

    private func run(_ arguments: [String]) -> (status: CommandLineTool.ExitStatus, out: [String], err: [String]) {
        let output = CapturedOutput()
        let status = CommandLineTool(output: output).run(arguments)
        return (status, output.lines(\.out), output.lines(\.err))
    }
}

/// Collects what the tool prints.
final class CapturedOutput: ToolOutput, @unchecked Sendable {
    private let lock = NSLock()
    private var captured: (out: [String], err: [String]) = ([], [])

    func print(_ text: String) { lock.withLock { captured.out.append(text) } }
    func error(_ text: String) { lock.withLock { captured.err.append(text) } }
    func lines(_ stream: KeyPath<(out: [String], err: [String]), [String]>) -> [String] {
        lock.withLock { captured[keyPath: stream] }
    }
}

/// A folder removed when the test ends.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("cachegen-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes a file and returns its path.
    func write(_ name: String, _ text: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }
}
