import Foundation
import Testing

@testable import CacheGenCore
@testable import CacheGenOpenAPI
@testable import CacheGenSpec

/// A name someone else's document gives never stops generation: a wire name with no letter
/// or digit is spelled out, names that become one Swift name are told apart, long names are
/// shortened, an overlay's `names` chooses others, and paths with a fixed query or a
/// fragment are called as written. Every warning word for word.
@Suite struct OpenAPINamingTests {
    typealias Support = OpenAPITestSupport

    static let ok = #""responses": { "204": { "description": "ok" } }"#

    @Test func namesWithNoLetterOrDigit() {
        // PagerDuty's shape: a property named "".
        let paths = """
            "/incidents": { "get": { "operationId": "-",
              "parameters": [
                { "name": "+", "in": "query", "schema": { "type": "string" } },
                { "name": "é", "in": "header", "schema": { "type": "string" } }],
              "responses": { "200": { "description": "ok", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Incident" } } } } } } }
            """
        let schemas = """
            "Incident": { "type": "object", "properties": {
              "": { "type": "string" },
              "-": { "type": "integer" },
              "id": { "type": "string" } } }
            """
        let output = Support.generate(["api.json": Support.document(paths: paths, schemas: schemas)], main: "api.json")
        let operation = #"to choose another, add "names": { "operations": { "-": "…" } } to the overlay"#
        let parameter = #"to choose another, add "names": { "parameters": { "-": { "+": "…" } } } to the overlay"#
        let header = #"to choose another, add "names": { "parameters": { "-": { "é": "…" } } } to the overlay"#
        let empty = #"to choose another, add "names": { "properties": { "Incident": { "": "…" } } } to the overlay"#
        let minus = #"to choose another, add "names": { "properties": { "Incident": { "-": "…" } } } to the overlay"#
        #expect(
            Support.messages(output) == [
                "api.json:4:53: warning: operation \"-\" has no letter or digit to make a Swift name from, so its method is getIncidents; \(operation)",
                "api.json:6:15: warning: query parameter \"+\" of operation \"-\" has no letter or digit to make a Swift name from, so it is the argument plus; \(parameter)",
                "api.json:7:15: warning: header parameter \"é\" of operation \"-\" has no letter or digit to make a Swift name from, so it is the argument u00E9; \(header)",
                "api.json:10:3: warning: property \"\" of \"Incident\" has no letter or digit to make a Swift name from, so it is named empty; \(empty)",
                "api.json:11:3: warning: property \"-\" of \"Incident\" has no letter or digit to make a Swift name from, so it is named minus; \(minus)",
            ])
        let source = output.source ?? ""
        #expect(source.contains("func getIncidents(plus: String?, u00E9: String?, policy: CachePolicy?)"))
        // The wire names are kept.
        #expect(source.contains(#"self.empty = try container.decodeIfPresent(String.self, forKey: WireKey(""))"#))
        #expect(source.contains(#"addQuery("+", plus"#))
        #expect(source.contains("public var empty: String?"))
        #expect(source.contains("public var minus: Int?"))
    }

    @Test func namesThatCollideAreToldApart() {
        // Twilio's shape: a filter and its range, and two spellings of one name.
        let paths = """
            "/calls": { "get": { "operationId": "listCall",
              "parameters": [
                { "name": "StartTime>", "in": "query", "schema": { "type": "string" } },
                { "name": "StartTime", "in": "query", "schema": { "type": "string" } },
                { "name": "StartTime<", "in": "query", "schema": { "type": "string" } },
                { "name": "Price<=", "in": "query", "schema": { "type": "number" } },
                { "name": "Price>=", "in": "query", "schema": { "type": "number" } },
                { "name": "page_size", "in": "query", "schema": { "type": "integer" } },
                { "name": "PageSize", "in": "query", "required": true, "schema": { "type": "integer" } }],
              \(Self.ok) } },
            "/calls/{id}": { "get": { "operationId": "list_call", \(Self.ok) } }
            """
        let schemas = """
            "Call": { "type": "object", "properties": { "page_size": { "type": "integer" }, "pageSize": { "type": "string" } } }
            """
        let output = Support.generate(["api.json": Support.document(paths: paths, schemas: schemas)], main: "api.json")
        #expect(
            Support.messages(output) == [
                "api.json:11:15: warning: query parameter \"page_size\" of operation \"listCall\" becomes the argument pageSize like another parameter, so it is pageSize2; to choose another, add \"names\": { \"parameters\": { \"listCall\": { \"page_size\": \"…\" } } } to the overlay",
                "api.json:14:42: warning: operation \"list_call\" becomes the method listCall like an earlier operation, so it is listCall2; to choose another, add \"names\": { \"operations\": { \"list_call\": \"…\" } } to the overlay",
                "api.json:15:111: warning: property \"pageSize\" of \"Call\" becomes pageSize in Swift like an earlier property, so it is named pageSize2; to choose another, add \"names\": { \"properties\": { \"Call\": { \"pageSize\": \"…\" } } } to the overlay",
            ])
        let source = output.source ?? ""
        #expect(
            source.contains(
                """
                    func listCall(
                        startTimeAfter: String?,
                        startTime: String?,
                        startTimeBefore: String?,
                        priceOnOrBefore: Double?,
                        priceOnOrAfter: Double?,
                        pageSize2: Int?,
                        pageSize: Int
                    ) async throws
                """))
        #expect(source.contains(#"addQuery("StartTime>", startTimeAfter"#))
        #expect(source.contains("func listCall2(id: String) async throws"))
    }

    @Test func longNamesAreShortenedApart() {
        let long = String(repeating: "listEveryIncomingPhoneNumberAssignedAddOn", count: 2)
        let paths = """
            "/a": { "get": { "operationId": "\(long)Extension", \(Self.ok) } },
            "/b": { "get": { "operationId": "\(long)Extensions", \(Self.ok) } }
            """
        let output = Support.generate(["api.json": Support.document(paths: paths)], main: "api.json")
        #expect(Support.messages(output) == [])
        let first = OpenAPINames.shortened(long + "Extension")
        let second = OpenAPINames.shortened(long + "Extensions")
        #expect(first.count <= OpenAPINames.maximumLength && second.count <= OpenAPINames.maximumLength)
        #expect(first != second)
        #expect(first.hasPrefix("listEveryIncomingPhoneNumberAssignedAddOnlistEvery"))
        #expect(SwiftNaming.memberName(first) == first)
        #expect(OpenAPINames.shortened("short") == "short")
        let source = output.source ?? ""
        #expect(source.contains("func \(first)() async throws") && source.contains("func \(second)() async throws"))
    }

    @Test func theOverlayRenames() {
        let paths = """
            "/calls": { "get": { "operationId": "listCall",
              "parameters": [{ "name": "DateCreated<", "in": "query", "schema": { "type": "string" } }],
              "responses": { "200": { "description": "ok", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Call" } } } } } } }
            """
        let schemas = """
            "Call": { "type": "object", "properties": { "": { "type": "string" } } }
            """
        let overlay = """
            {
              "openapi": "api.json",
              "names": {
                "operations": { "listCall": "calls", "nothing": "x" },
                "parameters": { "listCall": { "DateCreated<": "createdBefore", "Other": "other" } },
                "properties": { "Call": { "": "summary" }, "Nope": { "a": "Not a name" } },
                "types": {}
              }
            }
            """
        let output = Support.generate(
            ["Api.cachegen.json": overlay, "api.json": Support.document(paths: paths, schemas: schemas)], main: "Api.cachegen.json")
        #expect(
            Support.messages(output) == [
                "Api.cachegen.json:4:42: warning: \"names\" renames operation \"nothing\", which api.json does not generate; the rename has no effect",
                "Api.cachegen.json:5:68: warning: \"names\" renames parameter \"Other\" of operation \"listCall\", which api.json does not generate; the rename has no effect",
                "Api.cachegen.json:6:63: error: \"Not a name\" is not a Swift name cachegen can use; write one such as \"createdBefore\" (letters and digits, starting with a lower-case letter)",
                "Api.cachegen.json:7:5: error: unknown key \"types\" in \"names\"; valid keys are \"operations\", \"parameters\", \"properties\"",
            ])
        let fixed = overlay.replacingOccurrences(of: #", "Nope": { "a": "Not a name" }"#, with: "")
            .replacingOccurrences(of: ",\n    \"types\": {}", with: "")
        let renamed = Support.generate(
            ["Api.cachegen.json": fixed, "api.json": Support.document(paths: paths, schemas: schemas)], main: "Api.cachegen.json")
        #expect(!renamed.hasErrors, "\(renamed.diagnostics)")
        let source = renamed.source ?? ""
        #expect(source.contains("func calls(createdBefore: String?, policy: CachePolicy?)"))
        #expect(source.contains("public var summary: String?"))
        // The cache's name for the endpoint stays the operationId.
        #expect(source.contains(#"name: "ThingsAPIRepository.listCall","#))
    }

    @Test func pathsWithAFixedQueryOrAFragment() {
        // OpenAI's `?beta=true` and Box's `#get_shared_link`.
        let paths = """
            "/responses?beta=true&mode=a%20b": { "post": { "operationId": "createResponse", \(Self.ok) } },
            "/folders/{folder_id}#get_shared_link": { "get": { \(Self.ok) } },
            "/folders/{folder_id}#add_shared_link": { "get": { \(Self.ok) } }
            """
        let output = Support.generate(["api.json": Support.document(paths: paths)], main: "api.json")
        #expect(Support.messages(output) == [])
        let source = output.source ?? ""
        #expect(source.contains(#"EndpointRequest(method: "POST", path: "/responses")"#))
        #expect(source.contains(#"request.addQuery("beta", "true", isKey: false)"#))
        #expect(source.contains(#"request.addQuery("mode", "a b", isKey: false)"#))
        #expect(source.contains("func getFoldersByFolderIdGetSharedLink(folderId: String) async throws"))
        #expect(source.contains("func getFoldersByFolderIdAddSharedLink(folderId: String) async throws"))
        #expect(source.contains(#"EndpointRequest(method: "GET", path: "/folders/{folder_id}")"#))
        #expect(!source.contains("#get_shared_link\""))
    }
}
