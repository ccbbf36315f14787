import CacheGenCore
import Foundation
import Testing

/// Multipart responses become a model read part by part (`format: .multipart`), cached like
/// any value; what cannot be read by name (no schema, a schema that is no object, parts by
/// position) is `Data` with a warning, and so are per-part header fields on a part that is
/// not a file, both ways.
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
                #"api.json:7:18: warning: the header fields "X-Trace" of part "title" in the response of operation "album" are left out: cachegen carries a part's header fields on file parts (format: binary), as MultipartFile.headers"#,
                #"api.json:7:80: warning: part "meta" in the response of operation "album" is "application/xml", which cachegen reads as JSON or text only: make its schema a file (format: binary) to read its bytes"#,
                #"api.json:8:100: warning: the multipart/mixed response of operation "raw" is read as bytes (Data): it has no schema naming its parts"#,
                #"api.json:9:141: warning: the multipart/form-data response of operation "scalar" is read as bytes (Data): its schema is string, not an object whose properties are its parts"#,
                #"api.json:10:135: warning: the multipart/mixed response of operation "positional" is read as bytes (Data): its parts are described by position (itemSchema), and cachegen reads parts by name"#,
                #"api.json:14:72: warning: the header fields "X-Note" of part "note" in the request body of operation "upload" are left out: cachegen carries a part's header fields on file parts (format: binary), as MultipartFile.headers"#,
            ])
        let source = try #require(output.source)
        for expected in [
            "func album(policy: CachePolicy?) async throws -> CachedValue<Album>",
            "public var cover: MultipartFile",
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
}
