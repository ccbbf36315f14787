import CacheGenCore
import Foundation
import Testing

/// What real documents (OpenAI, DigitalOcean, Box) used to lose, kept: binary strings inside
/// JSON, enum values without a Swift name of their own, `stream: true` for event-stream
/// methods, multipart when only it can carry a file, and a body's media type the caller names
/// where the document accepts a range.
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
}
