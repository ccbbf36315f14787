import CacheGenCore
import Foundation
import Testing

/// What OpenAPI constructs become in Swift.
@Suite struct OpenAPIMappingTests {
    typealias Support = OpenAPITestSupport

    /// One GET per test whose response is `schema`, so only the models differ.
    static func source(schemas: String, response: String, version: String = "3.0.3") throws -> String {
        let paths = """
            "/items/{itemId}": { "get": { "tags": ["items"],
              "parameters": [{ "name": "itemId", "in": "path", "required": true, "schema": { "type": "integer", "format": "int64" } },
                { "name": "since", "in": "query", "schema": { "type": "string", "format": "date-time" } },
                { "name": "X-Trace", "in": "header", "schema": { "type": "string", "format": "uuid" } },
                { "name": "Accept", "in": "header", "schema": { "type": "string" } }],
              "responses": { "404": { "description": "no" }, "201": { "description": "ok", "content": { "application/json": { "schema": \(response) } } } } } }
            """
        let output = Support.generate(["api.json": Support.document(paths: paths, schemas: schemas, version: version)], main: "api.json")
        #expect(!output.hasErrors, "\(output.diagnostics)")
        return try #require(output.source)
    }

    @Test func parametersWithFormatsAndADerivedName() throws {
        let source = try Self.source(schemas: "", response: "{ \"type\": \"number\", \"format\": \"float\" }")
        #expect(source.contains("public protocol ItemsRepository: Sendable"))
        #expect(source.contains("getItemsByItemId: @escaping @Sendable (_ itemId: Int, _ since: Date?, _ xTrace: UUID?, _ policy: CachePolicy?) async throws -> CachedValue<Double>"))
        #expect(source.contains("request.addHeader(\"X-Trace\", xTrace, isKey: false)"))
        #expect(!source.contains("accept"))
    }

    @Test func inlineObjectsGetDerivedNamesAndNullabilityIsKept() throws {
        let response = """
            { "type": "object", "required": ["owner", "note"], "properties": {
                "owner": { "type": "object", "properties": { "name": { "type": "string" } } },
                "note": { "type": "string", "nullable": true },
                "tags": { "type": "object", "additionalProperties": { "type": "integer" } },
                "link": { "type": "string", "format": "uri" },
                "day": { "type": "string", "format": "date" },
                "blob": { "type": "string", "format": "byte" } } }
            """
        let source = try Self.source(schemas: "", response: response)
        #expect(source.contains("public struct GetItemsByItemIdResponse: Codable"))
        #expect(source.contains("public var owner: GetItemsByItemIdResponseOwner\n"))
        #expect(source.contains("public struct GetItemsByItemIdResponseOwner: Codable"))
        #expect(source.contains("public var note: String?\n"))
        #expect(source.contains("public var tags: [String: Int]?\n"))
        #expect(source.contains("public var link: URL?\n"))
        #expect(source.contains("public var day: String?\n"))
        #expect(source.contains("public var blob: String?\n"))
    }

    @Test func openAPI31NullTypesAndAllOfMerged() throws {
        let schemas = """
            "Base": { "type": "object", "required": ["id"], "properties": { "id": { "type": "string" } } },
            "Item": { "allOf": [{ "$ref": "#/components/schemas/Base" },
              { "type": "object", "required": ["label"], "properties": { "label": { "type": ["string", "null"] },
                "parts": { "type": "array", "items": { "type": ["integer", "null"] } } } }] }
            """
        let source = try Self.source(schemas: schemas, response: "{ \"$ref\": \"#/components/schemas/Item\" }", version: "3.1.0")
        #expect(source.contains("public var id: String\n"))
        #expect(source.contains("public var label: String?\n"))
        #expect(source.contains("public var parts: [Int?]?\n"))
    }

    @Test func recursiveSchemasBecomeRecursiveModels() throws {
        let schemas = """
            "Node": { "type": "object", "properties": { "parent": { "$ref": "#/components/schemas/Node" },
              "children": { "type": "array", "items": { "$ref": "#/components/schemas/Node" } } } }
            """
        let source = try Self.source(schemas: schemas, response: "{ \"$ref\": \"#/components/schemas/Node\" }")
        #expect(source.contains("    public var parent: Node? {\n        get { _parent.wrappedValue }\n"))
        #expect(source.contains("    private var _parent: Indirect<Node?>\n"))
        #expect(source.contains("public var children: [Node]?"))
    }

    @Test func discriminatedOneOfBecomesAnEnumWithPayloads() throws {
        let schemas = """
            "Walk": { "type": "object", "required": ["kind"], "properties": { "kind": { "type": "string" }, "meters": { "type": "integer" } } },
            "Swim": { "type": "object", "required": ["kind"], "properties": { "kind": { "type": "string" } } },
            "Exercise": { "oneOf": [{ "$ref": "#/components/schemas/Walk" }, { "$ref": "#/components/schemas/Swim" }],
              "discriminator": { "propertyName": "kind", "mapping": { "walk": "#/components/schemas/Walk", "swim": "Swim" } } }
            """
        let source = try Self.source(schemas: schemas, response: "{ \"$ref\": \"#/components/schemas/Exercise\" }")
        #expect(source.contains("public indirect enum Exercise: Codable, Sendable, Equatable {"))
        #expect(source.contains("    case walk(Walk)\n    case swim(Swim)\n"))
        #expect(source.contains("case discriminator = \"kind\""))
        #expect(source.contains("        case \"walk\":\n            self = .walk(try Walk(from: decoder))"))
        #expect(source.contains("try container.encode(\"swim\", forKey: .discriminator)"))
    }

    /// One GET of `/items` whose response is `response`.
    static func getItems(response: String) -> String {
        """
        "/items": { "get": { "tags": ["items"], "operationId": "getItems",
          "responses": { "200": { "description": "ok", "content": { "application/json": { "schema": \(response) } } } } } }
        """
    }

    @Test func inlineVariantsOfADiscriminatedOneOfAreNamedAndTaggedByTheirOnlyValue() throws {
        let schemas = """
            "Base": { "type": "object", "properties": { "at": { "type": "integer" } } },
            "Event": { "oneOf": [
              { "title": "Started", "allOf": [{ "$ref": "#/components/schemas/Base" },
                { "type": "object", "required": ["type"], "properties": { "type": { "type": "string", "enum": ["started"] } } }] },
              { "type": "object", "properties": { "type": { "const": "done" }, "ok": { "type": "boolean" } } }],
              "discriminator": { "propertyName": "type" } }
            """
        let output = Support.generate(
            ["api.json": Support.document(paths: Self.getItems(response: "{ \"$ref\": \"#/components/schemas/Event\" }"), schemas: schemas, version: "3.1.0")],
            main: "api.json")
        #expect(Support.messages(output) == [])
        let source = try #require(output.source)
        #expect(source.contains("    case started(Started)\n    case done(EventDone)\n"))
        #expect(source.contains("public struct Started: Codable, Sendable, Equatable {\n    public var at: Int?\n    public var type: StartedType\n"))
    }

    @Test func aDiscriminatorWithoutMappingTakesTheValuesTheVariantsOwnPropertyAllows() throws {
        // OpenAI's filters: `type` is `eq`, `ne`… in one variant and `and`, `or` in the other,
        // so neither schema's name is ever sent; a variant whose property names it, or says
        // nothing, is tagged by its name, and a value an earlier variant took stays with it.
        let schemas = """
            "Compare": { "type": "object", "properties": { "type": { "type": "string", "enum": ["eq", "ne"] } } },
            "Group": { "type": "object", "properties": { "type": { "type": "string", "enum": ["and", "eq"] } } },
            "Named": { "type": "object", "properties": { "type": { "type": "string", "enum": ["Named", "other"] } } },
            "Plain": { "type": "object", "properties": { "type": { "type": "string" } } },
            "Filter": { "oneOf": [{ "$ref": "#/components/schemas/Compare" }, { "$ref": "#/components/schemas/Group" },
              { "$ref": "#/components/schemas/Named" }, { "$ref": "#/components/schemas/Plain" }],
              "discriminator": { "propertyName": "type" } }
            """
        let output = Support.generate(
            ["api.json": Support.document(paths: Self.getItems(response: "{ \"$ref\": \"#/components/schemas/Filter\" }"), schemas: schemas, version: "3.1.0")],
            main: "api.json")
        #expect(Support.messages(output) == [])
        let source = try #require(output.source)
        #expect(source.contains("    case eq(Compare)\n    case ne(Compare)\n    case and(Group)\n    case named(Named)\n    case plain(Plain)\n"))
        #expect(source.contains("        case \"and\":\n            self = .and(try Group(from: decoder))"))
        #expect(source.contains("try container.encode(\"ne\", forKey: .discriminator)"))
    }

    @Test func aRecursiveReferenceLeadsToTheSchemaItIsWrittenIn() throws {
        // `$recursiveRef: "#"` (JSON Schema 2019-09) and `$dynamicRef: "#"` (2020-12) as
        // OpenAI writes them: a filter whose filters are filters again.
        let schemas = """
            "Leaf": { "type": "object", "required": ["type"], "properties": { "type": { "type": "string", "enum": ["leaf"] } } },
            "Tree": { "type": "object", "properties": {
              "type": { "type": "string", "enum": ["tree"] },
              "children": { "type": "array", "items": { "oneOf": [{ "$ref": "#/components/schemas/Leaf" }, { "$recursiveRef": "#" }],
                "discriminator": { "propertyName": "type" } } },
              "parent": { "$dynamicRef": "#" },
              "odd": { "$recursiveRef": "#meta" } } }
            """
        let output = Support.generate(
            ["api.json": Support.document(paths: Self.getItems(response: "{ \"$ref\": \"#/components/schemas/Tree\" }"), schemas: schemas, version: "3.1.0")],
            main: "api.json")
        #expect(
            Support.messages(output) == [
                "api.json:12:29: warning: $recursiveRef \"#meta\" leads to no schema cachegen can find, so the value is read as any JSON (JSONValue); cachegen follows only $recursiveRef \"#\" inside a schema of the document's components.schemas"
            ])
        let source = try #require(output.source)
        #expect(source.contains("    case leaf(Leaf)\n    case tree(Tree)\n"))
        #expect(source.contains("    private var _parent: Indirect<Tree?>\n"))
    }

    @Test func untaggedUnionCasesAreNamedAfterTheirVariantsAndKeptApart() throws {
        let schemas = """
            "Part": { "type": "object", "required": ["text"], "properties": { "text": { "type": "string" } } },
            "Mode": { "type": "string", "enum": ["auto", "none"] },
            "Choice": { "anyOf": [
              { "$ref": "#/components/schemas/Mode" }, { "type": "string" }, { "type": "string", "format": "date-time" },
              { "type": "array", "items": { "$ref": "#/components/schemas/Part" } }, { "type": "array", "items": { "type": "string" } },
              { "type": "object", "properties": { "x": { "type": "integer" } } }, { "type": "object", "properties": { "y": { "type": "integer" } } },
              { "type": "string", "enum": ["off"] }, { "type": "string" }, { "$ref": "#/components/schemas/Choice" }, { "type": "null" }] }
            """
        let output = Support.generate(
            ["api.json": Support.document(paths: Self.getItems(response: "{ \"$ref\": \"#/components/schemas/Choice\" }"), schemas: schemas, version: "3.1.0")],
            main: "api.json")
        #expect(Support.messages(output) == [])
        let source = try #require(output.source)
        #expect(
            source.contains(
                """
                public indirect enum Choice: Codable, Sendable, Equatable {
                    case mode(Mode)
                    case string(String)
                    case date(Date)
                    case parts([Part])
                    case strings([String])
                    case object(ChoiceObject)
                    case object2(ChoiceObject2)
                    case off(ChoiceOff)
                    case string2(String)
                    /// A value none of the spec's types decodes, as the server sent it.
                    case other(JSONValue)
                """))
        // An enum takes only the values it lists, so other strings reach `string`.
        #expect(source.contains("if let value = try? container.decode(Mode.self), Mode.allCases.contains(value) {"))
        // The null variant makes the union optional where it is used.
        #expect(source.contains("CachedValue<Choice?>"))
    }

    @Test func unionsThatContainEachOtherDecodeWithoutEnd() throws {
        let schemas = """
            "A": { "anyOf": [{ "$ref": "#/components/schemas/B" }, { "type": "string" }] },
            "B": { "anyOf": [{ "$ref": "#/components/schemas/A" }, { "type": "integer" }] },
            "C": { "anyOf": [{ "$ref": "#/components/schemas/C" }, { "type": "array", "items": { "$ref": "#/components/schemas/C" } }, { "type": "boolean" }] }
            """
        let output = Support.generate(
            ["api.json": Support.document(paths: Self.getItems(response: "{ \"type\": \"array\", \"items\": { \"anyOf\": [{ \"$ref\": \"#/components/schemas/B\" }, { \"$ref\": \"#/components/schemas/C\" }] } }"), schemas: schemas)],
            main: "api.json")
        #expect(Support.messages(output) == [])
        let source = try #require(output.source)
        // A leaves out B, which leads back to it; B keeps A; C keeps arrays of itself, which consume the value.
        #expect(source.contains("public indirect enum A: Codable, Sendable, Equatable {\n    case string(String)\n    /// A value"))
        #expect(source.contains("public indirect enum B: Codable, Sendable, Equatable {\n    case a(A)\n    case integer(Int)\n"))
        #expect(source.contains("public indirect enum C: Codable, Sendable, Equatable {\n    case cs([C])\n    case boolean(Bool)\n"))
    }

    @Test func theSchemaShapesDocumentMapsWithoutAWarning() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let overlay = repository.appendingPathComponent("Documents/SchemaShapes.cachegen.json")
        let output = Generator.generate(try Data(contentsOf: overlay), path: overlay.path)
        #expect(Support.messages(output) == [])
        let source = try #require(output.source)
        #expect(source.contains("public var summary: ShapesExtendedPart?"))
        #expect(source.contains("public indirect enum ShapesAVeryLongSchemaNameThatSomeGeneratorsWriteFor80FC2AC5: "))
        #expect(source.contains("public var author: ShapesUser?"))
        #expect(source.contains("public var status: ShapesStatus?"))
    }

    @Test func enumsOfStringsKeepTheUnknownCase() throws {
        let schemas = "\"Color\": { \"type\": \"string\", \"enum\": [\"red\", \"dark-blue\", null], \"nullable\": true }"
        let source = try Self.source(schemas: schemas, response: "{ \"type\": \"array\", \"items\": { \"$ref\": \"#/components/schemas/Color\" } }")
        #expect(source.contains("    case red\n    case darkBlue\n"))
        #expect(source.contains("CachedValue<[Color?]>"))
    }

    @Test func deepDocumentsDoNotExhaustTheStack() throws {
        var schema = "{ \"type\": \"string\" }"
        for _ in 0..<120 { schema = "{ \"type\": \"object\", \"properties\": { \"next\": \(schema) } }" }
        let source = try Self.source(schemas: "", response: schema)
        #expect(source.contains("GetItemsByItemIdResponseNextNext"))
        var arrays = "{ \"type\": \"integer\" }"
        for _ in 0..<240 { arrays = "{ \"type\": \"array\", \"items\": \(arrays) }" }
        let nested = try Self.source(schemas: "", response: arrays)
        #expect(nested.contains(String(repeating: "[", count: 240) + "Int" + String(repeating: "]", count: 240)))
    }
}
