@testable import CacheGenCore
import CacheGenYAML
import Foundation
import Testing

/// The plugins' shared choice of files (`Plugins/PluginsShared/CacheGenInputs.swift`, linked
/// into this target): what the build plugin in a package and in an Xcode project, and the
/// command plugin, find among a target's files and promise to write.
@Suite struct CacheGenInputsTests {
    @Test func outputNamesAreTheGeneratorsLayout() {
        for size in OutputLayout.Size.allCases {
            for name in ["Accounts.cachegen.json", "petstore.yaml", "api.github.com.yaml", "News.V2.cachegen.json"] {
                #expect(
                    CacheGenInputs.outputFileNames(for: URL(fileURLWithPath: "/p/\(name)"), size: size.rawValue)
                        == OutputLayout(forSpec: "/p/\(name)", size: size).fileNames)
                for mocks in OutputLayout.Mocks.allCases {
                    #expect(
                        CacheGenInputs.outputFileNames(for: URL(fileURLWithPath: "/p/\(name)"), size: size.rawValue, mocks: mocks.rawValue)
                            == OutputLayout(forSpec: "/p/\(name)", size: size, mocks: mocks).fileNames)
                }
            }
            let layout = OutputLayout(forSpec: "x", size: size)
            let mirrored = CacheGenInputs.sizes.first { $0.0 == size.rawValue }?.1 ?? []
            #expect(mirrored.map(\.0) == OutputLayout.Kind.allCases.map(\.rawValue))
            #expect(mirrored.map(\.1) == OutputLayout.Kind.allCases.map(layout.shardCount))
        }
        #expect(CacheGenInputs.sizes.map(\.0) == OutputLayout.Size.allCases.map(\.rawValue))
        for bytes in [0, 16 * 1024 - 1, 16 * 1024, 64 * 1024 - 1, 64 * 1024, 3_000_000] {
            #expect(CacheGenInputs.size(inputBytes: bytes) == OutputLayout.Size(inputBytes: bytes).rawValue)
        }
    }

    /// The size counts every input file: an overlay's document and the files it names too.
    @Test func theOutputSizeCountsTheDocument() throws {
        let big = String(repeating: "# padding\n", count: 2_000)
        let folder = try Self.folder([
            "Api.cachegen.json": #"{ "openapi": "api.yaml" }"#,
            "api.yaml": "openapi: 3.0.3\npaths: {}\n" + big,
            "Small.cachegen.json": #"{ "version": 1 }"#,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(CacheGenInputs.outputSize(for: folder.appending(path: "Api.cachegen.json")) == "medium")
        #expect(CacheGenInputs.outputSize(for: folder.appending(path: "Small.cachegen.json")) == "small")
    }

    @Test func findsSpecsOverlaysAndDocumentsWithoutOverlay() throws {
        let folder = try Self.folder([
            "Accounts.cachegen.json": #"{ "version": 1 }"#,
            "Petstore.cachegen.json": #"{ "openapi": "docs/petstore.yaml" }"#,
            "docs/petstore.yaml": "openapi: 3.0.3\ninfo:\n  title: Petstore\n",
            "weather.json": "{\n  \"openapi\": \"3.1.0\"\n}",
            "settings.json": #"{ "theme": "dark" }"#,
            "Main.swift": "",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = ["Accounts.cachegen.json", "Petstore.cachegen.json", "docs/petstore.yaml", "weather.json",
                     "settings.json", "Main.swift"].map { folder.appending(path: $0) }
        let inputs = CacheGenInputs(files: files)

        #expect(inputs.specs.map(\.lastPathComponent) == ["Accounts.cachegen.json", "Petstore.cachegen.json"])
        #expect(inputs.documentsWithoutOverlay.map(\.lastPathComponent) == ["weather.json"])
        #expect(CacheGenInputs.inputFiles(for: files[0]).map(\.lastPathComponent) == ["Accounts.cachegen.json"])
        #expect(
            CacheGenInputs.inputFiles(for: files[1]).map(\.path)
                == [files[1].path, folder.appending(path: "docs/petstore.yaml").standardizedFileURL.path])
        #expect(
            inputs.warnings(targetName: "API", plugin: "CacheGenPlugin") == [
                #"CacheGenPlugin found the OpenAPI document weather.json in target 'API' but no overlay for it; add weather.cachegen.json with { "openapi": "weather.json" } next to it to generate a cached client"#
            ])
    }

    /// The files a document's `$ref`s name, and theirs, in YAML and JSON, once each; never a
    /// URL, a missing file or one outside the document's folder.
    @Test func inputsIncludeTheFilesReferencesName() throws {
        let folder = try Self.folder([
            "Api.cachegen.json": #"{ "openapi": "spec/api.yaml" }"#,
            "spec/api.yaml": """
                openapi: 3.0.3
                paths:
                  /a:
                    get:
                      $ref: "ops/a.yml"
                  /b:
                    $ref: 'paths/b.json#/item'
                  /c:
                    get: { $ref: "https://example.com/c.yaml" }
                  /d:
                    get: { $ref: "../outside.yaml" }
                  /e:
                    get: { $ref: missing.yaml }
                """,
            "spec/ops/a.yml": "parameters:\n  - $ref: \"../common/params.yaml#/limit\"\n",
            "spec/paths/b.json": ##"{ "item": { "get": { "$ref" : "../ops/a.yml" } }, "self": { "$ref": "#/item" } }"##,
            "spec/common/params.yaml": "limit: { $ref: '../common/params.yaml#/x' }\n",
            "outside.yaml": "x: 1\n",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = CacheGenInputs.inputFiles(for: folder.appending(path: "Api.cachegen.json"))
        let spec = folder.appending(path: "spec").standardizedFileURL.path + "/"
        #expect(inputs.first?.lastPathComponent == "Api.cachegen.json")
        #expect(
            inputs.dropFirst().map { $0.path.replacingOccurrences(of: spec, with: "") }
                == ["api.yaml", "ops/a.yml", "paths/b.json", "common/params.yaml"])
    }

    @Test func aTargetWithoutSpecsGetsOneWarningSayingWhatToAdd() {
        let inputs = CacheGenInputs(files: [URL(fileURLWithPath: "/nowhere/Main.swift")])
        #expect(inputs.specs.isEmpty)
        #expect(
            inputs.warnings(targetName: "App", plugin: "CacheGenPlugin") == [
                "CacheGenPlugin found no spec in target 'App'; add a file named Name.cachegen.json to its sources, or remove the plugin"
            ])
    }

    /// The plugins compile the generator's own rule (`InputKind.swift`); what they feed it, a
    /// JSON file's parsed root or a YAML file's root lines, gives the kind the generator's
    /// reader gives, for every kind of input and the ways documents write their keys.
    @Test func theKindOfEachInputIsTheGenerators() throws {
        let files = [
            "Spec.cachegen.json": #"{ "version": 1, "endpoints": [] }"#,
            "Overlay.cachegen.json": #"{ "openapi": "docs/api.yaml" }"#,
            "Named.cachegen.json": #"{ "openapi": "petstore" }"#,
            "Document.cachegen.json": #"{ "openapi": "3.1.0", "info": { "title": "T" }, "paths": {} }"#,
            "swagger.json": #"{ "swagger": "2.0", "info": { "title": "T" }, "paths": {} }"#,
            "settings.json": #"{ "theme": "dark", "openapi": 3 }"#,
            "openapi.yaml": "openapi: 3.0.3\ninfo:\n  title: T\npaths: {}\n",
            "swagger.yaml": "swagger: '2.0'\ninfo:\n  title: T\n",
            "commented.yaml": "# an API\n\"openapi\": \"3.1.0\" # the version\npaths:\n  /a: {}\n",
            "overlay.yaml": "openapi: api.yaml\n",
            "number.yaml": "openapi: 3.1\n",
            "numbered.yaml": "openapi: 3.1\ninfo:\n  title: T\n",
            "block.yaml": "openapi:\n  version: 3\n",
            "other.yaml": "title: settings\nitems:\n  - openapi: 3.0.0\n",
        ]
        let folder = try Self.folder(files)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in files.keys.sorted() {
            let url = folder.appending(path: name)
            let data = try Data(contentsOf: url)
            let generators = try GeneratorPipeline.readInput(data, path: url.path).get().kind
            let plugins = try #require(CacheGenInputs.kind(of: url), "\(name)").kind
            #expect("\(plugins)" == "\(generators)", "\(name)")
        }
    }

    /// A Swagger 2.0 document is a document too: without an overlay it gets the warning.
    /// An OpenAPI document named as a spec is no overlay: its inputs are the files its own
    /// `$ref`s name, never its version read as a file name.
    @Test func swaggerDocumentsAndDocumentsNamedAsSpecsAreDocuments() throws {
        let folder = try Self.folder([
            "petstore.yaml": "swagger: \"2.0\"\ninfo:\n  title: Petstore\npaths: {}\n",
            "Api.cachegen.json": #"{ "openapi": "3.1.0", "info": { "title": "T" }, "paths": { "/a": { "$ref": "paths/a.json" } } }"#,
            "paths/a.json": #"{ "get": { "responses": {} } }"#,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = ["petstore.yaml", "Api.cachegen.json", "paths/a.json"].map { folder.appending(path: $0) }
        let inputs = CacheGenInputs(files: files)
        #expect(inputs.specs.map(\.lastPathComponent) == ["Api.cachegen.json"])
        #expect(inputs.documentsWithoutOverlay.map(\.lastPathComponent) == ["petstore.yaml"])
        #expect(CacheGenInputs.document(ofOverlay: files[1]) == nil)
        #expect(
            CacheGenInputs.inputFiles(for: files[1]).map(\.path)
                == [files[1].standardizedFileURL.path, files[2].standardizedFileURL.path])
    }

    /// A temporary folder holding `files` (relative path → text).
    static func folder(_ files: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "CacheGenInputsTests-\(UUID().uuidString)")
        for (path, text) in files {
            let url = folder.appending(path: path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return folder
    }
}
