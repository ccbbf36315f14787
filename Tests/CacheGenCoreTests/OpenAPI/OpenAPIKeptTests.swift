import CacheGenCore
import Foundation
import Testing

/// What real documents (OpenAI, DigitalOcean, Box) used to lose, kept: parameters that are
/// unions, arrays of enums, dictionaries or objects; binary strings inside JSON; keys beside
/// an object's properties; enum values without a Swift name of their own; `stream: true` for
/// event-stream methods; multipart when only it can carry a file; and a body's media type the
/// caller names where the document accepts a range.
@Suite struct OpenAPIKeptTests {
    typealias Support = OpenAPITestSupport

    /// A `format: binary` string inside JSON is a string: kept as `String`, no warning; in a
    /// multipart body it stays a file.
    @Test func aBinaryStringInsideJSONIsAString() throws {
        let paths = """
            "/uploads": { "post": { "operationId": "upload",
              "requestBody": { "required": true, "content": { "multipart/form-data": { "schema": { "$ref": "#/components/schemas/Upload" } } } },
              "responses": { "200": { "description": "ok", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Stored" } } } } } } }
            """
        let schemas = """
            "Upload": { "type": "object", "required": ["file"], "properties": { "file": { "type": "string", "format": "binary" } } },
            "Stored": { "type": "object", "properties": { "file": { "type": "string", "format": "binary" }, "hash": { "type": "string", "format": "byte" } } }
            """
        let output = Support.generate(["api.json": Support.document(paths: paths, schemas: schemas)], main: "api.json")
        #expect(Support.messages(output) == [])
        let source = try #require(output.source)
        #expect(source.contains("public struct Upload: Codable, Sendable, Equatable {\n    public var file: MultipartFile\n"))
        #expect(source.contains("public struct Stored: Codable, Sendable, Equatable {\n    public var file: String?\n    public var hash: String?\n"))
    }

    /// Every value comes out: one with no letter or digit is spelled out, one whose name an
    /// earlier value took is numbered, a value listed twice is one case; nothing is warned about.
    @Test func everyEnumValueGetsACaseOfItsOwn() throws {
        let schemas = """
            "Habitat": { "type": "string", "enum": ["water", "", "Water", "+", "-", "water", "red", "red*", "empty", "unknown"] }
            """
        let output = Support.generate(["api.json": Support.document(paths: "", schemas: schemas)], main: "api.json")
        #expect(Support.messages(output).dropFirst() == [])
        let source = try #require(output.source)
        #expect(
            source.contains(
                """
                    case water
                    case empty
                    case water2
                    case plus
                    case minus
                    case red
                    case red2
                    case empty2
                    case unknown
                    /// A value the spec does not list, as the server sent it.
                    case undocumented(String)
                """))
        for (wire, name) in [("", "empty"), ("Water", "water2"), ("red*", "red2"), ("empty", "empty2")] {
            #expect(source.contains("        case \"\(wire)\":\n            self = .\(name)\n"))
            #expect(source.contains("        case .\(name):\n            return \"\(wire)\"\n"))
        }
    }

    static let streaming = """
        "/chat": { "post": { "operationId": "chat",
          "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/ChatRequest" } } } },
          "responses": { "200": { "description": "ok", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Reply" } },
            "text/event-stream": { "schema": { "$ref": "#/components/schemas/Reply" } } } } } } },
        "/speech": { "post": { "operationId": "speech",
          "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Reply" } } } },
          "responses": { "200": { "description": "ok", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Reply" } },
            "text/event-stream": { "schema": { "$ref": "#/components/schemas/Reply" } } } } } } }
        """

    /// The event-stream method of an operation whose body has a boolean `stream` sends
    /// `stream: true`; the plain method sends the body as the caller made it, and a body
    /// without the flag is sent as it is.
    @Test func anEventStreamMethodSendsStreamTrue() throws {
        let schemas = """
            "ChatRequest": { "type": "object", "required": ["prompt"], "properties": { "prompt": { "type": "string" }, "stream": { "type": "boolean", "nullable": true } } },
            "Reply": { "type": "object", "properties": { "text": { "type": "string" }, "stream": { "type": "string" } } }
            """
        let output = Support.generate(["api.json": Support.document(paths: Self.streaming, schemas: schemas)], main: "api.json")
        #expect(Support.messages(output) == [])
        let source = try #require(output.source)
        #expect(
            source.contains(
                """
                        static func chat(body: ChatRequest) -> EndpointRequest {
                            var request = EndpointRequest(method: "POST", path: "/chat")
                            request.setJSONBody(body, isKey: false)
                            return request
                        }

                        static func chatEvents(body: ChatRequest) -> EndpointRequest {
                            var request = EndpointRequest(method: "POST", path: "/chat")
                            var body = body
                            body.stream = true
                            request.setJSONBody(body, isKey: false)
                            return request
                        }
                """))
        #expect(source.contains("    /// Sends `stream: true` in the body, whatever `body` says.\n    func chatEvents(body: ChatRequest) -> EventStream<Reply>\n"))
        // `Reply.stream` is a string, not the flag.
        #expect(source.contains("static func speechEvents(body: Reply) -> EndpointRequest {\n            var request = EndpointRequest(method: \"POST\", path: \"/speech\")\n            request.setJSONBody"))
    }

    /// JSON is sent when offered, unless only multipart can carry a file the operation takes:
    /// the JSON schema lacks the property or has it as a string.
    @Test func multipartIsChosenWhenOnlyItCarriesAFile() throws {
        func body(_ json: String, _ multipart: String) -> String {
            """
            "requestBody": { "required": true, "content": {
              "application/json": { "schema": \(json) }, "multipart/form-data": { "schema": \(multipart) } } },
            "responses": { "204": { "description": "ok" } }
            """
        }
        let paths = """
            "/edits": { "post": { "operationId": "edit", \(body(##"{ "$ref": "#/components/schemas/EditJSON" }"##, ##"{ "$ref": "#/components/schemas/EditForm" }"##)) } },
            "/files": { "post": { "operationId": "createFile", \(body(##"{ "$ref": "#/components/schemas/FileBody" }"##, ##"{ "$ref": "#/components/schemas/FileBody" }"##)) } },
            "/notes": { "post": { "operationId": "createNote", \(body(##"{ "$ref": "#/components/schemas/NoteJSON" }"##, ##"{ "$ref": "#/components/schemas/FileBody" }"##)) } },
            "/plain": { "post": { "operationId": "createPlain", \(body(##"{ "$ref": "#/components/schemas/NoteJSON" }"##, ##"{ "$ref": "#/components/schemas/NoteJSON" }"##)) } }
            """
        let schemas = """
            "EditJSON": { "type": "object", "properties": { "images": { "type": "array", "items": { "type": "string" } } } },
            "EditForm": { "type": "object", "properties": { "image": { "anyOf": [{ "type": "string", "format": "binary" },
              { "type": "array", "items": { "type": "string", "format": "binary" } }] } } },
            "FileBody": { "type": "object", "properties": { "file": { "type": "string", "format": "binary" } } },
            "NoteJSON": { "type": "object", "properties": { "file": { "type": "object", "properties": { "url": { "type": "string" } } } } }
            """
        let output = Support.generate(["api.json": Support.document(paths: paths, schemas: schemas)], main: "api.json")
        #expect(Support.messages(output) == [])
        let source = try #require(output.source)
        #expect(source.contains("static func edit(body: EditForm) -> EndpointRequest {\n            var request = EndpointRequest(method: \"POST\", path: \"/edits\")\n            request.setMultipartBody(body, isKey: false)"))
        #expect(source.contains("public indirect enum EditFormImage: Codable, Sendable, Equatable {\n    case file(MultipartFile)\n    case files([MultipartFile])\n"))
        #expect(source.contains("static func createFile(body: FileBody) -> EndpointRequest {\n            var request = EndpointRequest(method: \"POST\", path: \"/files\")\n            request.setMultipartBody"))
        #expect(source.contains("public struct FileBody: Codable, Sendable, Equatable {\n    public var file: MultipartFile?\n"))
        // JSON carries the file as an object of its own, so JSON it is.
        #expect(source.contains("static func createNote(body: NoteJSON) -> EndpointRequest {\n            var request = EndpointRequest(method: \"POST\", path: \"/notes\")\n            request.setJSONBody"))
        #expect(source.contains("static func createPlain(body: NoteJSON) -> EndpointRequest {\n            var request = EndpointRequest(method: \"POST\", path: \"/plain\")\n            request.setJSONBody"))
    }

    /// A body the document accepts in a range of media types (`image/*`, `*/*`) takes a
    /// `contentType` argument; without one it sends the first concrete type the document
    /// lists of that kind, else `application/octet-stream`.
    @Test func theCallerNamesTheMediaTypeOfAWildcardBody() throws {
        let paths = """
            "/avatars": { "put": { "operationId": "putAvatar", "parameters": [{ "name": "contentType", "in": "query", "schema": { "type": "string" } }],
              "requestBody": { "required": true, "content": { "image/*": { "schema": { "type": "string", "format": "binary" } }, "image/png": {} } },
              "responses": { "204": { "description": "ok" } } } },
            "/blobs": { "put": { "operationId": "putBlob",
              "requestBody": { "required": true, "content": { "*/*": { "schema": { "type": "string", "format": "binary" } } } },
              "responses": { "204": { "description": "ok" } } } },
            "/notes": { "put": { "operationId": "putNote",
              "requestBody": { "required": true, "content": { "text/*": { "schema": { "type": "string" } } } },
              "responses": { "204": { "description": "ok" } } } }
            """
        let output = Support.generate(["api.json": Support.document(paths: paths)], main: "api.json")
        #expect(Support.messages(output) == [])
        let source = try #require(output.source)
        #expect(source.contains("func putAvatar(contentType: String?, body: Data, contentType2: String?) async throws\n"))
        #expect(source.contains(#"request.setDataBody(body, contentType: contentType2 ?? "image/png", isKey: false)"#))
        #expect(source.contains(#"request.setDataBody(body, contentType: contentType ?? "application/octet-stream", isKey: false)"#))
        #expect(source.contains(#"request.setTextBody(body, contentType: contentType ?? "text/plain", isKey: false)"#))
        #expect(
            source.contains(
                "    /// - Parameter contentType: The media type of `body`, one the server takes; `nil` sends `application/octet-stream`.\n    func putBlob(body: Data, contentType: String?) async throws\n"
            ))
        // Callers may leave it out.
        #expect(source.contains("func putBlob(body: Data) async throws {\n        try await self.putBlob(body: body, contentType: nil)\n    }"))
    }

    /// DigitalOcean's `image_id` (`anyOf: [integer, string]`) as its case's text, OpenAI's
    /// `openai-beta` header (an array of enums) joined by commas, a path array joined by
    /// commas, dictionaries and objects in the query as `deepObject` or exploded `form`; what
    /// still has no defined text form is named.
    @Test func parametersThatAreNotOneScalar() throws {
        let paths = """
            "/images/{image_id}/{tags}": { "get": { "operationId": "getImage",
              "parameters": [
                { "name": "image_id", "in": "path", "required": true, "schema": { "anyOf": [{ "type": "integer" }, { "type": "string" }] } },
                { "name": "tags", "in": "path", "required": true, "style": "label", "schema": { "type": "array", "items": { "type": "string" } } },
                { "name": "openai-beta", "in": "header", "style": "simple", "explode": false,
                  "schema": { "type": "array", "items": { "type": "string", "enum": ["responses_multi_agent=v1"] } } },
                { "name": "metadata", "in": "query", "schema": { "type": "object", "additionalProperties": { "type": "string" } } },
                { "name": "filter", "in": "query", "style": "deepObject", "schema": { "type": "object", "additionalProperties": { "$ref": "#/components/schemas/Kind" } } },
                { "name": "effective_at", "in": "query", "schema": { "type": "object", "properties": { "gt": { "type": "integer" } } } },
                { "name": "sizes", "in": "query", "schema": { "type": "array", "items": { "$ref": "#/components/schemas/Size" } } },
                { "name": "range", "in": "query", "explode": false, "schema": { "type": "object", "properties": { "gt": { "type": "integer" } } } },
                { "name": "shape", "in": "header", "schema": { "type": "object", "properties": { "gt": { "type": "integer" } } } },
                { "name": "items", "in": "query", "schema": { "type": "array", "items": { "type": "object", "properties": { "a": { "type": "string" } } } } }],
              "responses": { "204": { "description": "ok" } } } },
            "/snapshots/{ids}": { "delete": { "operationId": "deleteSnapshots",
              "parameters": [{ "name": "ids", "in": "path", "required": true, "style": "matrix", "explode": true,
                "schema": { "type": "array", "items": { "type": "integer" } } }],
              "responses": { "204": { "description": "ok" } } } }
            """
        let schemas = """
            "Kind": { "type": "string", "enum": ["a", "b"] },
            "Size": { "anyOf": [{ "$ref": "#/components/schemas/Kind" }, { "type": "array", "items": { "$ref": "#/components/schemas/Kind" } }, { "type": "number" }] }
            """
        let output = Support.generate(["api.json": Support.document(paths: paths, schemas: schemas)], main: "api.json")
        #expect(Support.messages(output) == [])
        let source = try #require(output.source)
        #expect(
            source.contains(
                """
                            var request = EndpointRequest(method: "GET", path: "/images/{image_id}/{tags}")
                            request.setPathParameter("image_id", imageId)
                            request.setPathParameter("tags", tags, style: .label)
                            request.addQuery("metadata", metadata, style: .form, isKey: false)
                            request.addQuery("filter", filter?.mapValues(\\.rawValue), style: .deepObject, isKey: false)
                            request.addQuery("gt", effectiveAt?.gt, isKey: false)
                            request.addQuery("sizes", sizes, style: .repeated, isKey: false)
                            request.addQuery("range", object: range, style: .joined, coding: JSONCoding(dates: .iso8601), isKey: false)
                            request.addQuery("items", json: items, coding: JSONCoding(dates: .iso8601), isKey: false)
                            request.addHeader("openai-beta", openaiBeta?.map(\\.rawValue), isKey: false)
                            request.addHeader("shape", object: shape, style: .joined, coding: JSONCoding(dates: .iso8601), isKey: false)
                """))
        #expect(source.contains(#"request.setPathParameter("ids", exploding: ids, style: .matrix)"#))
        #expect(source.contains("public indirect enum GetImageImageId: Codable, Sendable, Equatable, RequestParameterValue {"))
        #expect(
            source.contains(
                """
                    /// The value's text in a path, query item or header: its case's.
                    public var requestParameterText: String {
                        switch self {
                        case .kind(let value):
                            return value.rawValue
                        case .kinds(let value):
                            return value.map(\\.rawValue).requestParameterText
                        case .number(let value):
                            return value.requestParameterText
                        case .other(let value):
                            return value.requestParameterText
                        }
                    }
                """))
    }

    /// `additionalProperties` beside properties: the other keys in a dictionary after them,
    /// typed by its schema (any JSON for `true`), named apart from a property that took the name.
    @Test func keysBesideThePropertiesAreKept() throws {
        let schemas = """
            "Typed": { "type": "object", "properties": { "foo": { "type": "string" } }, "additionalProperties": { "type": "integer" } },
            "Open": { "type": "object", "required": ["additionalProperties"], "properties": { "additionalProperties": { "type": "boolean" } }, "additionalProperties": true },
            "Merged": { "allOf": [{ "$ref": "#/components/schemas/Typed" }, { "type": "object", "properties": { "bar": { "type": "string" } } }] },
            "Closed": { "type": "object", "properties": { "foo": { "type": "string" } }, "additionalProperties": false }
            """
        let output = Support.generate(["api.json": Support.document(paths: "", schemas: schemas)], main: "api.json")
        #expect(Support.messages(output).dropFirst() == [])
        let source = try #require(output.source)
        #expect(
            source.contains(
                """
                public struct Typed: Codable, Sendable, Equatable {
                    public var foo: String?

                    /// Every other key of the object, by its name on the wire.
                    public var additionalProperties: [String: Int]

                    /// Creates a value; optional properties default to `nil` and `additionalProperties` to none.
                    public init(foo: String? = nil, additionalProperties: [String: Int] = [:]) {
                        self.foo = foo
                        self.additionalProperties = additionalProperties
                    }

                    /// Reads the value from its wire names.
                    public init(from decoder: any Decoder) throws {
                        let container = try decoder.container(keyedBy: WireKey.self)
                        self.foo = try container.decodeIfPresent(String.self, forKey: WireKey("foo"))
                        self.additionalProperties = try container.decodeAdditionalProperties(Int.self, excluding: ["foo"])
                    }

                    /// Writes the value under its wire names.
                    public func encode(to encoder: any Encoder) throws {
                        var container = encoder.container(keyedBy: WireKey.self)
                        try container.encodeIfPresent(self.foo, forKey: WireKey("foo"))
                        try container.encodeAdditionalProperties(self.additionalProperties, excluding: ["foo"])
                    }
                }
                """))
        #expect(
            source.contains(
                "    public var additionalProperties: Bool\n\n    /// Every other key of the object, by its name on the wire.\n    public var additionalProperties2: [String: JSONValue]\n"
            ))
        #expect(source.contains("    /// Creates a value; `additionalProperties2` defaults to none.\n"))
        #expect(source.contains("try container.decodeAdditionalProperties(Int.self, excluding: [\"foo\", \"bar\"])"))
        #expect(!source.contains("public struct Closed: Codable, Sendable, Equatable {\n    public var foo: String?\n\n    /// Every other key"))
    }
}
