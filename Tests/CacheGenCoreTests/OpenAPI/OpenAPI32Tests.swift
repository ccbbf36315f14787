import CacheGenCore
import Foundation
import Testing

/// What OpenAPI 3.2 adds: the `query` method and `additionalOperations`, `itemSchema` for
/// event streams, JSON Lines and JSON text sequences, a discriminator's `defaultMapping`,
/// tags' `kind` and `summary`, `querystring` parameters; each mapped, or left out with a
/// located warning.
@Suite struct OpenAPI32Tests {
    typealias Support = OpenAPITestSupport

    static func document(paths: String, schemas: String = "", extra: String = "") -> String {
        Support.document(paths: paths, schemas: schemas, extra: extra, version: "3.2.0")
    }

    static let reply = #""Reply": { "type": "object", "properties": { "text": { "type": "string" } } }"#

    @Test func aQueryOperationIsGenerated() throws {
        let paths = """
            "/search": { "query": { "operationId": "search",
              "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Reply" } } } },
              "responses": { "200": { "description": "ok", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Reply" } } } } } } }
            """
        let output = Support.generate(["api.json": Self.document(paths: paths, schemas: Self.reply)], main: "api.json")
        #expect(Support.messages(output) == [])
        let source = try #require(output.source)
        #expect(source.contains("func search(body: Reply) async throws -> Reply"))
        #expect(source.contains(#"EndpointRequest(method: "QUERY", path: "/search")"#))
    }

    @Test func additionalOperationsAreGeneratedAndAMethodTheRuntimeCannotSendIsNamed() throws {
        let paths = """
            "/things/{id}": { "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "string" } }],
              "additionalOperations": {
                "LINK": { "operationId": "linkThing", "responses": { "204": { "description": "linked" } } },
                "CONNECT": { "operationId": "tunnel", "responses": { "200": { "description": "ok" } } },
                "NOT A METHOD": { "operationId": "odd", "responses": { "200": { "description": "ok" } } } } }
            """
        let output = Support.generate(["api.json": Self.document(paths: paths)], main: "api.json")
        #expect(
            Support.messages(output) == [
                #"api.json:7:5: warning: operation "tunnel" is left out: the runtime cannot send the method "CONNECT": CONNECT opens a tunnel, which URLSession does not do"#,
                #"api.json:8:5: warning: operation "odd" is left out: the runtime cannot send the method "NOT A METHOD": it is not an HTTP method name (RFC 9110 allows letters, digits and !#$%&'*+-.^_`|~)"#,
            ])
        let source = try #require(output.source)
        #expect(source.contains("func linkThing(id: String) async throws"))
        #expect(source.contains(#"EndpointRequest(method: "LINK", path: "/things/{id}")"#))
    }

    @Test func anEventStreamsItemSchemaTypesEachEventsDataByItsContentSchema() throws {
        let event = """
            { "type": "object", "required": ["data"], "properties": { "event": { "type": "string" }, "id": { "type": "string" },
              "data": { "type": "string", "contentMediaType": "application/json", "contentSchema": { "$ref": "#/components/schemas/Reply" } } } }
            """
        let paths = """
            "/events": { "get": { "operationId": "events", "responses": { "200": { "description": "ok",
              "content": { "text/event-stream": { "itemSchema": \(event) } } } } } },
            "/lines": { "get": { "operationId": "lines", "responses": { "200": { "description": "ok",
              "content": { "application/jsonl": { "itemSchema": { "$ref": "#/components/schemas/Reply" } } } } } } },
            "/sequence": { "get": { "operationId": "sequence", "responses": { "200": { "description": "ok",
              "content": { "application/json-seq": { "itemSchema": { "$ref": "#/components/schemas/Reply" } } } } } } },
            "/places": { "get": { "operationId": "places", "responses": { "200": { "description": "ok",
              "content": { "application/geo+json-seq": { "itemSchema": { "$ref": "#/components/schemas/Reply" } } } } } } },
            "/chat": { "post": { "operationId": "chat", "responses": { "200": { "description": "ok",
              "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Reply" } },
                "text/event-stream": { "itemSchema": \(event) } } } } } },
            "/json": { "get": { "operationId": "anyJSON", "responses": { "200": { "description": "ok",
              "content": { "text/event-stream": { "itemSchema": { "properties": { "data": { "contentMediaType": "application/json" } } } } } } } } },
            "/text": { "get": { "operationId": "text", "responses": { "200": { "description": "ok",
              "content": { "text/event-stream": { "itemSchema": { "type": "object", "properties": { "data": { "type": "string" } } } } } } } } }
            """
        let output = Support.generate(["api.json": Self.document(paths: paths, schemas: Self.reply)], main: "api.json")
        #expect(Support.messages(output) == [])
        let source = try #require(output.source)
        for signature in [
            "func events() -> EventStream<Reply>", "func lines() -> EventStream<Reply>", "func sequence() -> EventStream<Reply>",
            "func places() -> EventStream<Reply>",
            "func chat() async throws -> Reply", "func chatEvents() -> EventStream<Reply>", "func anyJSON() -> EventStream<JSONValue>",
            "func text() -> EventStream<String>",
        ] {
            #expect(source.contains(signature), "\(signature)")
        }
    }

    @Test func eventDataThatOneTypeCannotSayIsTextWithAWarning() throws {
        let paths = """
            "/mixed": { "get": { "operationId": "mixed", "responses": { "200": { "description": "ok",
              "content": { "text/event-stream": { "itemSchema": { "type": "object", "properties": { "event": { "type": "string" } },
                "oneOf": [{ "properties": { "event": { "const": "add" }, "data": { "contentMediaType": "application/json", "contentSchema": { "type": "integer" } } } },
                          { "properties": { "event": { "const": "note" } } }] } } } } } } },
            "/noData": { "get": { "operationId": "noData", "responses": { "200": { "description": "ok",
              "content": { "text/event-stream": { "itemSchema": { "$ref": "#/components/schemas/Reply" } } } } } } }
            """
        let output = Support.generate(["api.json": Self.document(paths: paths, schemas: Self.reply)], main: "api.json")
        #expect(
            Support.messages(output) == [
                #"api.json:5:53: warning: each event's data of operation "mixed" is read as text (String): its itemSchema types the data differently by variant, which one Swift type cannot say"#,
                #"api.json:9:53: warning: each event's data of operation "noData" is read as text (String): its itemSchema has no "data" field, as an event (data, event, id, retry) has"#,
            ])
        let source = try #require(output.source)
        #expect(source.contains("func mixed() -> EventStream<String>"))
        #expect(source.contains("func noData() -> EventStream<String>"))
    }

    @Test func aDefaultMappingDecodesAValueWithoutAKnownTagAsItsCase() throws {
        let schemas = """
            "Pet": { "oneOf": [{ "$ref": "#/components/schemas/Cat" }, { "$ref": "#/components/schemas/Dog" }],
              "discriminator": { "propertyName": "kind", "defaultMapping": "Other" } },
            "Cat": { "type": "object", "properties": { "kind": { "type": "string" }, "lives": { "type": "integer" } } },
            "Dog": { "type": "object", "properties": { "kind": { "type": "string" } } },
            "Other": { "type": "object", "properties": { "kind": { "type": "string" }, "note": { "type": "string" } } }
            """
        let output = Support.generate(["api.json": Self.document(paths: "", schemas: schemas)], main: "api.json")
        #expect(Support.messages(output) == ["api.json:1:1: warning: the document has no operations to generate a client from; only its schemas become models"])
        let source = try #require(output.source)
        #expect(source.contains("    case other(Other)\n"))
        #expect(source.contains("let value = try container.decodeIfPresent(String.self, forKey: .discriminator) ?? \"\""))
        #expect(source.contains("        default:\n            self = .other(try Other(from: decoder))"))
    }

    @Test func aTagOfAnotherKindMarksOperationsWithoutGroupingThemAndASummaryDocumentsARepository() throws {
        let extra = """

              "tags": [{ "name": "pets", "summary": "Everything about pets", "kind": "nav" }, { "name": "beta", "kind": "badge" }],
            """
        let paths = """
            "/pets": { "get": { "operationId": "listPets", "tags": ["beta", "pets"], "responses": { "204": { "description": "none" } } } }
            """
        let output = Support.generate(["api.json": Self.document(paths: paths, extra: extra)], main: "api.json")
        #expect(Support.messages(output) == [])
        let source = try #require(output.source)
        #expect(source.contains("/// Everything about pets\n///\n/// `LivePetsRepository` talks to the server; conform your own type for previews and tests.\npublic protocol PetsRepository"))
        #expect(!source.contains("BetaRepository"))
    }

    @Test func aMediaTypeReachedByReferenceIsRead() throws {
        let extra = """

              "x-note": "components.mediaTypes below",
            """
        let paths = """
            "/replies": { "post": { "operationId": "reply",
              "requestBody": { "required": true, "content": { "application/json": { "$ref": "#/components/mediaTypes/Reply" } } },
              "responses": { "200": { "description": "ok", "content": { "application/json": { "$ref": "#/components/mediaTypes/Reply" } } } } } },
            "/lost": { "get": { "operationId": "lost",
              "responses": { "200": { "description": "ok", "content": { "application/json": { "$ref": "#/components/mediaTypes/Missing" } } } } } }
            """
        let document = Self.document(paths: paths, schemas: Self.reply, extra: extra)
            .replacingOccurrences(
                of: #""components": {"#,
                with: ##""components": { "mediaTypes": { "Reply": { "schema": { "$ref": "#/components/schemas/Reply" } } },"##)
        let output = Support.generate(["api.json": document], main: "api.json")
        #expect(
            Support.messages(output) == [
                ##"api.json:9:91: warning: $ref "#/components/mediaTypes/Missing" points to nothing: "Missing" is not there, so media type "application/json" is left out"##
            ])
        let source = try #require(output.source)
        #expect(source.contains("func reply(body: Reply) async throws -> Reply"))
        #expect(source.contains("func lost() async throws\n"))
    }

    @Test func aQuerystringParameterIsNamed() {
        let paths = """
            "/a": { "get": { "operationId": "optional", "parameters": [{ "name": "q", "in": "querystring",
              "content": { "application/x-www-form-urlencoded": { "schema": { "type": "object" } } } }], "responses": { "204": { "description": "none" } } } },
            "/b": { "get": { "operationId": "required", "parameters": [{ "name": "q", "in": "querystring", "required": true,
              "content": { "application/x-www-form-urlencoded": { "schema": { "type": "object" } } } }], "responses": { "204": { "description": "none" } } } }
            """
        let output = Support.generate(["api.json": Self.document(paths: paths)], main: "api.json")
        #expect(
            Support.messages(output) == [
                #"api.json:4:82: warning: querystring parameter "q" of operation "optional" is left out: cachegen writes a query item by item, not as one serialized value (OpenAPI 3.2's querystring)"#,
                #"api.json:6:70: warning: operation "required" is left out: its required querystring parameter "q" cannot be sent: cachegen writes a query item by item, not as one serialized value (OpenAPI 3.2's querystring)"#,
            ])
    }
}
