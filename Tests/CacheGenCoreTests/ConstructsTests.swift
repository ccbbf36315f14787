import CacheGenCore
import Foundation
import Testing

/// `generate` turns off the constructs an app does not use: each one's declarations go, and
/// everything else is the same text as with all of them on.
@Suite struct ConstructsTests {
    static let newsSpec = GoldenTests.repository.appendingPathComponent("Examples/specs/News.cachegen.json")

    /// News has cached, paged (page and link) endpoints with optional arguments: every
    /// construct appears in it.
    static func source(generate: String?) throws -> String {
        var text = try String(contentsOf: newsSpec, encoding: .utf8)
        if let generate { text = text.replacingOccurrences(of: "\"version\": 1,", with: "\"version\": 1, \"generate\": \(generate),") }
        let output = Generator.generate(Data(text.utf8), path: "News.cachegen.json")
        #expect(output.diagnostics == [])
        return try #require(output.source)
    }

    @Test func eachConstructGoesAlone() throws {
        let all = try Self.source(generate: nil)
        #expect(try Self.source(generate: #"{ "queries": true, "streams": true, "pages": true, "overloads": true }"#) == all)
        let marks: [(key: String, text: String)] = [
            ("queries", "CachedQuery"), ("streams", "AsyncThrowingStream"), ("pages", "CachedPages"),
            ("overloads", "without the optional arguments"),
        ]
        for mark in marks {
            #expect(all.contains(mark.text), "\(mark.key)")
            let without = try Self.source(generate: "{ \"\(mark.key)\": false }")
            #expect(!without.contains(mark.text), "\(mark.key)")
            for other in marks where other.key != mark.key && !(mark.key == "pages" && other.key == "queries") {
                #expect(without.contains(other.text), "\(mark.key) off keeps \(other.key)")
            }
            #expect(without.count < all.count)
        }
        let none = try Self.source(generate: #"{ "queries": false, "streams": false, "pages": false, "overloads": false }"#)
        #expect(!none.contains("CachedQuery") && !none.contains("AsyncThrowingStream") && !none.contains("CachedPages"))
        #expect(none.contains("public struct LiveNewsRepository: NewsRepository {"))
    }

    @Test func badValuesAreLocatedErrors() {
        let spec = #"""
        {
          "version": 1, "generate": { "queries": "no", "mocks": false },
          "repositories": { "R": { "endpoints": { "a": { "path": "/a", "response": "string" } } } }
        }
        """#
        #expect(
            diagnostics(spec) == [
                #"spec.json:2:42: error: "queries" must be true or false; found a string"#,
                #"spec.json:2:48: error: unknown key "mocks" in "generate"; valid keys are "queries", "streams", "pages", "overloads""#,
            ])
    }

    /// An overlay turns them off for an OpenAPI document the same way.
    @Test func anOverlayTurnsThemOff() throws {
        let document = """
            { "openapi": "3.0.3", "info": { "title": "T", "version": "1" },
              "paths": { "/items": { "get": { "operationId": "getItems",
                "parameters": [{ "name": "q", "in": "query", "schema": { "type": "string" } }],
                "responses": { "200": { "description": "ok", "content": { "application/json": { "schema": { "type": "string" } } } } } } } } }
            """
        let overlay = #"{ "openapi": "api.json", "generate": { "queries": false, "streams": false } }"#
        let files = ["api.json": Data(document.utf8)]
        let output = Generator.generate(Data(overlay.utf8), path: "api.cachegen.json", read: { files[$0] })
        let source = try #require(output.source, "\(output.diagnostics)")
        #expect(!source.contains("CachedQuery") && !source.contains("AsyncThrowingStream"))
        #expect(source.contains("Calls `getItems` with the spec's default policy"))
    }
}
