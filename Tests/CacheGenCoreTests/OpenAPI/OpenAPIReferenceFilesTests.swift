import Foundation
import Testing

@testable import CacheGenCore
@testable import CacheGenOpenAPI

/// `$ref`s wherever a document puts them: an operation, a path item, a parameter, a request
/// body, a response and a schema, in files next to the document (YAML or JSON, with or
/// without a pointer), each file's own `$ref`s relative to it; never a file outside the
/// document's folder.
@Suite struct OpenAPIReferenceFilesTests {
    typealias Support = OpenAPITestSupport

    /// The repository, which the fixture paths are relative to.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let read: @Sendable (String) -> Data? = { path in try? Data(contentsOf: repository.appendingPathComponent(path)) }

    /// The mapped spec of a document on disk, by a path relative to the repository.
    static func spec(_ path: String) throws -> OpenAPIFrontStage.Result {
        let data = try #require(read(path))
        let root = try OpenAPISource.parse(data, file: path)
        return OpenAPIFrontStage.spec(document: root, file: path, read: read)
    }

    @Test func everyKindOfReferenceIntoOtherFiles() throws {
        let path = "Tests/CacheGenCoreTests/OpenAPI/Documents/SplitFiles/api.yaml"
        let result = try Self.spec(path)
        #expect(result.diagnostics.map(\.description) == [])
        let spec = try #require(result.spec)
        let endpoints = spec.repositories.flatMap(\.endpoints)
        #expect(endpoints.map(\.name.name) == ["listThings", "createThing", "getThing"])
        let list = try #require(endpoints.first { $0.name.name == "listThings" })
        #expect(list.parameters.map(\.name.name) == ["limit", "kind"])
        #expect(list.parameters.map(\.type) == [.optional(.scalar(.int)), .optional(.scalar(.string))])
        #expect(list.response == .array(.model("Thing")))
        let create = try #require(endpoints.first { $0.name.name == "createThing" })
        #expect(create.body == .model("CreateThingRequest"))
        #expect(create.response == .model("Thing"))
        let get = try #require(endpoints.first { $0.name.name == "getThing" })
        #expect(get.parameters.map(\.name.name) == ["id"])
        #expect(get.response == .model("Thing"))
        // Thing and Tag refer to each other across two files: the cycle ends.
        let thing = try #require(spec.models.first { $0.name.name == "Thing" })
        guard case .object(let properties) = thing.kind else {
            Issue.record("Thing is not an object")
            return
        }
        #expect(properties.map(\.name.name) == ["id", "parent", "tag"])
        #expect(properties.map(\.type) == [.scalar(.string), .optional(.model("Thing")), .optional(.model("Tag"))])
        // The generated code has the methods and compiles in the golden check's way.
        let output = Generator.generate(try #require(Self.read(path)), path: path, read: Self.read)
        #expect(!output.hasErrors, "\(output.diagnostics)")
        #expect(output.source?.contains("func listThings(limit: Int?, kind: String?, policy: CachePolicy?)") == true)
    }

    @Test func anOperationReferenceThatCannotBeFollowed() {
        let files = [
            "api/api.yaml": """
                openapi: 3.0.3
                info: { title: T, version: "1" }
                paths:
                  /a:
                    get:
                      $ref: "../outside.yaml"
                    post:
                      $ref: "/etc/passwd"
                  /b:
                    get:
                      $ref: "missing.yaml"
                    put:
                      $ref: "ops.yaml#/nothere"
                """,
            "api/ops.yaml": "there: {}\n",
            "outside.yaml": "operationId: outside\nresponses: {}\n",
        ]
        let output = Support.generate(files, main: "api/api.yaml")
        #expect(
            Support.messages(output) == [
                "api/api.yaml:6:13: warning: $ref \"../outside.yaml\" names a file outside the document's folder, so operation GET \"/a\" is left out; cachegen reads only files in that folder and the folders under it",
                "api/api.yaml:8:13: warning: $ref \"/etc/passwd\" names a file outside the document's folder, so operation POST \"/a\" is left out; cachegen reads only files in that folder and the folders under it",
                "api/api.yaml:11:13: warning: cannot read \"missing.yaml\", which a $ref names, so operation GET \"/b\" is left out; put it next to the document",
                "api/api.yaml:13:13: warning: $ref \"ops.yaml#/nothere\" points to nothing: \"nothere\" is not there, so operation PUT \"/b\" is left out; did you mean \"there\"?",
            ])
        // The document's flaw is a warning: the rest is generated.
        #expect(output.files != nil)
    }

    @Test func theDocumentFolderBoundsEveryFile() {
        // `..` inside the folder is fine; a file that refers to itself ends.
        let files = [
            "api.json": Support.document(
                paths: """
                    "/a": { "get": { "$ref": "ops/a.json" } }
                    """),
            "ops/a.json": """
                { "operationId": "getA", "responses": { "200": { "description": "ok",
                  "content": { "application/json": { "schema": { "$ref": "../models/Node.json" } } } } } }
                """,
            "models/Node.json": """
                { "type": "object", "properties": { "next": { "$ref": "Node.json" }, "again": { "$ref": "#" } } }
                """,
        ]
        let output = Support.generate(files, main: "api.json")
        #expect(Support.messages(output) == [])
        #expect(output.source?.contains("func getA(") == true)
    }

    @Test func digitalOceansOperationsAreReadFromTheirFiles() throws {
        let path = "Tests/Fixtures/ThirdParty/openapi-corpus/digitalocean/specification/DigitalOcean-public.v2.yaml"
        let result = try Self.spec(path)
        let errors = result.diagnostics.filter { $0.severity == .error }
        #expect(errors.map(\.description) == [])
        let spec = try #require(result.spec)
        let endpoints = spec.repositories.flatMap(\.endpoints)
        let list = try #require(endpoints.first { $0.name.name == "droplets_list" })
        #expect(list.parameters.map(\.name.name) == ["per_page", "page", "tag_name", "name", "type"])
        let response = try #require(list.response)
        guard case .model(let model) = response.unwrapped, let droplets = spec.models.first(where: { $0.name.name == model }),
            case .object(let properties) = droplets.kind
        else {
            Issue.record("droplets_list returns \(response)")
            return
        }
        #expect(properties.map(\.name.name).contains("droplets"))
        print("DigitalOcean: \(result.operationsGenerated) of \(result.operationsPresent) operations generated")
        #expect(result.operationsGenerated > 400)
    }
}
