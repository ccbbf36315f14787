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
                "api.json:5:31: warning: schema \"Either\" is left out: it is an anyOf without a discriminator, which cannot be decoded faithfully",
                "api.json:6:1: warning: model \"Odd\" has no properties",
                "api.json:7:3: warning: property \"list\" of \"Odd\" is left out: it is an array without \"items\"",
                "api.json:7:32: warning: property \"nothing\" of \"Odd\" is left out: it is always null",
                "api.json:7:63: warning: property \"anything\" of \"Odd\" is left out: it is a schema without a type (any JSON)",
                "api.json:8:3: warning: property \"file\" of \"Odd\" is left out: it is binary data, which JSON cannot carry",
                "api.json:8:70: warning: $ref \"https://example.com/x.json\" is left out: it points to another server; cachegen reads only files next to the document",
                "api.json:9:22: warning: a part of \"Mixed\"'s allOf is left out: it is not an object",
                "api.json:10:98: warning: additional properties of \"Open\" are left out: only the named properties are kept",
                "api.json:11:76: warning: the oneOf of \"Shared\" is left out: it has no discriminator; only the shared properties are kept",
                "api.json:12:1: warning: model \"Pick\" has no properties",
                "api.json:12:11: warning: the oneOf of \"Pick\" is left out: no variant is a $ref to an object schema; only the shared properties are kept",
                "api.json:12:21: warning: a variant of \"Pick\" is left out: it is not a $ref to a named schema, which a discriminator needs",
            ])
    }

    @Test func operationPartsThatAreDropped() {
        let paths = """
            "/a": { "trace": { "operationId": "traceA", "responses": {} },
              "get": { "operationId": "getA", "requestBody": { "content": { "application/json": { "schema": { "type": "string" } } } },
                "parameters": [{ "name": "q", "in": "query", "schema": { "type": "object", "properties": { "x": { "type": "string" } } } }],
                "responses": { "204": { "description": "ok" } } },
              "post": { "operationId": "postA", "requestBody": { "content": { "application/xml": {} } },
                "responses": { "200": { "description": "ok", "content": { "text/html": {} } } } },
              "put": { "operationId": "putA",
                "parameters": [{ "name": "f", "in": "query", "required": true, "content": { "application/json": {} } }],
                "responses": { "204": { "description": "ok" } } },
              "patch": { "operationId": "patchA",
                "parameters": [{ "name": "o", "in": "query", "required": true, "schema": { "type": "object", "properties": { "x": { "type": "string" } } } }],
                "responses": { "204": { "description": "ok" } } } }
            """
        let output = Support.generate(["api.json": Support.document(paths: paths)], main: "api.json")
        #expect(
            Support.messages(output) == [
                "api.json:4:21: warning: operation \"traceA\" is left out: cachegen does not call TRACE",
                "api.json:5:35: warning: the request body of operation \"getA\" is left out: a GET request carries none here",
                "api.json:6:30: warning: query parameter \"q\" of operation \"getA\" is left out: its type GetAQ? cannot be sent as text",
                "api.json:8:37: warning: the request body of operation \"postA\" is left out: it is only application/xml",
                "api.json:9:20: warning: the 200 response body of operation \"postA\" is left out: it is only text/html; the call returns nothing",
                "api.json:11:30: warning: operation \"putA\" is left out: its required query parameter \"f\" is serialized as \"content\", which cachegen does not send",
                "api.json:14:30: warning: operation \"patchA\" is left out: its required query parameter \"o\" has type PatchAO, which cannot be sent as text",
            ])
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
                "api.yaml:1:10: error: unsupported OpenAPI version \"4.0.0\"; cachegen reads 3.0 and 3.1",
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
