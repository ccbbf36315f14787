import CacheGenCore
import Foundation
import Testing

@testable import CacheGenOpenAPI
@testable import CacheGenReading
import GeneratorTestSupport

private typealias Support = OpenAPITestSupport

/// Swagger 2.0 read as it is: each 2.0 construct maps to what its 3.0 form maps to, what has
/// no 3.0 form is a warning at the place in the 2.0 file, and overlays work the same.
@Suite struct OpenAPISwagger2Tests {
    /// A 2.0 document with every construct the conversion moves, and a file its `$ref`s name.
    static let files: [String: String] = [
        "api/pets.yaml": """
            swagger: "2.0"
            info: {title: Pet Store, version: "1"}
            host: pets.example.com
            basePath: /v2
            schemes: [http, https]
            consumes: [application/json]
            produces: [application/json]
            securityDefinitions:
              basicAuth: {type: basic}
              key: {type: apiKey, name: X-Key, in: header}
              oauth: {type: oauth2, flow: accessCode, authorizationUrl: "https://example.com/auth", tokenUrl: "https://example.com/token", scopes: {read: Read}}
            parameters:
              limit: {name: limit, in: query, type: integer, format: int32}
              petBody: {name: pet, in: body, required: true, schema: {$ref: "#/definitions/Pet"}}
            responses:
              Found: {description: found, schema: {$ref: "#/definitions/Pet"}}
            paths:
              /pets:
                get:
                  operationId: listPets
                  parameters:
                    - $ref: "#/parameters/limit"
                    - {$ref: "common.yaml#/parameters/sort"}
                    - {name: tags, in: query, type: array, items: {type: string}}
                    - {name: ids, in: query, type: array, items: {type: integer}, collectionFormat: multi}
                    - {name: words, in: query, type: array, items: {type: string}, collectionFormat: ssv}
                    - {name: kinds, in: query, type: array, items: {type: string}, collectionFormat: pipes}
                    - {name: X-Trace, in: header, type: array, items: {type: string}, collectionFormat: csv}
                  responses:
                    "200": {description: ok, schema: {type: array, items: {$ref: "#/definitions/Pet"}}}
                post:
                  operationId: addPet
                  parameters: [{$ref: "#/parameters/petBody"}]
                  responses:
                    "201": {description: made, schema: {$ref: "#/definitions/Pet"}}
              /pets/{id}:
                parameters:
                  - {name: id, in: path, required: true, type: integer, format: int64}
                get:
                  operationId: getPet
                  responses:
                    "200": {$ref: "#/responses/Found"}
              /owners/{id}:
                get:
                  operationId: getOwner
                  produces: ["*/*"]
                  parameters:
                    - {name: id, in: path, required: true, type: string}
                  responses:
                    "200": {description: ok, schema: {$ref: "common.yaml#/definitions/Owner"}}
              /pets/{id}/photo:
                parameters:
                  - {name: id, in: path, required: true, type: integer}
                post:
                  operationId: uploadPhoto
                  consumes: [multipart/form-data]
                  parameters:
                    - {name: file, in: formData, required: true, type: file}
                    - {name: caption, in: formData, type: string}
                  responses:
                    "204": {description: done}
                get:
                  operationId: getPhoto
                  produces: [image/png]
                  responses:
                    "200": {description: the photo, schema: {type: file}}
              /pets/{id}/notes:
                put:
                  operationId: setNotes
                  consumes: [application/x-www-form-urlencoded]
                  parameters:
                    - {name: id, in: path, required: true, type: integer}
                    - {name: note, in: formData, required: true, type: string}
                    - {name: labels, in: formData, type: array, items: {type: string}, collectionFormat: pipes}
                  responses:
                    "204": {description: done}
            definitions:
              Pet:
                type: object
                required: [name, tag]
                discriminator: name
                properties:
                  name: {type: string}
                  tag: {type: string, x-nullable: true}
                  owner: {$ref: "common.yaml#/definitions/Owner"}
            """,
        "api/common.yaml": """
            parameters:
              sort: {name: sort, in: query, type: array, items: {type: string}, collectionFormat: pipes}
            definitions:
              Owner:
                type: object
                required: [name]
                properties:
                  name: {type: string}
                  pets: {type: array, items: {$ref: "#/definitions/Pet"}}
              Pet:
                type: object
                properties:
                  since: {type: string, format: date-time}
            """,
    ]

    /// Each 2.0 construct becomes what its 3.0 form becomes: servers, parameters and their
    /// collection formats, body, form and multipart bodies, file responses, `x-nullable`,
    /// `$ref`s to top-level parameters, responses and definitions, in this file and another.
    @Test func everyConstructMapsAsItsOpenAPI3Form() throws {
        let output = Support.generate(Self.files, main: "api/pets.yaml")
        #expect(Support.messages(output) == [])
        let source = try #require(output.source)
        // host, basePath and schemes (https first).
        #expect(source.contains("/// The spec's server: https://pets.example.com/v2\n"))
        // A parameter's type, a top-level parameter, one in another file; collectionFormat as
        // style: csv (2.0's default) is cachegen's own comma-joined way.
        #expect(source.contains(#"request.addQuery("limit", limit, isKey: true)"#))
        #expect(source.contains(#"request.addQuery("sort", sort, style: .pipeDelimited, isKey: true)"#))
        #expect(source.contains(#"request.addQuery("tags", tags, isKey: true)"#))
        #expect(source.contains(#"request.addQuery("ids", ids, style: .repeated, isKey: true)"#))
        #expect(source.contains(#"request.addQuery("words", words, style: .spaceDelimited, isKey: true)"#))
        #expect(source.contains(#"request.addQuery("kinds", kinds, style: .pipeDelimited, isKey: true)"#))
        #expect(source.contains(#"request.addHeader("X-Trace", xTrace, isKey: false)"#))
        #expect(source.contains("func getPet(id: Int, policy: CachePolicy?) async throws -> CachedValue<Pet>\n"))
        // in: body, through a top-level parameter.
        #expect(source.contains("func addPet(body: Pet) async throws -> Pet\n"))
        #expect(source.contains("request.setJSONBody(body, isKey: false)"))
        // in: formData with a file: multipart; without: a form, with its collectionFormat.
        #expect(source.contains("public struct UploadPhotoRequest: Codable, Sendable, Equatable {\n    public var file: MultipartFile\n    public var caption: String?\n"))
        #expect(source.contains("request.setMultipartBody(body, isKey: false)"))
        #expect(source.contains("public struct SetNotesRequest: Codable, Sendable, Equatable {\n    public var note: String\n    public var labels: [String]?\n"))
        #expect(source.contains(#"fields: [BodyField("labels", style: .pipeDelimited, explode: false)],"#))
        // type: file responses are bytes, with the Accept that produces names.
        #expect(source.contains("func getPhoto(id: Int, policy: CachePolicy?) async throws -> CachedValue<Data>\n"))
        #expect(source.contains(#"accept: "image/png""#))
        // produces */* with a schema: JSON.
        #expect(source.contains("func getOwner(id: String, policy: CachePolicy?) async throws -> CachedValue<Owner>\n"))
        // x-nullable on a required property; definitions in another file, with their own Pet.
        #expect(source.contains("public struct Pet: Codable, Sendable, Equatable {\n    public var name: String\n    public var tag: String?\n    public var owner: Owner?\n"))
        #expect(source.contains("public struct Owner: Codable, Sendable, Equatable {\n    public var name: String\n    public var pets: [Pet2]?\n"))
        #expect(source.contains("public struct Pet2: Codable, Sendable, Equatable {\n    public var since: Date?\n"))
    }

    /// The converted tree: securityDefinitions as securitySchemes, the discriminator as an
    /// object, components where 3.0 keeps them, each node where the 2.0 file has it.
    @Test func theTreeIsOpenAPI3WithTheOriginalLocations() throws {
        let text = try #require(Self.files["api/pets.yaml"])
        let root = try OpenAPISource.parse(Data(text.utf8), file: "api/pets.yaml")
        let files = Self.files
        let conversion = Swagger2Document.converted(root, file: "api/pets.yaml") { files[$0].map { Data($0.utf8) } }
        let converted = conversion.document
        #expect(conversion.diagnostics.isEmpty)
        #expect(converted["openapi"]?.value.stringValue == "3.0.3")
        #expect(converted["swagger"] == nil && converted["definitions"] == nil && converted["host"] == nil)
        let servers = converted["servers"]?.value.elements?.compactMap { $0["url"]?.value.stringValue }
        #expect(servers == ["https://pets.example.com/v2", "http://pets.example.com/v2"])
        let components = try #require(converted["components"]?.value)
        let schemes = try #require(components["securitySchemes"]?.value)
        #expect(schemes["basicAuth"]?.value["type"]?.value.stringValue == "http")
        #expect(schemes["basicAuth"]?.value["scheme"]?.value.stringValue == "basic")
        #expect(schemes["key"]?.value["in"]?.value.stringValue == "header")
        let flow = try #require(schemes["oauth"]?.value["flows"]?.value["authorizationCode"]?.value)
        #expect(flow["tokenUrl"]?.value.stringValue == "https://example.com/token")
        #expect(flow["authorizationUrl"]?.value.stringValue == "https://example.com/auth")
        #expect(flow["scopes"]?.value["read"]?.value.stringValue == "Read")
        let pet = try #require(components["schemas"]?.value["Pet"]?.value)
        #expect(pet["discriminator"]?.value["propertyName"]?.value.stringValue == "name")
        #expect(pet["properties"]?.value["tag"]?.value["nullable"]?.value.boolValue == true)
        #expect(pet["properties"]?.value["owner"]?.value["$ref"]?.value.stringValue == "common.yaml#/components/schemas/Owner")
        // The body parameter is no 3.0 parameter; the other one is, typed by `schema`.
        let parameters = try #require(components["parameters"]?.value)
        #expect(parameters["petBody"] == nil)
        #expect(parameters["limit"]?.value["schema"]?.value["format"]?.value.stringValue == "int32")
        // Locations stay in the 2.0 file: the request body is where the body parameter is.
        let post = try #require(converted["paths"]?.value["/pets"]?.value["post"]?.value)
        let body = try #require(post["requestBody"])
        #expect(body.value.location.description == "api/pets.yaml:14:12")
        #expect(body.value["content"]?.value["application/json"] != nil)
        let photo = try #require(converted["paths"]?.value["/pets/{id}/photo"]?.value["get"]?.value["responses"]?.value["200"]?.value)
        let file = try #require(photo["content"]?.value["image/png"]?.value["schema"]?.value)
        #expect(file["type"]?.value.stringValue == "string" && file["format"]?.value.stringValue == "binary")
        #expect(file.location.description == "api/pets.yaml:66:49")
    }

    /// A 2.0 document with what 3.0 cannot say.
    static let odd = """
        swagger: "2.0"
        info: {title: Odd, version: "1"}
        host: odd.example.com
        schemes: [wss]
        paths:
          /things/{ids}:
            get:
              operationId: getThings
              schemes: [https]
              parameters:
                - {name: ids, in: path, required: true, type: array, items: {type: string}, collectionFormat: multi}
                - {name: tabs, in: query, type: array, items: {type: string}, collectionFormat: tsv}
                - {name: one, in: query, type: string, collectionFormat: csv}
                - {name: grid, in: query, type: array, items: {type: array, items: {type: integer}, collectionFormat: pipes}}
                - {$ref: "#/parameters/nowhere"}
              responses:
                "200": {description: ok, schema: {type: string}}
            post:
              operationId: postThings
              consumes: [multipart/form-data]
              parameters:
                - {name: ids, in: path, required: true, type: array, items: {type: string}}
                - {name: parts, in: formData, type: array, items: {type: string}, collectionFormat: csv}
              responses:
                "204": {description: done}
            put:
              operationId: putThings
              parameters:
                - {name: ids, in: path, required: true, type: array, items: {type: string}}
                - {name: a, in: body, schema: {type: object}}
                - {name: b, in: body, schema: {type: string}}
                - {name: c, in: formData, type: string}
              responses:
                "204": {description: done}
        parameters:
          nowhere2: {name: x, in: query, type: string}
        securityDefinitions:
          odd: {type: oauth2, flow: device, tokenUrl: "https://example.com/token", scopes: {}}
        """

    /// What 3.0 cannot say is a warning where the 2.0 file says it, and the rest is generated.
    @Test func whatHasNoOpenAPI3FormIsALocatedWarning() throws {
        let output = Support.generate(["odd.yaml": Self.odd], main: "odd.yaml")
        #expect(
            Support.messages(output) == [
                "odd.yaml:4:10: warning: the schemes wss are not HTTP, which cachegen calls with, so the server is https://odd.example.com",
                "odd.yaml:9:7: warning: the schemes of operation \"getThings\" are ignored: OpenAPI 3 has no schemes of an operation, so it is called on the document's server",
                "odd.yaml:11:103: warning: the collectionFormat \"multi\" of path parameter \"ids\" is for query and form parameters only, so its values are sent joined by commas (csv)",
                "odd.yaml:12:89: warning: the collectionFormat \"tsv\" of query parameter \"tabs\" has no OpenAPI 3 style, so its values are sent joined by commas (csv)",
                "odd.yaml:13:48: warning: the collectionFormat of query parameter \"one\" is ignored: it says how an array is written, and the parameter is no array",
                "odd.yaml:14:111: warning: the collectionFormat \"pipes\" of the arrays inside query parameter \"grid\" has no OpenAPI 3 form, so it is ignored",
                "odd.yaml:15:18: warning: $ref \"#/parameters/nowhere\" points to nothing: \"nowhere\" is not there, so the parameter is left out of operation \"getThings\"; did you mean \"nowhere2\"?",
                "odd.yaml:23:93: warning: the collectionFormat \"csv\" of form parameter \"parts\" of operation \"postThings\" is not kept: a multipart body sends each value as a part of its own",
                "odd.yaml:30:11: warning: the body parameter \"a\" of operation \"putThings\" is left out: an operation has one body, and a later body parameter is it",
                "odd.yaml:32:11: warning: the form parameter \"c\" of operation \"putThings\" is left out: the operation has a body parameter, and Swagger 2.0 takes a body or form parameters, never both",
                "odd.yaml:38:29: warning: the OAuth 2 flow \"device\" of security scheme \"odd\" is not one of Swagger 2.0's (implicit, password, application, accessCode), so it is left out",
            ])
        let source = try #require(output.source)
        #expect(source.contains("func putThings(ids: [String], body: String) async throws"))
        #expect(source.contains(#"request.addQuery("tabs", tabs, isKey: true)"#))
    }

    /// An overlay that names a 2.0 document works as on a 3.0 one: its rules, its selection,
    /// and its mistakes pointing into the overlay.
    @Test func anOverlayOnASwagger2Document() throws {
        let overlay = """
            {
              "openapi": "api/pets.yaml",
              "defaults": { "cache": { "ttl": "2h" } },
              "include": { "operations": ["listPets", "getPet", "addPet"] },
              "operations": {
                "getPet": { "ttl": "server", "policy": "staleWhileRevalidate" },
                "addPet": { "invalidates": ["listPets"] },
                "getPett": { "ttl": "1m" }
              }
            }
            """
        let files = Self.files.merging(["Pets.cachegen.json": overlay]) { $1 }
        let output = Support.generate(files, main: "Pets.cachegen.json")
        #expect(
            Support.messages(output) == [
                "Pets.cachegen.json:8:5: error: \"operations\" names \"getPett\", which is not an operation of pets.yaml; did you mean \"getPet\"?"
            ])
        let fixed = files.merging(["Pets.cachegen.json": overlay.replacingOccurrences(of: ",\n    \"getPett\": { \"ttl\": \"1m\" }", with: "")]) { $1 }
        let good = Support.generate(fixed, main: "Pets.cachegen.json")
        #expect(Support.messages(good) == [])
        let source = try #require(good.source)
        #expect(source.contains("// Generated by cachegen from Pets.cachegen.json."))
        #expect(source.contains("invalidating: [Invalidation(Endpoints.listPets)]"))
        #expect(source.contains("ttlFromServer: true"))
        #expect(source.contains("policy: .staleWhileRevalidate"))
        #expect(!source.contains("uploadPhoto"))
    }

    /// An overlay that chooses some operations of a 2.0 document hears only about those:
    /// what converting the others found is not reported.
    @Test func anOverlayChoosingOperationsWarnsAboutThoseAlone() {
        let overlay = """
            { "openapi": "odd.yaml", "include": { "operations": ["getThings"] } }
            """
        let output = Support.generate(["odd.yaml": Self.odd, "Odd.cachegen.json": overlay], main: "Odd.cachegen.json")
        #expect(
            Support.messages(output) == [
                "odd.yaml:4:10: warning: the schemes wss are not HTTP, which cachegen calls with, so the server is https://odd.example.com",
                "odd.yaml:9:7: warning: the schemes of operation \"getThings\" are ignored: OpenAPI 3 has no schemes of an operation, so it is called on the document's server",
                "odd.yaml:11:103: warning: the collectionFormat \"multi\" of path parameter \"ids\" is for query and form parameters only, so its values are sent joined by commas (csv)",
                "odd.yaml:12:89: warning: the collectionFormat \"tsv\" of query parameter \"tabs\" has no OpenAPI 3 style, so its values are sent joined by commas (csv)",
                "odd.yaml:13:48: warning: the collectionFormat of query parameter \"one\" is ignored: it says how an array is written, and the parameter is no array",
                "odd.yaml:14:111: warning: the collectionFormat \"pipes\" of the arrays inside query parameter \"grid\" has no OpenAPI 3 form, so it is ignored",
                "odd.yaml:15:18: warning: $ref \"#/parameters/nowhere\" points to nothing: \"nowhere\" is not there, so the parameter is left out of operation \"getThings\"; did you mean \"nowhere2\"?",
                "odd.yaml:38:29: warning: the OAuth 2 flow \"device\" of security scheme \"odd\" is not one of Swagger 2.0's (implicit, password, application, accessCode), so it is left out",
            ])
    }

    /// Definitions named like schema keywords (`default`, `example`, `enum`) are schemas too:
    /// their `$ref`s lead where they should.
    @Test func definitionsNamedLikeKeywords() throws {
        let document = """
            swagger: "2.0"
            info: {title: Words, version: "1"}
            paths:
              /a:
                get:
                  operationId: getDefault
                  responses:
                    "200": {description: ok, schema: {$ref: "#/definitions/default"}}
            definitions:
              default: {type: object, properties: {example: {$ref: "#/definitions/example"}}}
              example: {type: object, properties: {word: {type: string, x-nullable: true}}}
            """
        let output = Support.generate(["words.yaml": document], main: "words.yaml")
        #expect(Support.messages(output) == [])
        let source = try #require(output.source)
        #expect(source.contains("public struct Default: Codable, Sendable, Equatable {\n    public var example: Example?\n"))
        #expect(source.contains("public struct Example: Codable, Sendable, Equatable {\n    public var word: String?\n"))
    }

    /// A path item in a file of its own: its `$ref`s (to its own parameters, to a schema in
    /// a third file) lead from that file, and its warnings point into it.
    @Test func aPathItemInAnotherFile() throws {
        let files = [
            "api/main.yaml": """
                swagger: "2.0"
                info: {title: Split, version: "1"}
                paths:
                  /owners: {$ref: "paths/owners.yaml"}
                """,
            "api/paths/owners.yaml": """
                get:
                  operationId: listOwners
                  parameters:
                    - $ref: "#/parameters/page"
                    - {name: tabs, in: query, type: array, items: {type: string}, collectionFormat: tsv}
                  responses:
                    "200": {description: ok, schema: {type: array, items: {$ref: "../models.yaml#/definitions/Owner"}}}
                post:
                  operationId: addOwner
                  parameters:
                    - {name: owner, in: body, required: true, schema: {$ref: "../models.yaml#/definitions/Owner"}}
                  responses:
                    "204": {description: done}
                parameters:
                  page: {name: page, in: query, type: integer}
                """,
            "api/models.yaml": """
                definitions:
                  Owner: {type: object, required: [name], properties: {name: {type: string}, nick: {type: string, x-nullable: true}}}
                """,
        ]
        let output = Support.generate(files, main: "api/main.yaml")
        #expect(
            Support.messages(output) == [
                "api/paths/owners.yaml:5:85: warning: the collectionFormat \"tsv\" of query parameter \"tabs\" has no OpenAPI 3 style, so its values are sent joined by commas (csv)"
            ])
        let source = try #require(output.source)
        #expect(source.contains("func listOwners(page: Int?, tabs: [String]?, policy: CachePolicy?) async throws -> CachedValue<[Owner]>\n"))
        #expect(source.contains("func addOwner(body: Owner) async throws\n"))
        #expect(source.contains("public struct Owner: Codable, Sendable, Equatable {\n    public var name: String\n    public var nick: String?\n"))
    }

    /// A `$ref` that leads nowhere is quoted as the user wrote it (`#/definitions/Pte`), never
    /// as the conversion rewrote it, in this file and in another; a part of the pointer that
    /// is missing is named as written too.
    @Test func aBrokenReferenceIsQuotedAsWritten() {
        let files = [
            "api/main.yaml": """
                swagger: "2.0"
                info: {title: Refs, version: "1"}
                paths:
                  /pets:
                    get:
                      operationId: listPets
                      responses:
                        "200": {description: ok, schema: {$ref: "#/definitions/Pte"}}
                  /owners:
                    get:
                      operationId: listOwners
                      responses:
                        "200": {description: ok, schema: {$ref: "models/owner.yaml"}}
                  /keepers:
                    get:
                      operationId: listKeepers
                      responses:
                        "200": {description: ok, schema: {$ref: "models/owner.yaml#/definitions/Owner"}}
                  /vets: {$ref: "paths/vets.yaml"}
                definitions:
                  Pet: {type: object, properties: {name: {type: string}}}
                """,
            "api/paths/vets.yaml": """
                get:
                  operationId: listVets
                  responses:
                    "200": {description: ok, schema: {$ref: "../main.yaml#/definitions/Vet"}}
                """,
            "api/models/owner.yaml": """
                type: object
                properties:
                  pet: {$ref: "../main.yaml#/definitions/Pett"}
                """,
        ]
        let output = Support.generate(files, main: "api/main.yaml")
        #expect(
            Support.messages(output) == [
                "api/main.yaml:8:49: warning: $ref \"#/definitions/Pte\" points to nothing: \"Pte\" is not there, so the value is read as any JSON (JSONValue); did you mean \"Pet\"?",
                "api/main.yaml:18:49: warning: $ref \"models/owner.yaml#/definitions/Owner\" points to nothing: \"definitions\" is not there, so the value is read as any JSON (JSONValue)",
                "api/models/owner.yaml:3:15: warning: $ref \"../main.yaml#/definitions/Pett\" points to nothing: \"Pett\" is not there, so the value is read as any JSON (JSONValue); did you mean \"Pet\"?",
                "api/paths/vets.yaml:4:45: warning: $ref \"../main.yaml#/definitions/Vet\" points to nothing: \"Vet\" is not there, so the value is read as any JSON (JSONValue); did you mean \"Pet\"?",
            ])
    }

    /// Swagger versions other than 2.0 are refused, at the version.
    @Test func otherSwaggerVersionsAreRefused() {
        let output = Support.generate(["old.yaml": "swagger: \"1.2\"\ninfo: {title: x}\n"], main: "old.yaml")
        #expect(
            Support.messages(output) == [
                "old.yaml:1:10: error: unsupported Swagger version \"1.2\"; cachegen reads Swagger 2.0 and OpenAPI 3.0, 3.1 and 3.2"
            ])
    }

    /// The OpenAPI Specification's own 2.0 example split over files (parameters, schemas in
    /// files of their own) generates its operations.
    @Test func aDocumentSplitOverFiles() throws {
        let path = ThirdPartyFixtures.openAPI.appendingPathComponent("swagger2-petstore-separate/spec/swagger.yaml").path
        let output = Generator.generate(try Data(contentsOf: URL(fileURLWithPath: path)), path: path)
        #expect(output.diagnostics.isEmpty, "\(output.diagnostics)")
        let source = try #require(output.source)
        #expect(source.contains("func findPets(tags: [String]?, limit: Int?, policy: CachePolicy?) async throws -> CachedValue<[Pet]>\n"))
        #expect(source.contains("func addPet(body: NewPet) async throws -> Pet\n"))
        #expect(source.contains("/// The spec's server: http://petstore.swagger.io/api\n"))
    }
}
