import CacheGenCore
import Foundation
import Testing

/// `"offline": "queue"` and `"idempotencyHeader"` in a spec, an overlay and `x-cachegen`:
/// what is generated, and every error with its exact message and location.
@Suite struct OfflineSpecTests {
    typealias Support = OpenAPITestSupport

    @Test func queuedEndpointsReturnAMutationResultAndOthersAreUnchanged() throws {
        let spec = #"""
        {
          "version": 1,
          "models": { "A": { "properties": { "id": "string" } } },
          "repositories": { "R": { "endpoints": {
            "list": { "path": "/a", "response": "[A]" },
            "add": { "method": "POST", "path": "/a", "body": "A", "response": "A", "offline": "queue", "invalidates": ["list"] },
            "remove": { "method": "DELETE", "path": "/a/{id}", "offline": "queue" },
            "rename": { "method": "PUT", "path": "/a/{id}", "body": "A", "response": "A" }
          } } }
        }
        """#
        let output = Generator.generate(Data(spec.utf8), path: "spec.json", options: .init())
        #expect(output.diagnostics.isEmpty, "\(output.diagnostics)")
        let source = try #require(output.source)
        #expect(source.contains("func add(body: A) async throws -> MutationResult<A>"))
        #expect(source.contains("func remove(id: String) async throws -> MutationResult<Void>"))
        #expect(source.contains("func rename(id: String, body: A) async throws -> A"))
        #expect(source.contains("client.queueableResponse("))
        #expect(source.contains("client.queueablePerform("))
        #expect(source.components(separatedBy: "offline: .queue").count == 3)
        #expect(source.contains("it is sent later, in order, with the same `Idempotency-Key`."))
    }

    @Test func theIdempotencyHeaderIsTheSpecs() throws {
        let spec = #"""
        {
          "version": 1,
          "defaults": { "idempotencyHeader": "X-Request-Id" },
          "repositories": { "R": { "endpoints": {
            "ping": { "method": "POST", "path": "/ping", "offline": "queue" }
          } } }
        }
        """#
        let output = Generator.generate(Data(spec.utf8), path: "spec.json", options: .init())
        #expect(output.diagnostics.isEmpty, "\(output.diagnostics)")
        #expect(try #require(output.source).contains(#"offline: OfflineRule(idempotencyHeader: "X-Request-Id")"#))
    }

    @Test func offlineErrors() {
        let spec = #"""
        {
          "version": 1,
          "defaults": { "idempotencyHeader": "Idempotency Key" },
          "models": { "A": { "properties": { "id": "string" } } },
          "repositories": { "R": { "endpoints": {
            "a": { "path": "/a", "response": "A", "offline": "queue" },
            "b": { "method": "POST", "path": "/b", "offline": "later" },
            "c": { "method": "POST", "path": "/c", "offline": true },
            "d": { "method": "POST", "path": "/d", "body": "A", "response": "A", "cache": { "key": ["body"] }, "offline": "queue" },
            "e": { "method": "POST", "path": "/e", "response": { "type": "A", "format": "events" }, "cache": false, "offline": "queue" }
          } } }
        }
        """#
        #expect(
            diagnostics(spec) == [
                #"spec.json:3:38: error: "idempotencyHeader" must be a header field name such as "Idempotency-Key"; found "Idempotency Key""#,
                #"spec.json:6:54: error: "offline": "queue" is for mutations; GET endpoint "a" is read from the cache offline"#,
                #"spec.json:7:55: error: "offline" cannot be "later"; the only value is "queue" (leave "offline" out for a call that fails offline)"#,
                #"spec.json:8:55: error: "offline" must be "queue" or an object with "mode" and "scope"; found true or false"#,
                #"spec.json:9:115: error: endpoint "d" is cached, and a queued call has no answer to cache; remove "offline" or set "cache": false"#,
                #"spec.json:10:120: error: endpoint "e" streams its response, which cannot wait in a queue; remove "offline""#,
            ])
    }

    @Test func theOverlayAndXCachegenQueueOperations() throws {
        let paths = """
            "/things": { "post": { "operationId": "addThing",
              "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Thing" } } } },
              "responses": { "201": { "description": "ok", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Thing" } } } } } } },
            "/things/{id}": { "delete": { "operationId": "removeThing", "x-cachegen": { "offline": "queue" },
              "parameters": [ { "name": "id", "in": "path", "required": true, "schema": { "type": "string" } } ],
              "responses": { "204": { "description": "gone" } } } }
            """
        let schemas = "\"Thing\": { \"type\": \"object\", \"required\": [\"id\"], \"properties\": { \"id\": { \"type\": \"string\" } } }"
        let document = Support.document(paths: paths, schemas: schemas)
        let overlay = """
            {
              "openapi": "api.json",
              "defaults": { "idempotencyHeader": "X-Key" },
              "operations": { "addThing": { "offline": "queue" } }
            }
            """
        let output = Support.generate(["Things.cachegen.json": overlay, "api.json": document], main: "Things.cachegen.json")
        #expect(output.diagnostics.isEmpty, "\(output.diagnostics)")
        let source = try #require(output.source)
        #expect(source.contains("-> MutationResult<Thing>"))
        #expect(source.contains(#"offline: OfflineRule(idempotencyHeader: "X-Key")"#))
        // `x-cachegen` of an operation the overlay has no rule for.
        #expect(source.contains("-> MutationResult<Void>"))

        let wrong = overlay.replacingOccurrences(of: #""offline": "queue""#, with: #""offline": "soon""#)
        let failed = Support.generate(["Things.cachegen.json": wrong, "api.json": document], main: "Things.cachegen.json")
        #expect(
            Support.messages(failed) == [
                #"Things.cachegen.json:4:44: error: "offline" cannot be "soon"; the only value is "queue" (leave "offline" out for a call that fails offline)"#
            ])
    }

    @Test func theObjectFormNamesTheQueueItsMutationsShare() throws {
        let spec = #"""
        {
          "version": 1,
          "defaults": { "idempotencyHeader": "X-Key" },
          "repositories": { "R": { "endpoints": {
            "a": { "method": "POST", "path": "/a/{id}", "offline": { "mode": "queue", "scope": "items" } },
            "b": { "method": "POST", "path": "/b", "offline": { "mode": "queue" } },
            "c": { "method": "POST", "path": "/c", "offline": "queue" }
          } } }
        }
        """#
        let output = Generator.generate(Data(spec.utf8), path: "spec.json", options: .init())
        #expect(output.diagnostics.isEmpty, "\(output.diagnostics)")
        let source = try #require(output.source)
        #expect(source.contains(#"offline: OfflineRule(idempotencyHeader: "X-Key", scope: "items")"#))
        #expect(source.components(separatedBy: #"offline: OfflineRule(idempotencyHeader: "X-Key")"#).count == 3)

        let plain = spec.replacingOccurrences(of: #""defaults": { "idempotencyHeader": "X-Key" },"#, with: "")
        let plainSource = try #require(Generator.generate(Data(plain.utf8), path: "spec.json", options: .init()).source)
        #expect(plainSource.contains(#"offline: OfflineRule(scope: "items")"#))
        #expect(plainSource.components(separatedBy: "offline: .queue").count == 3)
    }

    @Test func objectFormErrors() {
        let spec = #"""
        {
          "version": 1,
          "repositories": { "R": { "endpoints": {
            "a": { "method": "POST", "path": "/a", "offline": { "scope": "items" } },
            "b": { "method": "POST", "path": "/b", "offline": { "mode": "later", "scope": "items" } },
            "c": { "method": "POST", "path": "/c", "offline": { "mode": "queue", "scope": "" } },
            "d": { "method": "POST", "path": "/d", "offline": { "mode": "queue", "scope": 3 } },
            "e": { "method": "POST", "path": "/e", "offline": { "mode": "queue", "scoop": "items" } }
          } } }
        }
        """#
        #expect(
            diagnostics(spec) == [
                #"spec.json:4:55: error: "offline" needs "mode": "queue""#,
                #"spec.json:5:65: error: "offline" cannot be "later"; the only value is "queue" (leave "offline" out for a call that fails offline)"#,
                #"spec.json:6:83: error: "scope" of "offline" must name a queue, such as "notes"; leave it out to queue by path"#,
                #"spec.json:7:83: error: "scope" of "offline" must be a string; found a number"#,
                #"spec.json:8:74: error: unknown key "scoop" in "offline"; valid keys are "mode", "scope""#,
            ])
    }

    @Test func theOverlayTakesTheObjectFormToo() throws {
        let paths = """
            "/things": { "post": { "operationId": "addThing", "x-cachegen": { "offline": { "mode": "queue", "scope": "things" } },
              "responses": { "204": { "description": "ok" } } } }
            """
        let document = Support.document(paths: paths, schemas: "")
        let overlay = #"{ "openapi": "api.json" }"#
        let output = Support.generate(["Things.cachegen.json": overlay, "api.json": document], main: "Things.cachegen.json")
        #expect(output.diagnostics.isEmpty, "\(output.diagnostics)")
        #expect(try #require(output.source).contains(#"offline: OfflineRule(scope: "things")"#))
    }
}
