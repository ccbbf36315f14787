import CacheGenCore
import Foundation
import Testing

/// The rest of what the front stage leaves out or rejects, each message word for word.
@Suite struct OpenAPILeftOutTests {
    typealias Support = OpenAPITestSupport

    @Test func schemaShapesWithoutASwiftType() {
        let schemas = """
            "Either": { "anyOf": [{ "type": "string" }, { "type": "integer" }] },
            "Odd": { "type": "object", "properties": {
              "list": { "type": "array" }, "nothing": { "type": "null" }, "anything": {},
              "file": { "type": "string", "format": "binary" }, "far": { "$ref": "https://example.com/x.json" } } },
            "Mixed": { "allOf": [{ "type": "string" }, { "type": "object", "properties": { "a": { "type": "string" } } }] },
            "Open": { "type": "object", "properties": { "a": { "type": "string" } }, "additionalProperties": { "type": "string" } },
            "Shared": { "type": "object", "properties": { "a": { "type": "string" } }, "oneOf": [{ "required": ["a"] }] },
            "Pick": { "oneOf": [{ "type": "object" }], "discriminator": { "propertyName": "kind" } }
            """
        let output = Support.generate(["api.json": Support.document(paths: "", schemas: schemas)], main: "api.json")
        #expect(
            Support.messages(output) == [
                "api.json:1:1: warning: the document has no operations to generate a client from; only its schemas become models",
                "api.json:7:3: warning: property \"list\" of \"Odd\" is left out: it is an array without \"items\"",
                "api.json:7:32: warning: property \"nothing\" of \"Odd\" is left out: it is always null",
                "api.json:8:70: warning: $ref \"https://example.com/x.json\" points to another server, so the value is read as any JSON (JSONValue); cachegen reads only files next to the document",
                "api.json:12:1: warning: model \"Pick\" has no properties",
                "api.json:12:21: warning: a variant of \"Pick\" is left out: it is not a $ref to a named schema, and its \"kind\" allows no single value, which a discriminator needs",
            ])
        // Kept now: the anyOf as a union, a schema with no type as any JSON, a binary string as
        // text, the keys beside Open's properties, the object part of an allOf whose other part (a string) no object can be, and
        // the shared properties of a oneOf that only says which are required.
        let source = output.source ?? ""
        #expect(source.contains("public indirect enum Either: Codable, Sendable, Equatable {\n    case string(String)\n    case integer(Int)"))
        #expect(source.contains("public var anything: JSONValue?"))
        #expect(source.contains("public var file: String?"))
        #expect(source.contains("public var additionalProperties: [String: String]"))
        #expect(source.contains("public struct Mixed: Codable, Sendable, Equatable {\n    public var a: String?"))
        #expect(source.contains("public struct Shared: Codable, Sendable, Equatable {\n    public var a: String?"))
    }

    @Test func aOneOfBesidePropertiesKeepsTheVariantsPropertiesAndNamesAVariantThatIsNoObject() {
        let schemas = """
            "Named": { "type": "object", "properties": { "id": { "type": "string" } }, "required": ["id"],
              "oneOf": [{ "type": "object", "properties": { "size": { "type": "integer" } }, "required": ["size"] }, { "type": "string" }] }
            """
        let output = Support.generate(["api.json": Support.document(paths: "", schemas: schemas)], main: "api.json")
        #expect(
            Support.messages(output) == [
                "api.json:1:1: warning: the document has no operations to generate a client from; only its schemas become models",
                "api.json:6:106: warning: a variant of \"Named\"'s oneOf is left out: it is not an object",
            ])
        #expect(output.source?.contains("public var id: String\n    public var size: Int?\n") == true)
    }

    /// Any JSON as a query parameter is an object in the query's default style, one item per
    /// key, written from its JSON.
    @Test func anyJSONIsABodyAndAParameter() {
        let paths = """
            "/a": { "get": { "operationId": "getA",
              "parameters": [{ "name": "filter", "in": "query", "schema": { "type": "object" } }],
              "responses": { "200": { "description": "ok", "content": { "application/json": { "schema": { "type": "object", "additionalProperties": true } } } } } } }
            """
        let output = Support.generate(["api.json": Support.document(paths: paths)], main: "api.json")
        #expect(Support.messages(output) == [])
        let source = output.source ?? ""
        #expect(source.contains("func getA(filter: JSONValue?, policy: CachePolicy?) async throws -> CachedValue<[String: JSONValue]>"))
        #expect(source.contains(#"request.addQuery("filter", object: filter, style: .form, coding: JSONCoding(dates: .iso8601), isKey: true)"#))
    }

    @Test func operationPartsThatAreDropped() {
        let paths = """
            "/a": { "trace": { "operationId": "traceA", "responses": {} },
              "get": { "operationId": "getA", "requestBody": { "content": { "application/json": { "schema": { "type": "string" } } } },
                "parameters": [{ "name": "q", "in": "query", "schema": { "type": "object", "properties": { "x": { "type": "object" } } } }],
                "responses": { "204": { "description": "ok" } } },
              "post": { "operationId": "postA", "requestBody": { "content": { "application/xml": {} } },
                "responses": { "200": { "description": "ok", "content": { "text/html": {} } } } },
              "put": { "operationId": "putA",
                "parameters": [{ "name": "f", "in": "query", "required": true, "content": { "application/json": {} } },
                  { "name": "t", "in": "query", "content": { "text/plain": { "schema": { "type": "string" } } } },
                  { "name": "x", "in": "query", "content": { "application/xml": {} } }],
                "responses": { "204": { "description": "ok" } } },
              "patch": { "operationId": "patchA",
                "parameters": [{ "name": "o", "in": "header", "required": true, "schema": { "type": "object", "properties": { "x": { "type": "string" } } } }],
                "responses": { "204": { "description": "ok" } } } }
            """
        let output = Support.generate(["api.json": Support.document(paths: paths)], main: "api.json")
        #expect(
            Support.messages(output) == [
                "api.json:4:21: warning: operation \"traceA\" is left out: cachegen does not call TRACE",
                "api.json:5:35: warning: the request body of operation \"getA\" is left out: a GET request carries none here",
                "api.json:8:37: warning: the request body of operation \"postA\" is left out: it is only application/xml",
                "api.json:13:17: warning: query parameter \"x\" of operation \"putA\" is left out: it is serialized as \"application/xml\", which cachegen sends only as JSON or plain text",
            ])
        let source = output.source ?? ""
        #expect(source.contains(#"request.addQuery("f", json: f, coding: JSONCoding(dates: .iso8601), isKey: false)"#))
        #expect(source.contains(#"request.addQuery("t", t, isKey: false)"#))
        #expect(source.contains(#"request.addHeader("o", object: o, style: .joined, coding: JSONCoding(dates: .iso8601), isKey: false)"#))
    }

    @Test func inputsThatAreNotDocuments() {
        let bare = Support.generate(["api.yaml": "openapi: 3.0.0\n"], main: "api.yaml")
        let newer = Support.generate(["api.yaml": "openapi: 4.0.0\ninfo: {title: x}\npaths: {}\n"], main: "api.yaml")
        let noPath = Support.generate(["A.cachegen.json": "{ \"openapi\": 3, \"operations\": {} }"], main: "A.cachegen.json")
        let badRule = Support.generate(
            [
                "A.cachegen.json": "{ \"openapi\": \"api.yaml\", \"typePrefix\": \"my store\", \"operations\": { \"getA\": { \"cache\": \"no\", \"invalidates\": \"getA\" } } }",
                "api.yaml": "openapi: 3.1.0\ninfo: {title: x}\npaths:\n  /a:\n    get:\n      operationId: getA\n      responses: {}\n",
            ], main: "A.cachegen.json")
        #expect(
            Support.messages(bare) == [
                "api.yaml:1:1: warning: the document has no operations to generate a client from; only its schemas become models",
            ])
        #expect(
            Support.messages(newer) == [
                "api.yaml:1:10: error: unsupported OpenAPI version \"4.0.0\"; cachegen reads 3.0, 3.1 and 3.2",
            ])
        #expect(
            Support.messages(noPath) == [
                "A.cachegen.json:1:14: error: \"openapi\" must name the OpenAPI document, such as \"openapi.yaml\", relative to this file",
            ])
        #expect(
            Support.messages(badRule) == [
                "A.cachegen.json:1:40: error: \"typePrefix\" must be a Swift type name such as \"Store\"; found \"my store\"",
                "A.cachegen.json:1:87: error: \"cache\" must be true or false; found a string",
                "A.cachegen.json:1:108: error: \"invalidates\" must be an array of names; found a string",
            ])
    }
}
