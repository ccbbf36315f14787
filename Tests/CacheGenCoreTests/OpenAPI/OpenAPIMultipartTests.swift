import CacheGenCore
import Foundation
import Testing
import GeneratorTestSupport

/// Multipart responses become a model read part by part (`format: .multipart`), cached like
/// any value; what cannot be read by name (no schema, a schema that is no object, parts by
/// position) is `Data` with a warning; per-part header fields are carried both ways, on a
/// file part by `MultipartFile`, on any other by making its property a `MultipartValue`.
@Suite struct OpenAPIMultipartTests {
    typealias Support = OpenAPITestSupport

    static let paths = """
        "/albums": { "get": { "operationId": "album", "responses": { "200": { "description": "ok", "content": {
          "multipart/form-data": { "schema": { "$ref": "#/components/schemas/Album" },
            "encoding": { "cover": { "headers": { "X-Checksum": { "schema": { "type": "string" } } } },
              "title": { "headers": { "X-Trace": {}, "Content-Type": {} } }, "meta": { "contentType": "application/xml" } } } } } } } },
        "/raw": { "get": { "operationId": "raw", "responses": { "200": { "description": "ok", "content": { "multipart/mixed": {} } } } } },
        "/scalar": { "get": { "operationId": "scalar", "responses": { "200": { "description": "ok", "content": { "multipart/form-data": { "schema": { "type": "string" } } } } } } },
        "/positional": { "get": { "operationId": "positional", "responses": { "200": { "description": "ok", "content": { "multipart/mixed": { "itemSchema": { "type": "string" } } } } } } },
        "/both": { "get": { "operationId": "both", "responses": { "200": { "description": "ok", "content": { "multipart/form-data": { "schema": { "$ref": "#/components/schemas/Album" } }, "application/json": { "schema": { "$ref": "#/components/schemas/Album" } } } } } } },
        "/uploads": { "post": { "operationId": "upload", "requestBody": { "required": true, "content": { "multipart/form-data": {
          "schema": { "type": "object", "properties": { "file": { "type": "string", "format": "binary" }, "note": { "type": "string" } } },
          "encoding": { "file": { "headers": { "X-Checksum": {} } }, "note": { "headers": { "X-Note": {} } } } } } },
          "responses": { "204": { "description": "ok" } } } }
        """

    static let schemas = """
        "Album": { "type": "object", "required": ["title", "cover"], "properties": { "title": { "type": "string" },
          "cover": { "type": "string", "format": "binary" }, "meta": { "type": "object", "properties": { "width": { "type": "integer" } } },
          "tags": { "type": "array", "items": { "type": "string" } } } }
        """

    @Test func aMultipartResponseIsAModelReadPartByPartAndWhatCannotBeIsWarned() throws {
        let output = Support.generate(["api.json": Support.document(paths: Self.paths, schemas: Self.schemas)], main: "api.json")
        #expect(
            Support.messages(output) == [
                #"api.json:7:80: warning: part "meta" in the response of operation "album" is "application/xml", which cachegen reads as JSON or text only: make its schema a file (format: binary) to read its bytes"#,
                #"api.json:8:100: warning: the multipart/mixed response of operation "raw" is read as bytes (Data): it has no schema naming its parts"#,
                #"api.json:9:141: warning: the multipart/form-data response of operation "scalar" is read as bytes (Data): its schema is string, not an object whose properties are its parts"#,
                #"api.json:10:135: warning: the multipart/mixed response of operation "positional" is read as bytes (Data): its parts are described by position (itemSchema), and cachegen reads parts by name"#,
            ])
        let source = try #require(output.source)
        for expected in [
            "func album(policy: CachePolicy?) async throws -> CachedValue<Album>",
            "public var cover: MultipartFile",
            "/// The part's header fields: `X-Trace`.\n    public var title: MultipartValue<String>\n",
            "public var note: MultipartValue<String>?",
            "func raw(policy: CachePolicy?) async throws -> CachedValue<Data>",
            "func scalar(policy: CachePolicy?) async throws -> CachedValue<Data>",
            "func positional(policy: CachePolicy?) async throws -> CachedValue<Data>",
            "func both(policy: CachePolicy?) async throws -> CachedValue<Album>",
            "public var file: MultipartFile?",
            "format: .multipart,", #"accept: "multipart/form-data""#, #"accept: "multipart/mixed""#,
        ] {
            #expect(source.contains(expected), "\(expected)")
        }
        // Only `album` reads parts; the others read bytes.
        #expect(source.components(separatedBy: "format: .multipart,").count == 2)
        #expect(source.components(separatedBy: "format: .data,").count == 4)
    }

    /// A spec says it with `"format": "multipart"` and an object model; anything else is an
    /// error at the response.
    @Test func aSpecReadsMultipartIntoAnObjectModelOnly() throws {
        let spec = #"""
        {
          "version": 1,
          "models": { "Album": { "properties": { "title": "string", "cover": "file", "tags": "[string]" } },
            "Kind": { "enum": ["a", "b"] } },
          "repositories": { "R": { "endpoints": {
            "album": { "path": "/album", "response": { "type": "Album", "format": "multipart" }, "cache": { "ttl": "1m" } },
            "kind": { "path": "/kind", "response": { "type": "Kind", "format": "multipart" } },
            "list": { "path": "/list", "response": { "type": "[Album]", "format": "multipart" } },
            "none": { "path": "/none", "response": { "format": "multipart" } }
          } } }
        }
        """#
        let output = Generator.generate(Data(spec.utf8), path: "spec.json", options: .init())
        #expect(
            output.diagnostics.map(\.description) == [
                #"spec.json:7:44: error: endpoint "kind" reads a multipart response as "Kind", which is not an object model; its parts are read as the properties of one, by name"#,
                #"spec.json:8:44: error: endpoint "list" reads a multipart response as "[Album]", which is not an object model; its parts are read as the properties of one, by name"#,
                #"spec.json:9:44: error: "response" with "format": "multipart" needs a "type": the type of its parts, an object model with a property per part"#,
            ])
        let valid = #"""
        {
          "version": 1,
          "models": { "Album": { "properties": { "title": "string", "cover": "file", "tags": "[string]" } } },
          "repositories": { "R": { "endpoints": {
            "album": { "path": "/album", "response": { "type": "Album", "format": "multipart" }, "cache": { "ttl": "1m" } }
          } } }
        }
        """#
        let generated = Generator.generate(Data(valid.utf8), path: "spec.json", options: .init())
        #expect(generated.diagnostics.isEmpty, "\(generated.diagnostics)")
        let source = try #require(generated.source)
        #expect(source.contains("func album(policy: CachePolicy?) async throws -> CachedValue<Album>"))
        #expect(source.contains("format: .multipart"))
        #expect(source.contains("shape: LiveR.albumShape"))
    }

    /// A part whose encoding declares header fields is a `MultipartValue` (each element of
    /// an array; inside an optional), documented with the fields, required ones marked
    /// (a `$ref` to `components.headers` followed); `Content-Type` alone declares none; a
    /// part the schema lacks is a warning.
    @Test func aPartsDeclaredHeaderFieldsMakeItsPropertyAMultipartValue() throws {
        let document = """
            {
              "openapi": "3.0.3", "info": { "title": "Notes", "version": "1" },
              "paths": { "/notes": { "post": { "operationId": "note", "requestBody": { "required": true, "content": {
                "multipart/form-data": { "schema": { "$ref": "#/components/schemas/Note" }, "encoding": {
                  "text": { "headers": { "X-Log-Type": { "$ref": "#/components/headers/LogType" }, "X-Trace": {} } },
                  "count": { "headers": { "X-Unit": { "required": false } } }, "tags": { "headers": { "X-Order": {} } },
                  "plain": { "headers": { "Content-Type": {} } }, "ghost": { "headers": { "X-Ghost": {} } } } } } },
                "responses": { "204": { "description": "ok" } } } } },
              "components": {
                "headers": { "LogType": { "required": true, "schema": { "type": "string" } } },
                "schemas": { "Note": { "type": "object", "required": ["text"], "properties": {
                  "text": { "type": "string", "description": "The note." }, "count": { "type": "integer" },
                  "tags": { "type": "array", "items": { "type": "string" } }, "plain": { "type": "string" } } } } }
            }
            """
        let output = Support.generate(["api.json": document], main: "api.json")
        #expect(
            Support.messages(output) == [
                #"api.json:7:66: warning: the header fields "X-Ghost" of part "ghost" in the request body of operation "note" are left out: the schema has no property "ghost""#
            ])
        let source = try #require(output.source)
        let model = """
            public struct Note: Codable, Sendable, Equatable {
                /// The note.
                ///
                /// The part's header fields: `X-Log-Type` (required), `X-Trace`.
                public var text: MultipartValue<String>

                /// The part's header fields: `X-Unit`.
                public var count: MultipartValue<Int>?

                /// The part's header fields: `X-Order`.
                public var tags: [MultipartValue<String>]?

                public var plain: String?

            """
        #expect(source.contains(model), "\(source)")
        #expect(source.contains("self.tags = try container.decodeIfPresent([MultipartValue<String>].self, forKey: WireKey(\"tags\"))"))
    }

    /// swift-openapi-generator's two example documents put header fields on a JSON part
    /// (`log`, `x-log-type`) and a repeated text part (`names`, `x-name-locale`): carried, with
    /// no warning about them.
    @Test(arguments: [
        ("openapi-generator-petstore.yaml", "public var log: MultipartValue<"),
        ("various-content-types.yaml", "public var names: [MultipartValue<String>]?"),
    ])
    func theHeaderFieldsOfSwiftOpenAPIGeneratorsExamplePartsAreCarried(_ name: String, _ property: String) throws {
        let path = ThirdPartyFixtures.openAPI.appendingPathComponent(name).path
        let output = Generator.generate(try Data(contentsOf: URL(fileURLWithPath: path)), path: path)
        #expect(!output.diagnostics.contains { $0.message.contains("header fields") }, "\(output.diagnostics)")
        let source = try #require(output.source)
        #expect(source.contains(property), "\(property)")
    }
}
