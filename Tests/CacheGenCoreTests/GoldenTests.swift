import CacheGenCore
import Foundation
import Testing

/// The generated Swift for every example spec, byte for byte.
///
/// The expected files live in `Tests/GeneratedClientTests/Golden/<Spec>/`, where a test target
/// also compiles them against the runtime and runs them: one copy is both the reference
/// and the proof that it builds. A change to generated code starts there. To record new
/// output, run with `CACHEGEN_RECORD=1`; the test then fails so a recording never passes.
@Suite struct GoldenTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let golden = repository.appendingPathComponent("Tests/GeneratedClientTests/Golden")
    /// The realistic example specs, the edge cases of names and types, and overlays of
    /// two real OpenAPI documents (read from `Tests/Fixtures/ThirdParty/openapi/`).
    static let specFolders = ["Examples/specs", "Tests/CacheGenCoreTests/Specs", openAPIFolder]
    /// Overlays whose documents may leave parts out, with warnings.
    static let openAPIFolder = "Tests/CacheGenCoreTests/OpenAPI/Documents"

    /// Reads the files an overlay names, relative to the repository like the spec paths.
    static let read: @Sendable (String) -> Data? = { path in try? Data(contentsOf: repository.appendingPathComponent(path)) }

    /// Every spec, as a path relative to the repository.
    static var specNames: [String] {
        specFolders.flatMap { folder in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent(folder).path)) ?? []
            return names.filter { $0.hasSuffix(".cachegen.json") }.sorted().map { "\(folder)/\($0)" }
        }
    }

    @Test func thereAreAtLeastThreeExampleSpecs() {
        #expect(Self.specNames.filter { $0.hasPrefix("Examples/") }.count >= 3)
    }

    @Test(arguments: specNames)
    func generatedCodeMatchesGoldenFiles(_ specName: String) throws {
        let data = try Data(contentsOf: Self.repository.appendingPathComponent(specName))
        let output = Generator.generate(data, path: specName, read: Self.read)
        if specName.hasPrefix(Self.openAPIFolder) {
            #expect(!output.hasErrors, "\(output.diagnostics)")
        } else {
            #expect(output.diagnostics.isEmpty, "\(output.diagnostics)")
        }
        let files = try #require(output.files)
        let layout = output.layout
        let folder = Self.golden.appendingPathComponent(layout.specName)
        let existing = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".swift") }
        let extra = Set(existing).subtracting(files.map(\.name)).sorted()
        if ProcessInfo.processInfo.environment["CACHEGEN_RECORD"] == "1" {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for file in files { try Data(file.contents.utf8).write(to: folder.appendingPathComponent(file.name)) }
            for name in extra { try FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
            Issue.record("Recorded \(layout.specName)/; run again without CACHEGEN_RECORD to check it.")
            return
        }
        #expect(extra.isEmpty, "\(layout.specName)/ holds files the generator no longer writes: \(extra)")
        for file in files {
            let expected = try String(contentsOf: folder.appendingPathComponent(file.name), encoding: .utf8)
            guard file.contents != expected else { continue }
            let got = file.contents.split(separator: "\n", omittingEmptySubsequences: false)
            let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let line = zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.count, want.count)
            Issue.record(
                """
                \(specName) generates a different \(file.name) from line \(line + 1):
                  golden:    \(line < want.count ? String(want[line]) : "<end of file>")
                  generated: \(line < got.count ? String(got[line]) : "<end of file>")
                If the change is intended, record with CACHEGEN_RECORD=1 and review the diff.
                """)
        }
    }

    @Test(arguments: specNames)
    func sameSpecSameBytes(_ specName: String) throws {
        let data = try Data(contentsOf: Self.repository.appendingPathComponent(specName))
        let first = Generator.generate(data, path: specName, read: Self.read).source
        let second = Generator.generate(data, path: specName, read: Self.read).source
        #expect(first != nil && first == second)
    }

    @Test func internalAccessWritesNoPublicModifier() throws {
        let data = try Data(contentsOf: Self.repository.appendingPathComponent("Examples/specs/Accounts.cachegen.json"))
        let source = try #require(Generator.generate(data, path: "Accounts.cachegen.json", options: .init(access: .internal)).source)
        #expect(!source.contains("public "))
        #expect(source.contains("struct LiveAccountRepository: AccountRepository {"))
    }
}
