import Foundation
import PackagePlugin

/// Generates a Swift client from every `*.cachegen.json` in a target's sources: a spec,
/// or an overlay naming an OpenAPI document (`"openapi": "api.yaml"`).
///
/// A thin wrapper over `cachegen generate`: spec errors come back from the tool as
/// `file:line:column: error:` lines, which SwiftPM and Xcode show at the spec's line.
/// An overlay's document is an input of its command too, so editing either rebuilds.
@main
struct CacheGenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let files = target.sourceFiles.map(\.url)
        let specs = files.filter { $0.lastPathComponent.hasSuffix(".cachegen.json") }
        let documents = specs.compactMap(documentOfOverlay)
        let orphans = files.filter { isOpenAPIDocument($0) && !documents.contains($0.standardizedFileURL) }
        for document in orphans {
            Diagnostics.warning(
                "CacheGenPlugin found the OpenAPI document \(document.lastPathComponent) in target '\(target.name)' but no overlay for it; add \(overlayName(for: document)) with { \"openapi\": \"\(document.lastPathComponent)\" } next to it to generate a cached client"
            )
        }
        guard !specs.isEmpty else {
            // A document without overlay was named above; one warning says what to add.
            if !orphans.isEmpty { return [] }
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
                inputFiles: [spec] + (documentOfOverlay(spec).map { [$0] } ?? []),
                outputFiles: Self.outputFileNames(for: spec).map { outputDirectory.appending(path: $0) }
            )
        }
    }

    /// The document an overlay names (`"openapi": "api.yaml"`, relative to the overlay);
    /// `nil` for a spec. Mirrors `Generator.documentPath(forOverlay:path:)`: plugins
    /// cannot link library targets.
    private func documentOfOverlay(_ spec: URL) -> URL? {
        guard let data = try? Data(contentsOf: spec),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let relative = root["openapi"] as? String, !relative.isEmpty
        else { return nil }
        return URL(fileURLWithPath: relative, relativeTo: spec.deletingLastPathComponent()).standardizedFileURL
    }

    /// A YAML or JSON file (not a spec) whose first kilobyte has a top-level `openapi` key.
    private func isOpenAPIDocument(_ file: URL) -> Bool {
        let name = file.lastPathComponent.lowercased()
        guard [".yaml", ".yml", ".json"].contains(where: name.hasSuffix), !name.hasSuffix(".cachegen.json"),
            let handle = try? FileHandle(forReadingFrom: file)
        else { return false }
        defer { try? handle.close() }
        let head = String(decoding: (try? handle.read(upToCount: 1024)) ?? Data(), as: UTF8.self)
        return head.split(whereSeparator: \.isNewline).contains { $0.hasPrefix("openapi:") || $0.contains("\"openapi\"") }
    }

    /// `petstore.yaml` → `petstore.cachegen.json`.
    private func overlayName(for document: URL) -> String {
        document.deletingPathExtension().lastPathComponent + ".cachegen.json"
    }

    /// Files per kind, the same for every spec. The set is fixed so that outputs are known
    /// here, before the tool runs, without reading the spec (which may be JSON, YAML or an
    /// OpenAPI document); declarations are spread over the shards by a stable hash.
    static let shards = [("Models", 8), ("Repositories", 8), ("Mocks", 4)]

    /// Mirrors `OutputLayout(forSpec:).fileNames`: plugins cannot link library targets.
    static func outputFileNames(for spec: URL) -> [String] {
        var name = spec.lastPathComponent
        for suffix in [".json", ".yaml", ".yml", ".cachegen"] where name.hasSuffix(suffix) {
            name.removeLast(suffix.count)
        }
        return shards.flatMap { kind, count in (0..<count).map { "\(name)+\(kind)\($0).cachegen.swift" } }
    }
}
