import CacheGenCore
import Foundation
import Testing

/// An overlay's `include` and `exclude`: by tag, operationId or path prefix, exact located
/// errors in the document's words, and that only the chosen operations and the models they
/// reach are generated.
@Suite struct OpenAPISelectionTests {
    /// Pets (tagged `pets`, one also `store`), an order (tagged `store`) and an XML export
    /// that is left out; `Owner` is reached only through `Pet`, `Order` only through orders.
    static let document = OpenAPITestSupport.document(
        paths: #"""
            "/pets": { "get": { "operationId": "listPets", "tags": ["pets"],
              "responses": { "200": { "description": "ok", "content": { "application/json": { "schema": { "type": "array", "items": { "$ref": "#/components/schemas/Pet" } } } } } } } },
            "/pets/{id}": { "get": { "operationId": "getPet", "tags": ["pets", "store"],
              "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "string" } }],
              "responses": { "200": { "description": "ok", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Pet" } } } } } } },
            "/orders": { "get": { "operationId": "listOrders", "tags": ["store"],
              "responses": { "200": { "description": "ok", "content": { "application/json": { "schema": { "type": "array", "items": { "$ref": "#/components/schemas/Order" } } } } } } } },
            "/export": { "trace": { "operationId": "exportAll", "tags": ["admin"],
              "responses": { "200": { "description": "ok", "content": { "application/xml": { "schema": { "type": "string" } } } } } } }
            """#,
        schemas: #"""
            "Pet": { "type": "object", "required": ["id"], "properties": { "id": { "type": "string" }, "owner": { "$ref": "#/components/schemas/Owner" } } },
            "Owner": { "type": "object", "properties": { "name": { "type": "string" } } },
            "Order": { "type": "object", "properties": { "number": { "type": "integer" } } }
            """#)

    /// Generates from an overlay whose members after `openapi` are `members`.
    static func output(_ members: String, document: String = document) -> Generator.Output {
        let overlay = """
            {
              "openapi": "api.json"\(members.isEmpty ? "" : ",\n  " + members)
            }
            """
        return OpenAPITestSupport.generate(["Api.cachegen.json": overlay, "api.json": document], main: "Api.cachegen.json")
    }

    /// The generated models and repository methods, sorted; fails when there are errors.
    static func generated(_ members: String) throws -> [String] {
        let output = output(members)
        let source = try #require(output.source, "\(output.diagnostics)")
        return source.split(separator: "\n").compactMap { line -> String? in
            if line.hasPrefix("public struct "), !line.contains("Repository") {
                return String(line.split(separator: " ")[2].prefix { $0 != ":" })
            }
            guard line.hasPrefix("    func "), !line.contains("Stream(") else { return nil }
            return String(line.dropFirst("    func ".count).prefix { $0 != "(" })
        }.sorted()
    }

    /// The diagnostics' messages without the warning every run has for the XML export.
    static func messages(_ members: String) -> [String] {
        OpenAPITestSupport.messages(output(members)).filter { !$0.contains("\"exportAll\" is left out") }
    }

    @Test func everythingWithoutASelection() throws {
        #expect(try Self.generated("") == ["Order", "Owner", "Pet", "getPet", "listOrders", "listPets"])
    }

    @Test func aTagTakesEveryOperationCarryingIt() throws {
        // `getPet` carries `store` second, and stays in the pets repository.
        #expect(try Self.generated(#""include": { "tags": ["store"] }"#) == ["Order", "Owner", "Pet", "getPet", "listOrders"])
        #expect(try Self.generated(#""exclude": { "tags": ["store"] }"#) == ["Owner", "Pet", "listPets"])
    }

    @Test func operationsAndPathsThenExclude() throws {
        #expect(try Self.generated(#""include": { "operations": ["listOrders"] }"#) == ["Order", "listOrders"])
        #expect(
            try Self.generated(#""include": { "paths": ["/pets"] }, "exclude": { "operations": ["listPets"] }"#)
                == ["Owner", "Pet", "getPet"])
    }

    @Test func unknownNamesAreLocatedInTheOverlayWithASuggestion() {
        let members = #"""
            "include": { "tags": ["pet", "PetsRepository", "zzzzzzzz"], "operations": ["listPet", "exportAll"] },
              "exclude": { "paths": ["/pet", "orders"], "repositories": [] }
            """#
        #expect(
            Self.messages(members) == [
                #"Api.cachegen.json:3:25: error: "include" names the tag "pet", which no operation of api.json has; did you mean "pets"?"#,
                #"Api.cachegen.json:3:32: error: "include" names the tag "PetsRepository", which no operation of api.json has; did you mean "pets"?"#,
                #"Api.cachegen.json:3:50: error: "include" names the tag "zzzzzzzz", which no operation of api.json has; the document's tags are "pets", "store", "admin""#,
                #"Api.cachegen.json:3:78: error: "include" names "listPet", which is not an operation of api.json; did you mean "listPets"?"#,
                #"Api.cachegen.json:3:89: warning: "include" names "exportAll", which is left out (see the warning in api.json)"#,
                #"Api.cachegen.json:4:26: error: "exclude" path "/pet" starts no operation's path in api.json; did you mean "/pets"?"#,
                #"Api.cachegen.json:4:34: error: "exclude" path "orders" must start with "/", as endpoint paths do"#,
                #"Api.cachegen.json:4:45: error: unknown key "repositories" in "exclude"; valid keys are "tags", "operations", "paths""#,
            ])
    }

    @Test func aSelectionThatLeavesNothingIsAnError() {
        #expect(
            Self.messages(#""include": { "tags": ["store"] }, "exclude": { "paths": ["/orders", "/pets/{id}"] }"#) == [
                #"Api.cachegen.json:3:14: error: "include" and "exclude" leave no endpoint to generate; include more or exclude less"#
            ])
        // Naming only an operation that is left out leaves nothing too.
        #expect(
            Self.messages(#""include": { "operations": ["exportAll"] }"#) == [
                #"Api.cachegen.json:3:14: error: "include" and "exclude" leave no endpoint to generate; include more or exclude less"#,
                #"Api.cachegen.json:3:31: warning: "include" names "exportAll", which is left out (see the warning in api.json)"#,
            ])
    }

    /// A real document: two of link-example.yaml's six operations, and only the two models
    /// they reach (a repository's owner is a user; pull requests are not reached).
    @Test func twoOperationsOfARealDocument() throws {
        let folder = OpenAPIRealDocumentTests.documentsFolder.path
        let document = try String(contentsOfFile: folder + "/link-example.yaml", encoding: .utf8)
        let overlay = #"{ "openapi": "link-example.yaml", "include": { "operations": ["getUserByName", "getRepositoriesByOwner"] } }"#
        let whole = #"{ "openapi": "link-example.yaml" }"#
        let all = OpenAPITestSupport.generate(["Link.cachegen.json": whole, "link-example.yaml": document], main: "Link.cachegen.json")
        let output = OpenAPITestSupport.generate(["Link.cachegen.json": overlay, "link-example.yaml": document], main: "Link.cachegen.json")
        #expect(output.diagnostics.isEmpty, "\(output.diagnostics)")
        let full = try #require(all.source), chosen = try #require(output.source)
        #expect(full.contains("public struct Pullrequest:") && full.contains("func mergePullRequest("))
        let declarations = chosen.split(separator: "\n").filter { $0.hasPrefix("public struct ") || $0.hasPrefix("    func ") }
        #expect(
            declarations.map { String($0) }.sorted() == [
                "public struct LiveLinkExampleRepository: LinkExampleRepository {",
                "public struct MockLinkExampleRepository: LinkExampleRepository {",
                "public struct Repository: Codable, Sendable, Equatable {",
                "public struct User: Codable, Sendable, Equatable {",
                "    func getRepositoriesByOwner(username: String, policy: CachePolicy?) async throws -> CachedValue<[Repository]>",
                "    func getRepositoriesByOwnerStream(username: String) -> AsyncThrowingStream<CachedValue<[Repository]>, any Error>",
                "    func getUserByName(username: String, policy: CachePolicy?) async throws -> CachedValue<User>",
                "    func getUserByNameStream(username: String) -> AsyncThrowingStream<CachedValue<User>, any Error>",
            ].sorted())
    }

    /// What `include`/`exclude` leave out is neither checked nor warned about, and a flaw in
    /// it (here a `$ref` to a missing file) never blocks the rest.
    @Test func theSelectionNarrowsWhatIsChecked() {
        let document = OpenAPITestSupport.document(
            paths: #"""
                "/pets": { "get": { "operationId": "listPets", "tags": ["pets"],
                  "parameters": [{ "name": "q", "in": "cookie", "schema": { "type": "string" } }],
                  "responses": { "200": { "description": "ok", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Pet" } } } } } } },
                "/broken": { "get": { "$ref": "missing.yaml" } },
                "/admin": { "get": { "operationId": "admin", "tags": ["admin"],
                  "responses": { "200": { "description": "ok", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Odd" } } } } } } }
                """#,
            schemas: #"""
                "Pet": { "type": "object", "properties": { "name": { "type": "string" } } },
                "Odd": { "type": "object", "properties": { "list": { "type": "array" } } },
                "Unused": { "anyOf": [{ "type": "string" }, { "type": "integer" }] }
                """#)
        let whole = OpenAPITestSupport.generate(["Api.cachegen.json": #"{ "openapi": "api.json" }"#, "api.json": document], main: "Api.cachegen.json")
        #expect(
            OpenAPITestSupport.messages(whole) == [
                "api.json:5:28: warning: cookie parameter \"q\" of operation \"listPets\" is left out: send cookies through the client's headers provider",
                "api.json:7:31: warning: cannot read \"missing.yaml\", which a $ref names, so operation GET \"/broken\" is left out; put it next to the document",
                "api.json:11:1: warning: model \"Odd\" has no properties",
                "api.json:11:44: warning: property \"list\" of \"Odd\" is left out: it is an array without \"items\"",
            ])
        #expect(whole.files != nil)
        for members in [#""include": { "tags": ["pets"] }"#, #""exclude": { "paths": ["/broken", "/admin"] }"#] {
            let output = Self.output(members, document: document)
            #expect(
                OpenAPITestSupport.messages(output) == [
                    "api.json:5:28: warning: cookie parameter \"q\" of operation \"listPets\" is left out: send cookies through the client's headers provider"
                ], "\(members)")
            #expect(output.source?.contains("func listPets(policy: CachePolicy?)") == true)
            #expect(output.source?.contains("Odd") == false)
        }
    }
}
