import CacheGenCore
import Foundation
import Testing

/// Every error and warning the OpenAPI front stage adds, word for word and where it points.
@Suite struct OpenAPIDiagnosticsTests {
    typealias Support = OpenAPITestSupport

    static let getThing = """
        "/things/{id}": { "get": { "operationId": "getThing",
          "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "integer" } }],
          "responses": { "200": { "description": "ok", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Thing" } } } } } } }
        """
    static let thing = """
        "Thing": { "type": "object", "required": ["id"], "properties": { "id": { "type": "integer" } } }
        """

    @Test func cookieParametersAreLeftOut() {
        let paths = """
            "/me": { "get": { "operationId": "getMe",
              "parameters": [{ "name": "session", "in": "cookie", "schema": { "type": "string" } }],
              "responses": { "204": { "description": "ok" } } } }
            """
        let output = Support.generate(["api.json": Support.document(paths: paths)], main: "api.json")
        #expect(
            Support.messages(output) == [
                "api.json:5:28: warning: cookie parameter \"session\" of operation \"getMe\" is left out: send cookies through the client's headers provider"
            ])
        #expect(output.source?.contains("func getMe() async throws\n") == true)
    }

    /// Two parameters that become one Swift argument are told apart by a number, and one
    /// with no letter or digit is spelled out, required or not; the document generates (found
    /// by the openapi fuzz target: the validator rejected the whole document).
    @Test func parametersThatBecomeOneSwiftArgumentAreToldApart() {
        let paths = """
            "/users/{username}": { "get": { "operationId": "getUser",
              "parameters": [{ "name": "username", "in": "path", "required": true, "schema": { "type": "string" } },
                { "name": ",username", "in": "query", "schema": { "type": "string" } },
                { "name": "--", "in": "query", "schema": { "type": "string" } }],
              "responses": { "204": { "description": "ok" } } } },
            "/teams/{team}": { "get": { "operationId": "getTeam",
              "parameters": [{ "name": "team", "in": "path", "required": true, "schema": { "type": "string" } },
                { "name": "Team", "in": "header", "required": true, "schema": { "type": "string" } }],
              "responses": { "204": { "description": "ok" } } } }
            """
        let output = Support.generate(["api.json": Support.document(paths: paths)], main: "api.json")
        #expect(
            Support.messages(output) == [
                "api.json:6:15: warning: query parameter \",username\" of operation \"getUser\" becomes the argument username like another parameter, so it is username2; to choose another, add \"names\": { \"parameters\": { \"getUser\": { \",username\": \"…\" } } } to the overlay",
                "api.json:7:15: warning: query parameter \"--\" of operation \"getUser\" has no letter or digit to make a Swift name from, so it is the argument minusMinus; to choose another, add \"names\": { \"parameters\": { \"getUser\": { \"--\": \"…\" } } } to the overlay",
                "api.json:11:15: warning: header parameter \"Team\" of operation \"getTeam\" becomes the argument team like another parameter, so it is team2; to choose another, add \"names\": { \"parameters\": { \"getTeam\": { \"Team\": \"…\" } } } to the overlay",
            ])
        let source = output.source ?? ""
        #expect(source.contains("func getUser(username: String, username2: String?, minusMinus: String?) async throws\n"), "\(source)")
        #expect(source.contains("func getTeam(team: String, team2: String) async throws\n"))
    }

    /// Every `style` and `explode` is sent as the document says, with no warning.
    @Test func parametersAreSentInTheDocumentsStyle() {
        let paths = """
            "/things/{id}/{slot}": { "get": { "operationId": "getThings",
              "parameters": [{ "name": "tag", "in": "query", "schema": { "type": "array", "items": { "type": "string" } } },
                { "name": "id", "in": "path", "required": true, "style": "label", "schema": { "type": "integer" } },
                { "name": "slot", "in": "path", "required": true, "style": "matrix", "schema": { "type": "string" } },
                { "name": "ids", "in": "query", "explode": false, "schema": { "type": "array", "items": { "type": "integer" } } },
                { "name": "words", "in": "query", "style": "spaceDelimited", "explode": false, "schema": { "type": "array", "items": { "type": "string" } } },
                { "name": "bars", "in": "query", "style": "pipeDelimited", "schema": { "type": "array", "items": { "type": "string" } } },
                { "name": "many", "in": "query", "style": "pipeDelimited", "explode": true, "schema": { "type": "array", "items": { "type": "string" } } },
                { "name": "one", "in": "query", "explode": true, "schema": { "type": "string" } },
                { "name": "X-Ids", "in": "header", "schema": { "type": "string" } }],
              "responses": { "204": { "description": "ok" } } } }
            """
        let output = Support.generate(["api.json": Support.document(paths: paths)], main: "api.json")
        #expect(Support.messages(output) == [])
        let source = output.source ?? ""
        for call in [
            #"request.setPathParameter("id", id, style: .label)"#, #"request.setPathParameter("slot", slot, style: .matrix)"#,
            #"request.addQuery("tag", tag, style: .repeated, isKey: false)"#, #"request.addQuery("ids", ids, isKey: false)"#,
            #"request.addQuery("words", words, style: .spaceDelimited, isKey: false)"#,
            #"request.addQuery("bars", bars, style: .pipeDelimited, isKey: false)"#,
            #"request.addQuery("many", many, style: .repeated, isKey: false)"#, #"request.addQuery("one", one, isKey: false)"#,
            #"request.addHeader("X-Ids", xIds, isKey: false)"#,
        ] {
            #expect(source.contains(call), "\(call)")
        }
    }

    /// An object sent as `deepObject`: one item per property, `filter[name]=value`; an object
    /// with an object inside, which no style writes as text, is sent as JSON text.
    @Test func deepObjectQueryParameters() {
        let paths = """
            "/things": { "get": { "operationId": "getThings",
              "parameters": [
                { "name": "filter", "in": "query", "style": "deepObject", "schema": { "$ref": "#/components/schemas/Filter" } },
                { "name": "page", "in": "query", "required": true, "style": "deepObject", "schema": { "type": "object", "required": ["size"],
                  "properties": { "size": { "type": "integer" }, "after": { "type": "string" } } } },
                { "name": "deep", "in": "query", "style": "deepObject", "schema": { "type": "object",
                  "properties": { "inner": { "type": "object", "properties": { "a": { "type": "string" } } } } } }],
              "responses": { "204": { "description": "ok" } } } }
            """
        let schemas = """
            "Filter": { "type": "object", "properties": { "created_at": { "type": "string", "format": "date-time" }, "kind": { "type": "string", "enum": ["a", "b"] } } }
            """
        let output = Support.generate(["api.json": Support.document(paths: paths, schemas: schemas)], main: "api.json")
        #expect(Support.messages(output) == [])
        let source = output.source ?? ""
        for call in [
            #"request.addQuery("deep", json: deep, coding: JSONCoding(dates: .iso8601), isKey: false)"#,
            #"request.addQuery("filter[created_at]", filter?.createdAt, isKey: false)"#,
            #"request.addQuery("filter[kind]", filter?.kind, isKey: false)"#,
            #"request.addQuery("page[size]", page.size, isKey: false)"#,
            #"request.addQuery("page[after]", page.after, isKey: false)"#,
        ] {
            #expect(source.contains(call), "\(call)")
        }
    }

    @Test func callbacksAndWebhooksAreLeftOut() {
        let paths = """
            "/subscribe": { "post": { "operationId": "subscribe",
              "callbacks": { "onEvent": {} },
              "responses": { "201": { "description": "ok" } } } }
            """
        let document = Support.document(paths: paths, extra: "\n  \"webhooks\": {},", version: "3.1.0")
        let output = Support.generate(["api.json": document], main: "api.json")
        #expect(
            Support.messages(output) == [
                "api.json:4:3: warning: \"webhooks\" are left out: they are requests the server makes, not calls the app makes",
                "api.json:6:3: warning: callbacks of operation \"subscribe\" are left out: they are requests the server makes, not calls the app makes",
            ])
    }

    @Test func operationsThatAreNotJSONAreLeftOutByName() {
        let paths = """
            "/upload": { "post": { "operationId": "upload",
              "requestBody": { "required": true, "content": { "application/xml": { "schema": { "type": "object" } } } },
              "responses": { "204": { "description": "ok" } } },
              "get": { "operationId": "download",
              "responses": { "200": { "description": "ok", "content": { "application/xml": {} } } } } }
            """
        let output = Support.generate(["api.json": Support.document(paths: paths)], main: "api.json")
        #expect(
            Support.messages(output) == [
                "api.json:5:3: warning: operation \"upload\" is left out: its request body is only application/xml",
            ])
        #expect(output.source?.contains("func upload") == false)
        #expect(output.source?.contains("func download(policy: CachePolicy?) async throws -> CachedValue<Data>") == true)
    }

    /// A media type is document text: one with a line break or a quote (or over 60 bytes) is
    /// quoted and escaped, so the message stays on one line (found by fuzzing: a Swagger 2.0
    /// `consumes` entry that was a block of prose); one with parameters is shown as it is.
    @Test func aMediaTypeThatIsNotPlainTextIsQuotedOnOneLine() {
        let paths = #"""
            "/upload": { "post": { "operationId": "upload",
              "requestBody": { "required": true, "content": { "application/x\nSed \"tempus\"": { "schema": { "type": "object" } }, "application/xml; charset=utf-8": {} } },
              "responses": { "204": { "description": "ok" } } } }
            """#
        let output = Support.generate(["api.json": Support.document(paths: paths)], main: "api.json")
        #expect(
            Support.messages(output) == [
                #"api.json:5:3: warning: operation "upload" is left out: its request body is only "application/x\nSed \"tempus\"", application/xml; charset=utf-8"#
            ])
    }

    @Test func schemasThatCannotBeMappedFaithfullyAreNamed() {
        let schemas = """
            "Shape": { "oneOf": [{ "type": "string" }, { "type": "integer" }] },
            "Thing": { "type": "object", "properties": { "extra": { "type": "object" }, "size": { "type": ["integer", "string"] } } },
            "Loop": { "type": "array", "items": { "$ref": "#/components/schemas/Loop" } }
            """
        let output = Support.generate(["api.json": Support.document(paths: "", schemas: schemas)], main: "api.json")
        #expect(
            Support.messages(output) == [
                "api.json:1:1: warning: the document has no operations to generate a client from; only its schemas become models",
                "api.json:7:1: warning: schema \"Loop\" is left out: it is a schema that contains itself with no object in between",
            ])
        // A oneOf without a discriminator is a union; a free-form object and a value of several types are any JSON.
        let source = output.source ?? ""
        #expect(source.contains("public indirect enum Shape: Codable, Sendable, Equatable {\n    case string(String)\n    case integer(Int)\n"))
        #expect(source.contains("public var extra: JSONValue?\n    public var size: JSONValue?\n"))
    }

    /// A `$ref` to nothing is the document's flaw: a warning with a suggestion, the value
    /// kept as any JSON, and everything generated.
    @Test func brokenReferencesAreWarningsWithASuggestion() {
        let paths = Self.getThing.replacingOccurrences(of: "schemas/Thing", with: "schemas/Thng")
        let output = Support.generate(["api.json": Support.document(paths: paths, schemas: Self.thing)], main: "api.json")
        #expect(
            Support.messages(output) == [
                "api.json:6:103: warning: $ref \"#/components/schemas/Thng\" points to nothing: \"Thng\" is not there, so the value is read as any JSON (JSONValue); did you mean \"Thing\"?"
            ])
        #expect(output.source?.contains("-> CachedValue<JSONValue>") == true)
    }

    /// Every kind of `$ref` to nothing keeps its operation: a parameter is left out (nothing
    /// says what it is), a request body and a response are any JSON; and a parameter with
    /// neither `schema` nor `content` (as Swagger 2 conversions write them) is text.
    @Test func brokenReferencesKeepTheirOperations() {
        let paths = """
            "/things/{id}": { "post": { "operationId": "updateThing",
              "parameters": [{ "$ref": "#/components/parameters/Gone" }, { "name": "id", "in": "path", "required": true }],
              "requestBody": { "$ref": "#/components/requestBodies/Gone" },
              "responses": { "200": { "$ref": "#/components/responses/Gone" } } } }
            """
        let output = Support.generate(["api.json": Support.document(paths: paths)], main: "api.json")
        #expect(
            Support.messages(output) == [
                "api.json:5:28: warning: $ref \"#/components/parameters/Gone\" points to nothing: \"parameters\" is not there, so the parameter is left out of operation \"updateThing\"",
                "api.json:6:28: warning: $ref \"#/components/requestBodies/Gone\" points to nothing: \"requestBodies\" is not there, so the request body of operation \"updateThing\" is sent as any JSON (JSONValue)",
                "api.json:7:35: warning: $ref \"#/components/responses/Gone\" points to nothing: \"responses\" is not there, so the response of operation \"updateThing\" is read as any JSON (JSONValue)",
            ])
        #expect(output.source?.contains("func updateThing(id: String, body: JSONValue) async throws -> JSONValue") == true)
    }

    @Test func cyclesOfReferencesEnd() {
        let schemas = """
            "A": { "$ref": "#/components/schemas/B" },
            "B": { "$ref": "#/components/schemas/A" }
            """
        let output = Support.generate(["api.json": Support.document(paths: "", schemas: schemas)], main: "api.json")
        #expect(
            Support.messages(output) == [
                "api.json:1:1: warning: the document has no operations to generate a client from; only its schemas become models",
                "api.json:5:46: warning: $ref \"#/components/schemas/B\" refers to itself (it leads through more than 64 references), so the value is read as any JSON (JSONValue)",
                "api.json:6:16: warning: $ref \"#/components/schemas/A\" refers to itself (it leads through more than 64 references), so the value is read as any JSON (JSONValue)",
            ])
    }

    @Test func filesNextToTheDocument() {
        let paths = Self.getThing.replacingOccurrences(of: "#/components/schemas/Thing", with: "models/common.json#/Thing")
        let files = [
            "spec/api.json": Support.document(paths: paths, schemas: "\"Gone\": { \"$ref\": \"missing.json\" }"),
            "spec/models/common.json": "{ \"Thing\": { \"type\": \"object\", \"properties\": { \"owner\": { \"$ref\": \"Owner.json\" } } } }",
            "spec/models/Owner.json": "{ \"type\": \"object\", \"properties\": { \"name\": { \"type\": \"string\" } } }",
        ]
        let output = Support.generate(files, main: "spec/api.json")
        #expect(
            Support.messages(output) == [
                "spec/api.json:7:49: warning: cannot read \"missing.json\", which a $ref names, so the value is read as any JSON (JSONValue); put it next to the document"
            ])
        let fixed = files.merging(["spec/missing.json": "{ \"type\": \"string\" }"]) { $1 }
        let source = Support.generate(fixed, main: "spec/api.json").source ?? ""
        #expect(source.contains("public struct Thing: Codable"))
        #expect(source.contains("public var owner: Owner?"))
        #expect(source.contains("public struct Owner: Codable"))
    }

    /// A Swagger 2.0 document is read (`OpenAPISwagger2Tests`); other YAML is named.
    @Test func swaggerTwoIsReadAndOtherYAMLIsNamed() {
        let swagger = Support.generate(["old.yaml": "swagger: \"2.0\"\ninfo: {title: x}\n"], main: "old.yaml")
        #expect(
            Support.messages(swagger) == [
                "old.yaml:1:1: warning: the document has no operations to generate a client from; only its schemas become models"
            ])
        let other = Support.generate(["list.yaml": "items: [1, 2]\n"], main: "list.yaml")
        #expect(
            Support.messages(other) == [
                "list.yaml:1:1: error: this YAML file is not an OpenAPI document (it has no \"openapi\" key); cachegen reads OpenAPI documents, overlays and *.cachegen.json specs"
            ])
    }
}
