/// The spec `cachegen init` writes: small, valid, and explained through its own
/// `description` fields, since JSON has no comments.
public enum StarterSpec {
    /// The file's text.
    public static let text = #"""
        {
          "$schema": "https://github.com/cachegen/cachegen/Schemas/cachegen.schema.json",
          "version": 1,
          "baseURL": "https://api.example.com/v1",
          "defaults": {
            "cache": { "ttl": "5m", "policy": "networkFirst", "maxStale": "7d", "scope": "user" },
            "jsonKeys": "snake_case",
            "dates": "iso8601"
          },
          "models": {
            "Project": {
              "description": "A model becomes a Codable struct. Types: string int double bool date url uuid, a model name, [T], [string: T], T?.",
              "properties": {
                "id": "string",
                "name": "string",
                "createdAt": { "type": "date", "description": "With jsonKeys snake_case this is created_at on the wire." },
                "status": "ProjectStatus",
                "tags": "[string]",
                "archivedAt": "date?"
              }
            },
            "ProjectStatus": {
              "description": "A string enum; values the server adds later decode as .unknown instead of failing.",
              "enum": ["active", "paused", "done"]
            },
            "NewProject": {
              "properties": { "name": "string", "tags": "[string]" }
            }
          },
          "repositories": {
            "ProjectRepository": {
              "description": "A repository becomes a protocol, a Live… implementation and a Mock… for previews and tests.",
              "endpoints": {
                "getProjects": {
                  "description": "GET is cached with the defaults unless told otherwise. Cached calls return CachedValue<T>.",
                  "path": "/projects",
                  "query": { "page": "int", "status": "ProjectStatus?" },
                  "response": "[Project]",
                  "cache": { "ttl": "10m", "key": ["page", "status"] }
                },
                "getProject": {
                  "description": "Path parameters are strings unless typed in pathParameters; they are always part of the key.",
                  "path": "/projects/{id}",
                  "response": "Project",
                  "cache": { "ttl": "1h", "policy": "cacheFirst" }
                },
                "createProject": {
                  "description": "Not cached: returns Project, not CachedValue. A success removes the listed endpoints' entries.",
                  "method": "POST",
                  "path": "/projects",
                  "body": "NewProject",
                  "response": "Project",
                  "invalidates": ["getProjects"]
                }
              }
            }
          }
        }

        """#
}
