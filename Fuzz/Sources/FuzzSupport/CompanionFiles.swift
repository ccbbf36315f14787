import Foundation

/// What the generator's `read` returns in the targets: an overlay's document and every
/// `$ref`ed file are this small OpenAPI document, so overlays and external references are
/// exercised without touching the disk.
public enum CompanionFiles {
    /// The one document every path reads as.
    public static let document = Data(
        #"""
        {
          "openapi": "3.0.3",
          "info": { "title": "Things API", "version": "1" },
          "x-cachegen": { "defaults": { "cache": { "ttl": "1m", "scope": "shared" } } },
          "paths": {
            "/things/{id}": {
              "get": {
                "operationId": "getThing", "tags": ["things"],
                "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "string" } },
                               { "name": "limit", "in": "query", "schema": { "type": "integer" } }],
                "responses": { "200": { "description": "ok", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Thing" } } } } }
              },
              "delete": { "operationId": "deleteThing", "tags": ["things"], "responses": { "204": { "description": "gone" } } }
            }
          },
          "components": { "schemas": {
            "Thing": { "type": "object", "required": ["id"], "properties": {
              "id": { "type": "string" }, "kind": { "type": "string", "enum": ["a", "b"] },
              "parts": { "type": "array", "items": { "$ref": "#/components/schemas/Thing" } } } }
          } }
        }
        """#.utf8)

    /// The lines of `document`, measured once per process rather than once per input.
    public static let documentBounds = TextBounds(document)

    /// The reader the targets hand the generator: `document` for every path.
    public static let read: @Sendable (String) -> Data? = { _ in document }
}
