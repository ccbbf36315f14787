import FixtureServerSupport
import Foundation
import Testing

/// The command plugin as a user runs it: `swift package generate-cached-clients` in a scratch
/// package that depends on this repository by path. One test, because every `swift package`
/// run costs seconds (the first one builds `cachegen` for the scratch package, which lives
/// under this repository's `.build/` so that later runs reuse its build folder).
///
/// It runs only with `CACHEGEN_PLUGIN_TEST=1`: its first run compiles the generator for the
/// scratch package, and on two cores that compile, next to the rest of `swift test`, would
/// push time-limited tests over their limits. `.ci/run` runs it on its own after `swift test`:
/// `CACHEGEN_PLUGIN_TEST=1 swift test --skip-build --filter GenerateCachedClientsTests`.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["CACHEGEN_PLUGIN_TEST"] == "1", "set CACHEGEN_PLUGIN_TEST=1 to run swift package on a scratch package"))
struct GenerateCachedClientsTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func generatesChecksAndReportsTheCLIsExitStatus() throws {
        let package = try Self.scratchPackage()
        defer { try? FileManager.default.removeItem(at: package.appending(path: "Sources")) }
        let generated = package.appending(path: "Sources/BankAPI/Generated")

        let first = try Self.swiftPackage(in: package, ["generate-cached-clients"])
        #expect(first.status == 0, "\(first.output)")
        let names = try FileManager.default.contentsOfDirectory(atPath: generated.path).sorted()
        #expect(names.count == 3)  // a small spec: models, repositories, mocks
        #expect(names.first == "Bank+Mocks0.cachegen.swift")
        let all = try names.map { try String(contentsOf: generated.appending(path: $0), encoding: .utf8) }.joined()
        #expect(all.contains("public protocol AccountRepository: Sendable"))
        #expect(all.contains("public struct Account: Codable, Sendable, Equatable"))

        let upToDate = try Self.swiftPackage(in: package, ["generate-cached-clients", "--target", "BankAPI", "--check"])
        #expect(upToDate.status == 0, "\(upToDate.output)")
        #expect(upToDate.output.contains("cachegen: 3 up to date in"))

        let edited = try names.first { name in
            try String(contentsOf: generated.appending(path: name), encoding: .utf8).contains("struct Account:")
        }
        let editedFile = generated.appending(path: try #require(edited))
        try Data("// edited by hand\n".utf8).write(to: editedFile)
        let stale = try Self.swiftPackage(in: package, ["generate-cached-clients", "--check"])
        #expect(stale.status == 1)
        #expect(stale.output.contains("Plugin ended with exit code 1"))
        #expect(stale.output.contains("stale: \(try #require(edited)): differs from line 1"))
        #expect(stale.output.contains("error: generated code is out of date; run cachegen generate without --check"))

        let usage = try Self.swiftPackage(in: package, ["generate-cached-clients", "--access", "open"])
        // `swift package` exits 1 whatever a plugin's status; the CLI's 2 is in its message.
        #expect(usage.status == 1)
        #expect(usage.output.contains("Plugin ended with exit code 2"))
        #expect(usage.output.contains("error: --access must be 'public' or 'internal', not 'open'"))
    }

    /// A package with one library target holding a spec, excluded from the build as the
    /// plugin's help says, and no build plugin; its sources are new, its build folder kept.
    static func scratchPackage() throws -> URL {
        let package = repository.appending(path: ".build/generate-cached-clients-test/Bank")
        try? FileManager.default.removeItem(at: package.appending(path: "Sources"))
        let sources = package.appending(path: "Sources/BankAPI")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        let manifest = """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "Bank",
                platforms: [.macOS(.v13)],
                dependencies: [.package(name: "cachegen", path: "\(repository.path)")],
                targets: [
                    .target(
                        name: "BankAPI",
                        dependencies: [.product(name: "CachedClientRuntime", package: "cachegen")],
                        exclude: ["Bank.cachegen.json"]
                    )
                ]
            )
            """
        let spec = """
            {
              "version": 1,
              "models": { "Account": { "properties": { "id": "string", "balance": "double" } } },
              "repositories": {
                "AccountRepository": {
                  "endpoints": { "getAccount": { "path": "/accounts/{id}", "response": "Account" } }
                }
              }
            }
            """
        try Data(manifest.utf8).write(to: package.appending(path: "Package.swift"))
        try Data(spec.utf8).write(to: sources.appending(path: "Bank.cachegen.json"))
        try Data("import CachedClientRuntime\n".utf8).write(to: sources.appending(path: "BankAPI.swift"))
        return package
    }

    /// Runs `swift package --allow-writing-to-package-directory ARGS` in `package` and returns
    /// its exit status with its standard output and error together.
    static func swiftPackage(in package: URL, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["swift", "package", "--package-path", package.path, "--allow-writing-to-package-directory"] + arguments
        let log = FileManager.default.temporaryDirectory.appending(path: "generate-cached-clients-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try ChildProcess.start(process)
        process.waitUntilExit()
        try handle.close()
        return (process.terminationStatus, try String(contentsOf: log, encoding: .utf8))
    }
}
