import CacheGenCore
import Foundation

/// Runs the generator on documents held in memory, so each test states its whole input.
enum OpenAPITestSupport {
    /// Generates from `main` among `files` (path → text); other files are found by path.
    static func generate(_ files: [String: String], main: String) -> Generator.Output {
        let read: @Sendable (String) -> Data? = { path in files[path].map { Data($0.utf8) } }
        return Generator.generate(Data((files[main] ?? "").utf8), path: main, read: read)
    }

    /// The diagnostics as the CLI prints them.
    static func messages(_ output: Generator.Output) -> [String] {
        output.diagnostics.map(\.description)
    }

    /// A minimal OpenAPI 3.0 document around `paths` and `schemas` (JSON object bodies).
    static func document(paths: String, schemas: String = "", extra: String = "", version: String = "3.0.3") -> String {
        """
        {
          "openapi": "\(version)",
          "info": { "title": "Things API", "version": "1" },\(extra)
          "paths": {\(paths)},
          "components": { "schemas": {\(schemas)} }
        }
        """
    }
}
