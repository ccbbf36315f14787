import CacheGenCore
import Foundation
import Testing

/// Responses that are not JSON: bytes and text become `Data` and `String` (cached like any
/// value), event streams become `EventStream` methods, and an operation that offers a stream
/// beside JSON gets both methods, the stream's named without colliding.
@Suite struct OpenAPIResponseTests {
    typealias Support = OpenAPITestSupport

    static let document = #"""
{
  "openapi": "3.0.3",
  "info": { "title": "Things API", "version": "1" },
  "paths": {"/chat": { "post": { "operationId": "chat", "requestBody": { "required": true, "content": { "application/json": { "schema": { "type": "string" } } } },
  "responses": { "200": { "description": "ok", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Reply" } }, "text/event-stream": { "schema": { "$ref": "#/components/schemas/Reply" } } } } } } },
"/chat/events": { "get": { "operationId": "chatEvents", "responses": { "200": { "description": "ok", "content": { "application/x-ndjson": { "schema": { "$ref": "#/components/schemas/Reply" } } } } } } },
"/speech": { "post": { "operationId": "speech", "responses": { "200": { "description": "ok", "content": { "application/octet-stream": { "schema": { "type": "string", "format": "binary" } }, "text/event-stream": { "schema": { "type": "array" } } } } } } },
"/report": { "get": { "operationId": "report", "responses": { "200": { "description": "ok", "content": { "text/csv": { "schema": { "type": "string" } }, "application/pdf": {} } } } } },
"/logs": { "get": { "operationId": "logs", "responses": { "200": { "description": "ok", "content": { "text/event-stream": { "schema": { "type": "array" } } } } } } }},
  "components": { "schemas": {"Reply": { "type": "object", "properties": { "text": { "type": "string" } } }} }
}
"""#

    @Test func bytesTextAndStreamsAreGeneratedAndWhatCannotBeDecodedIsNamed() throws {
        let output = Support.generate(["api.json": Self.document], main: "api.json")
        #expect(
            Support.messages(output) == [
                #"api.json:7:191: warning: the event stream of operation "speech" is left out: it is an array without "items""#,
                #"api.json:9:102: warning: operation "logs" is left out: its event stream is an array without "items""#,
            ])
        let source = try #require(output.source)
        for signature in [
            "func chat(body: String) async throws -> Reply",
            "func chatEvents() -> EventStream<Reply>",
            "func chatEvents2(body: String) -> EventStream<Reply>",
            "func report(policy: CachePolicy?) async throws -> CachedValue<String>",
            "func speech() async throws -> Data",
        ] {
            #expect(source.contains(signature), "\(signature)")
        }
        for argument in [
            #"accept: "application/octet-stream""#, #"accept: "text/csv""#, #"accept: "text/event-stream""#,
            #"accept: "application/x-ndjson""#, "format: .data", "format: .text", "format: .events", "format: .jsonLines",
        ] {
            #expect(source.contains(argument), "\(argument)")
        }
        #expect(!source.contains("func logs"))
    }

    @Test func aBinaryStringIsBytesWhateverItsMediaType() throws {
        let paths = """
            "/blob": { "get": { "operationId": "blob",
              "responses": { "200": { "description": "ok", "content": { "application/json": { "schema": { "type": "string", "format": "binary" } } } } } } },
            "/page": { "get": { "operationId": "page",
              "responses": { "200": { "description": "ok", "content": { "text/html": { "schema": { "type": "string", "format": "binary" } }, "text/plain": {} } } } } }
            """
        let output = Support.generate(["api.json": Support.document(paths: paths)], main: "api.json")
        #expect(Support.messages(output) == [])
        let source = try #require(output.source)
        #expect(source.contains("func blob(policy: CachePolicy?) async throws -> CachedValue<Data>"))
        #expect(source.contains("func page(policy: CachePolicy?) async throws -> CachedValue<Data>"))
        #expect(source.contains(#"accept: "application/json""#))
        #expect(source.contains(#"accept: "text/html""#))
    }

    @Test func includingAnOperationIncludesItsEventStream() throws {
        let overlay = #"{ "openapi": "api.json", "include": { "operations": ["chat"] } }"#
        let output = Support.generate(["A.cachegen.json": overlay, "api.json": Self.document], main: "A.cachegen.json")
        let source = try #require(output.source)
        #expect(source.contains("func chatEvents2(body: String) -> EventStream<Reply>"))
        #expect(!source.contains("func speech"))
    }
}
