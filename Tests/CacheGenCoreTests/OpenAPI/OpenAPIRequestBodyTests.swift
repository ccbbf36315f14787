import CacheGenCore
import Foundation
import Testing

private typealias Support = OpenAPITestSupport

/// Request bodies beyond JSON: forms with their `encoding`, multipart uploads with files,
/// bytes and text; a body on DELETE; what cannot be sent, named.
@Suite struct OpenAPIRequestBodyTests {
    /// JSON when offered, else the first media type cachegen sends; each with its setter.
    @Test func everyMediaTypeGetsItsSetter() throws {
        let paths = """
            "/charges": { "post": { "operationId": "createCharge",
              "requestBody": { "required": true, "content": { "application/x-www-form-urlencoded": { "schema": { "$ref": "#/components/schemas/Charge" },
                "encoding": { "tags": { "style": "pipeDelimited", "explode": false }, "metadata": { "contentType": "application/json" } } } } },
              "responses": { "204": { "description": "ok" } } },
              "delete": { "operationId": "deleteCharges",
              "requestBody": { "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Charge" } } } },
              "responses": { "204": { "description": "ok" } } } },
            "/files": { "post": { "operationId": "upload",
              "requestBody": { "required": true, "content": { "multipart/form-data": { "schema": { "type": "object", "required": ["file"],
                "properties": { "file": { "type": "string", "format": "binary" }, "parts": { "type": "array", "items": { "type": "string", "format": "binary" } }, "purpose": { "type": "string" } } },
                "encoding": { "file": { "contentType": "image/png, image/*" } } },
                "application/x-www-form-urlencoded": { "schema": { "type": "object" } } } },
              "responses": { "204": { "description": "ok" } } },
              "put": { "operationId": "putImage",
              "requestBody": { "required": true, "content": { "image/png": { "schema": { "type": "string", "format": "binary" } } } },
              "responses": { "204": { "description": "ok" } } },
              "patch": { "operationId": "putNote",
              "requestBody": { "required": true, "content": { "application/xml": {}, "text/plain": { "schema": { "type": "string" } } } },
              "responses": { "204": { "description": "ok" } } } }
            """
        let schemas = """
            "Charge": { "type": "object", "properties": { "amount": { "type": "integer" }, "tags": { "type": "array", "items": { "type": "string" } },
              "metadata": { "type": "object", "properties": { "order": { "type": "string" } } } } }
            """
        let output = Support.generate(["api.json": Support.document(paths: paths, schemas: schemas)], main: "api.json")
        #expect(Support.messages(output) == [])
        let source = try #require(output.source)
        #expect(
            source.contains(
                #"fields: [BodyField("tags", style: .pipeDelimited, explode: false), BodyField("metadata", contentType: "application/json")],"#
            ))
        #expect(source.contains("request.setFormBody(\n"))
        #expect(source.contains(#"EndpointRequest(method: "DELETE", path: "/charges")"#))
        #expect(source.contains("request.setJSONBody(body, isKey: false)"))
        // A list or range of media types says what the server accepts; the file sends its own.
        #expect(source.contains("request.setMultipartBody(body, isKey: false)"))
        #expect(source.contains("public var file: MultipartFile\n"))
        #expect(source.contains("public var parts: [MultipartFile]?\n"))
        #expect(source.contains(#"request.setDataBody(body, contentType: "image/png", isKey: false)"#))
        #expect(source.contains(#"request.setTextBody(body, contentType: "text/plain", isKey: false)"#))
    }

    /// A body that cannot be sent leaves a required one's operation out, else is dropped;
    /// a style a form cannot take is ignored; each with its warning.
    @Test func whatCannotBeSentIsNamed() {
        let paths = """
            "/a": { "get": { "operationId": "search",
              "requestBody": { "required": true, "content": { "application/json": { "schema": { "type": "string" } } } },
              "responses": { "204": { "description": "ok" } } },
              "post": { "operationId": "postForm",
              "requestBody": { "required": true, "content": { "application/x-www-form-urlencoded": { "schema": { "type": "string" } } } },
              "responses": { "204": { "description": "ok" } } },
              "put": { "operationId": "putParts",
              "requestBody": { "content": { "multipart/form-data": {} } },
              "responses": { "204": { "description": "ok" } } },
              "patch": { "operationId": "patchForm",
              "requestBody": { "content": { "application/x-www-form-urlencoded": { "schema": { "$ref": "#/components/schemas/Thing" },
                "encoding": { "name": { "style": "matrix" } } } } },
              "responses": { "204": { "description": "ok" } } } }
            """
        let schemas = """
            "Thing": { "type": "object", "properties": { "name": { "type": "string" } } }
            """
        let output = Support.generate(["api.json": Support.document(paths: paths, schemas: schemas)], main: "api.json")
        #expect(
            Support.messages(output) == [
                #"api.json:5:3: warning: operation "search" is left out: its request body is required, and a GET request cannot carry one"#,
                #"api.json:8:3: warning: operation "postForm" is left out: its request body is application/x-www-form-urlencoded of string, not an object"#,
                #"api.json:11:3: warning: the request body of operation "putParts" is left out: it is multipart/form-data without a schema"#,
                #"api.json:15:29: warning: the style "matrix" of property "name" in the request body of operation "patchForm" is ignored: a form takes form, spaceDelimited, pipeDelimited or deepObject"#,
            ])
        #expect(output.source?.contains("func patchForm(body: Thing)") == true)
    }
}
