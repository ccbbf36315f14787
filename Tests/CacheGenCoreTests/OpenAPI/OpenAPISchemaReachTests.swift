import CacheGenReading
import Foundation
import Testing

@testable import CacheGenCore
@testable import CacheGenOpenAPI
@testable import CacheGenSpec

/// Every way a schema can be reached gives one type with a name made from where the schema
/// lives, and no union case hides a type: `schema-reach.openapi.yaml` reaches schemas as
/// components, inline in each position, and by JSON pointers into each inline position
/// (responses, request bodies, parameters, paths, nested unions, `items`,
/// `additionalProperties`, `~1` and `~0` escapes, another file), one pointer twice. Its
/// golden client (`Golden/SchemaReach/`) is compiled and run by GeneratedClientTests.
@Suite struct OpenAPISchemaReachTests {
    typealias Support = OpenAPITestSupport

    static let overlay = "Tests/CacheGenCoreTests/OpenAPI/Documents/SchemaReach.cachegen.json"

    static func generate() throws -> Generator.Output {
        let data = try Data(contentsOf: GoldenTests.repository.appendingPathComponent(overlay))
        return Generator.generate(data, path: overlay, read: GoldenTests.read)
    }

    /// The types the source declares, in order.
    static func declaredTypes(_ source: String) -> [String] {
        source.split(separator: "\n").compactMap { line -> String? in
            for head in ["public struct ", "public enum ", "public indirect enum "] where line.hasPrefix(head) {
                return String(line.dropFirst(head.count).prefix { $0.isLetter || $0.isNumber || $0 == "_" })
            }
            return nil
        }
    }

    @Test func eachSchemaIsOneTypeNamedAfterWhereItLives() throws {
        let output = try Self.generate()
        #expect(Support.messages(output) == [])
        let source = try #require(output.source)
        #expect(
            Self.declaredTypes(source) == [
                "Parcel", "_1st", "Ranked", "ListParcelsCarrier", "ListParcelsSort", "ListParcelsResponse", "NewParcelRequest",
                "ShippedResponse", "ShippedResponseVariant", "ShippedResponseVariant2", "CreateAnyRequest", "PutEscapedRequest",
                "PostElsewhereRequest", "LedgerResponse", "ParcelAB", "ParcelCD", "ParcelTagsItem", "ParcelExtraValue", "ParcelShape",
                "RankedDefault", "ListParcelsCarrierString", "ListParcelsResponseItemsItem", "NewParcelRequestPayload",
                "ShippedResponseBatch", "ParcelShapeCorner", "ParcelPart", "NewParcelRequestPayloadVariant", "LedgerResponseVariant",
                "LedgerResponseObject", "ParcelShapeObject", "NewParcelRequestPayloadObject", "LiveParcelsRepository",
                "MockParcelsRepository",
            ])
        // The pointer and the schema it points to are one type, wherever each is used.
        #expect(source.contains("public func createOne(body: ShippedResponseVariant"))
        #expect(source.contains("    case object(ShippedResponseVariant)\n    case object2(ShippedResponseVariant2)\n    case batch(ShippedResponseBatch)\n"))
        #expect(
            source.contains(
                "    case shippedResponseVariant(ShippedResponseVariant)\n    case shippedResponseVariant2(ShippedResponseVariant2)\n    case shippedResponseBatch(ShippedResponseBatch)\n"
            ))
        #expect(source.contains("    public var slashed: ParcelAB?\n    public var tilded: ParcelCD?\n    public var tag: ParcelTagsItem?\n"))
        #expect(source.contains("    case value1st(_1st)\n    case defaultValue(RankedDefault)\n    case selfValue(String)\n"))
    }

    @Test func noUnionCaseHasTheNameOfATypeOrAKeyword() throws {
        let source = try #require(try Self.generate().source)
        let types = Set(Self.declaredTypes(source))
        let cases = source.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("    case "), line.hasSuffix(")") else { return nil }
            return String(line.dropFirst(9).prefix { $0 != "(" })
        }
        #expect(cases.count >= 20)
        #expect(cases.filter { types.contains($0) || $0.hasPrefix("`") || $0.hasPrefix("_") } == [])
    }

    @Test func caseNamesStartWithALowerCaseLetterAndAreNoKeywords() {
        #expect(OpenAPIModelBuilder.unionCaseName("_0") == "value0")
        #expect(OpenAPIModelBuilder.unionCaseName("_200Response") == "value200Response")
        #expect(OpenAPIModelBuilder.unionCaseName("default") == "defaultValue")
        #expect(OpenAPIModelBuilder.unionCaseName("self") == "selfValue")
        #expect(OpenAPIModelBuilder.unionCaseName("imagePart") == "imagePart")
        #expect(OpenAPIModelBuilder.unionCaseName("_") == "value")
    }

    /// The name each kind of pointer gives, from its owner down; Swagger 2.0's parts too.
    @Test func pointersAreNamedAfterTheirOwnerAndTheWayDown() throws {
        let document = """
            {
              "paths": {
                "/a/{id}": { "get": { "operationId": "get_a", "parameters": [ { "name": "page_size", "in": "query", "schema": {} } ],
                  "responses": { "200": {}, "404": {} } } },
                "/b": { "post": { "requestBody": {} } }
              },
              "webhooks": { "ping": { "post": { "operationId": "onPing" } } },
              "components": { "responses": { "ThingResponse": {} }, "headers": { "Rate": {} }, "parameters": { "Limit": {} } },
              "definitions": { "pet_owner": {} }, "responses": { "Gone": {} }, "parameters": { "Skip": {} }
            }
            """
        let root = try OpenAPISource.parse(Data(document.utf8), file: "api.json")
        let parts = "{ \"Pet\": { \"properties\": { \"a\": {} } } }"
        let files = ["api.json": document, "parts.json": parts]
        let references = OpenAPIReferences(root: root, file: "api.json", read: { files[$0].map { Data($0.utf8) } })
        func name(_ pointer: String) -> String? {
            let reference = JSONNode(
                value: .object([
                    JSONMember(
                        key: "$ref", keyLocation: root.location, value: JSONNode(value: .string(pointer), location: root.location))
                ]), location: root.location)
            return references.resolve(reference, in: "api.json").map { OpenAPIPlaceName.name(of: $0, references: references) }
        }
        #expect(name("#/paths/~1a~1{id}/get/responses/200") == "GetAResponse")
        #expect(name("#/paths/~1a~1{id}/get/responses/404") == "GetAResponse404")
        #expect(name("#/paths/~1a~1{id}/get/parameters/0/schema") == "GetAPageSize")
        #expect(name("#/paths/~1b/post/requestBody") == "PostBRequest")
        #expect(name("#/webhooks/ping/post") == "OnPing")
        #expect(name("#/components/responses/ThingResponse") == "ThingResponse")
        #expect(name("#/components/headers/Rate") == "RateHeader")
        #expect(name("#/components/parameters/Limit") == "LimitParameter")
        #expect(name("#/definitions/pet_owner") == "pet_owner")
        #expect(name("#/responses/Gone") == "GoneResponse")
        #expect(name("#/parameters/Skip") == "SkipParameter")
        #expect(name("parts.json#/Pet/properties/a") == "PetA")
        #expect(name("parts.json") == "parts")
    }

    /// A pointer into another response's inline `oneOf`, as the public document that did not
    /// compile wrote it, with no prefix to keep its names apart.
    @Test func aUnionOfPointersIntoAResponsesOneOfNamesItsCasesAfterTheOwner() throws {
        let pointer = "#/components/responses/Created/content/application~1json/schema/oneOf/"
        let document = """
            {
              "openapi": "3.0.3",
              "info": { "title": "Things API", "version": "1" },
              "paths": { "/things": { "post": { "operationId": "createThing",
                "requestBody": { "content": { "application/json": { "schema": { "oneOf": [
                  { "$ref": "\(pointer)0" }, { "$ref": "\(pointer)1" } ] } } } },
                "responses": { "201": { "$ref": "#/components/responses/Created" } } } } },
              "components": { "responses": { "Created": { "description": "made", "content": { "application/json": { "schema": {
                "oneOf": [
                  { "type": "object", "properties": { "id": { "type": "string" } } },
                  { "type": "object", "title": "Many", "properties": { "ids": { "type": "array", "items": { "type": "string" } } } } ]
              } } } } } }
            }
            """
        let output = Support.generate(["api.json": document], main: "api.json")
        #expect(Support.messages(output) == [])
        let source = try #require(output.source)
        #expect(Self.declaredTypes(source) == [
                "CreateThingRequest", "CreatedResponse", "CreatedResponseVariant", "CreatedResponseMany", "LiveThingsAPIRepository",
                "MockThingsAPIRepository",
            ])
        #expect(source.contains("    case createdResponseVariant(CreatedResponseVariant)\n    case createdResponseMany(CreatedResponseMany)\n"))
        #expect(source.contains("    case object(CreatedResponseVariant)\n    case many(CreatedResponseMany)\n"))
    }
}
