import CacheGenCore
import Foundation
import Testing

/// A model's `"identity"` (and OpenAPI's `x-cachegen-identity`): the generated model adopts
/// `CachedEntity` with the identity's JSON name; every error has its exact message.
@Suite struct IdentitySpecTests {
    typealias Support = OpenAPITestSupport

    @Test func aModelWithAnIdentityAdoptsCachedEntityByItsJSONName() throws {
        let spec = #"""
        {
          "version": 1,
          "defaults": { "jsonKeys": "snake_case" },
          "models": {
            "Issue": { "identity": "issueId", "properties": { "issueId": "string", "title": "string" } },
            "Label": { "properties": { "id": "string" } }
          },
          "repositories": { "R": { "endpoints": { "list": { "path": "/issues", "response": "[Issue]" } } } }
        }
        """#
        let output = Generator.generate(Data(spec.utf8), path: "spec.json", options: .init())
        #expect(output.diagnostics.isEmpty, "\(output.diagnostics)")
        let source = try #require(output.source)
        #expect(source.contains("public struct Issue: Codable, Sendable, Equatable, CachedEntity {"))
        #expect(source.contains(#"public static var identityKey: String { "issue_id" }"#))
        #expect(source.contains("public struct Label: Codable, Sendable, Equatable {"))
    }

    @Test func identityErrors() {
        let spec = #"""
        {
          "version": 1,
          "models": {
            "A": { "identity": "idd", "properties": { "id": "string" } },
            "B": { "identity": "id", "properties": { "id": "string?" } },
            "C": { "identity": 7, "properties": { "id": "int" } },
            "D": { "identity": "id", "enum": ["x"] }
          },
          "repositories": { "R": { "endpoints": { "a": { "path": "/a", "response": "A" } } } }
        }
        """#
        #expect(
            diagnostics(spec) == [
                #"spec.json:4:24: error: "identity" of model "A" names no property: "idd"; did you mean "id"?"#,
                #"spec.json:5:24: error: "identity" of model "B" must be a string, int or uuid property that is always present; "id" is string?"#,
                #"spec.json:6:24: error: "identity" must be a string; found a number"#,
                #"spec.json:7:12: error: unknown key "identity" in model "D"; valid keys are "description", "enum""#,
            ])
    }

    @Test func xCachegenIdentityInAnOpenAPISchema() throws {
        let paths = """
            "/things": { "get": { "operationId": "listThings",
              "responses": { "200": { "description": "ok", "content": { "application/json": { "schema": { "type": "array", "items": { "$ref": "#/components/schemas/Thing" } } } } } } } }
            """
        let schemas = """
            "Thing": { "type": "object", "x-cachegen-identity": "id", "required": ["id"], "properties": { "id": { "type": "integer" } } },
            "Other": { "type": "object", "x-cachegen-identity": true, "properties": { "id": { "type": "string" } } }
            """
        let document = Support.document(paths: paths, schemas: schemas)
        let output = Support.generate(["api.json": document], main: "api.json")
        let source = try #require(output.source)
        #expect(source.contains("public struct Thing: Codable, Sendable, Equatable, CachedEntity {"))
        #expect(source.contains(#"public static var identityKey: String { "id" }"#))
        #expect(
            Support.messages(output) == [
                #"api.json:7:53: warning: x-cachegen-identity of "Other" is left out: it is not a string naming a property"#
            ])
    }
}
