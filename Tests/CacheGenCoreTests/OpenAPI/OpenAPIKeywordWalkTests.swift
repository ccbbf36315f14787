import CacheGenCore
import CacheGenOpenAPI
import CacheGenReading
import Foundation
import Testing
import GeneratorTestSupport

/// No silent loss, by construction: every keyword of every object of each OpenAPI version's
/// own schema (`Tests/Fixtures/ThirdParty/openapi-schemas/`) is in the reader's tables
/// (`OpenAPIKeywords`) as mapped, as having no effect on a client, or as warned about; and a
/// document that uses a warned or an unknown keyword gets exactly the located warning.
@Suite struct OpenAPIKeywordWalkTests {
    typealias Support = OpenAPITestSupport

    /// One version: its schema files (the first is the document's; the others describe the
    /// Schema Object's dialect) and the tables that read it. Adding a version is one line.
    struct Version: CustomStringConvertible, Sendable {
        var name: String
        var files: [String]
        var keywords: OpenAPIKeywords
        var description: String { name }
    }

    static let dialect2020 = [
        "json-schema-2020-12/schema.json", "json-schema-2020-12/meta/core.json", "json-schema-2020-12/meta/applicator.json",
        "json-schema-2020-12/meta/unevaluated.json", "json-schema-2020-12/meta/validation.json",
        "json-schema-2020-12/meta/meta-data.json", "json-schema-2020-12/meta/format-annotation.json",
        "json-schema-2020-12/meta/content.json",
    ]

    static let versions = [
        Version(name: "2.0", files: ["v2.0/schema.json"], keywords: .v2),
        Version(name: "3.0", files: ["v3.0/schema.yaml"], keywords: .v3),
        Version(name: "3.1", files: ["v3.1/schema.yaml", "v3.1/meta.yaml"] + dialect2020, keywords: .v3),
        Version(name: "3.2", files: ["v3.2/schema.yaml", "v3.2/meta.yaml"] + dialect2020, keywords: .v3),
    ]

    static let schemas = ThirdPartyFixtures.folder.appendingPathComponent("openapi-schemas")

    @Test(arguments: versions)
    func everyKeywordIsMappedNamedAsWithoutEffectOrWarned(_ version: Version) throws {
        var objects: [(name: String, keys: Set<String>)] = []
        for (position, path) in version.files.enumerated() {
            let data = try Data(contentsOf: Self.schemas.appendingPathComponent(path))
            let root = try OpenAPISource.parse(data, file: path)
            // The document's schema describes the OpenAPI Object at its root; the dialect's
            // files describe the Schema Object at theirs.
            objects += Self.objects(in: root, rootName: position == 0 ? nil : "schema")
        }
        #expect(objects.count >= 20, "the walk found only \(objects.map(\.name))")
        var problems: [String] = []
        for (name, keys) in objects where !keys.isEmpty {
            let kind = name == "" ? version.keywords.root : OpenAPIKeywords.Kind.allCases.first { kind in
                version.keywords[kind].schemaNames.contains(Self.normalized(name))
            }
            guard let kind else {
                problems.append("\(version.name): no table reads the object \"\(name)\" (keys \(keys.sorted()))")
                continue
            }
            let table = version.keywords[kind]
            for key in keys.sorted() where table.keys[key] == nil {
                problems.append("\(version.name): \"\(key)\" of \"\(name)\" is in no entry of the \(kind) table")
            }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test(arguments: versions)
    func everyKindATableNamesHasATable(_ version: Version) {
        var pending = [version.keywords.root]
        var seen: Set<OpenAPIKeywords.Kind> = []
        func kinds(in value: OpenAPIKeywords.Value) -> [OpenAPIKeywords.Kind] {
            switch value {
            case .leaf: []
            case .object(let kind): [kind]
            case .map(let inner), .array(let inner): kinds(in: inner)
            }
        }
        while let kind = pending.popLast() {
            guard seen.insert(kind).inserted else { continue }
            let table = version.keywords.tables[kind]
            #expect(table != nil, "\(version.name): \(kind) has no table")
            for entry in (table?.keys ?? [:]).values { pending += kinds(in: entry.value) }
            switch table?.patterned {
            case .paths(let value)?, .statusCodes(let value)?, .any(let value)?: pending += kinds(in: value)
            case nil: break
            }
            if table?.referable == true { pending.append(.reference) }
            pending += table?.variants?.kinds.values.map { $0 } ?? []
        }
        #expect(seen.count >= 14)
    }

    /// The object definitions of a specification schema with the keys each allows: the root
    /// (named `rootName`, or "" for the document) and every definition (`$defs`, `definitions`,
    /// nested ones too) that is an object, its keys gathered from `properties` in its own
    /// `allOf`/`oneOf`/`anyOf`/`if`/`then`/`else`/`dependentSchemas` and from the definitions it
    /// `$ref`s that are not objects of their own (mix-ins such as `examples`).
    static func objects(in root: JSONNode, rootName: String?) -> [(name: String, keys: Set<String>)] {
        var definitions: [String: JSONNode] = [:]
        var named: [(name: String, node: JSONNode)] = [(rootName ?? "", root)]
        var stack: [(prefix: String, node: JSONNode)] = [("#", root)]
        while let (prefix, node) = stack.popLast() {
            for container in ["$defs", "definitions"] {
                for member in node[container]?.value.members ?? [] {
                    let pointer = "\(prefix)/\(container)/\(member.key)"
                    definitions[pointer] = member.value
                    stack.append((pointer, member.value))
                    if isObject(member.value) { named.append((member.key, member.value)) }
                }
            }
            // Definitions nested in a definition's parts (`parameter/dependentSchemas/schema/$defs`).
            for member in node.members ?? [] where ["dependentSchemas", "allOf", "then", "else"].contains(member.key) {
                if let parts = member.value.members {
                    for part in parts { stack.append(("\(prefix)/\(member.key)/\(part.key)", part.value)) }
                }
            }
        }
        return named.map { name, node in (name, keys(of: node, definitions: definitions)) }
    }

    /// The keys an object definition allows.
    static func keys(of node: JSONNode, definitions: [String: JSONNode]) -> Set<String> {
        var keys: Set<String> = []
        var stack = [node]
        var seen = 0
        while let part = stack.popLast(), seen < 500 {
            seen += 1
            for member in part["properties"]?.value.members ?? [] { keys.insert(member.key) }
            for key in ["allOf", "oneOf", "anyOf"] { stack += part[key]?.value.elements ?? [] }
            for key in ["if", "then", "else"] { if let next = part[key]?.value { stack.append(next) } }
            for member in part["dependentSchemas"]?.value.members ?? [] { stack.append(member.value) }
            if let reference = part["$ref"]?.value.stringValue, let target = definitions[reference], !isObject(target) {
                stack.append(target)
            }
        }
        return keys
    }

    /// A definition of an object: `type: object` (or a list with it).
    static func isObject(_ node: JSONNode) -> Bool {
        guard let type = node["type"]?.value else { return false }
        return type.stringValue == "object" || type.elements?.contains { $0.stringValue == "object" } == true
    }

    /// `PathItem`, `path-item` → `pathitem`.
    static func normalized(_ name: String) -> String {
        name.lowercased().filter { $0 != "-" && $0 != "_" }
    }

    // MARK: - The walk of a document

    @Test func aWarnedKeywordAndAnUnknownOneGetExactlyTheirLocatedWarnings() {
        let document = """
            {
              "openapi": "3.2.0",
              "info": { "title": "Things API", "version": "1", "x-logo": "ignored" },
              "paths": {
                "/things": {
                  "get": {
                    "operationId": "listThings", "sumary": "A typo",
                    "responses": { "200": { "description": "ok", "content": { "application/json": {
                      "schema": { "type": "object", "properties": { "id": { "type": "string" } },
                        "patternProperties": { "^x": { "type": "string" } }, "requird": ["id"] } } } } }
                  }
                }
              }
            }
            """
        let output = Support.generate(["api.json": document], main: "api.json")
        #expect(
            Support.messages(output) == [
                "api.json:7:38: warning: unknown key \"sumary\" in an Operation Object is left out; did you mean \"summary\"?",
                "api.json:10:13: warning: \"patternProperties\" in a Schema Object is left out: keys matched by a pattern are not kept; add additionalProperties to keep them",
                "api.json:10:66: warning: unknown key \"requird\" in a Schema Object is left out; did you mean \"required\"?",
            ])
    }

    @Test func aKeywordWithoutEffectAndExtensionsAreNeverWarnedAbout() {
        let document = """
            openapi: 3.1.0
            info: { title: Things API, version: "1", contact: { name: Team, mispelt: ok } }
            externalDocs: { url: https://example.com }
            x-anything: { whatever: 1 }
            paths:
              /things:
                get:
                  operationId: listThings
                  deprecated: true
                  security: [{ token: [] }]
                  responses:
                    "200":
                      description: ok
                      headers: { X-Rate: { schema: { type: integer } } }
                      content:
                        application/json:
                          example: { id: "1" }
                          schema: { type: object, properties: { id: { type: string, minLength: 1, example: "1" } } }
            """
        let output = Support.generate(["api.yaml": document], main: "api.yaml")
        #expect(Support.messages(output) == [])
    }

    /// Servers are mapped (an operation's own is its endpoint's server), so neither is warned about.
    @Test func siblingsOfAReferenceAndOperationsInOtherServers() {
        let document = """
            openapi: 3.0.3
            info: { title: Things API, version: "1" }
            servers: [{ url: https://api.example.com/ }]
            paths:
              /things:
                servers: [{ url: https://api.example.com }]
                get:
                  operationId: listThings
                  servers: [{ url: https://upload.example.com }]
                  parameters: [{ $ref: "#/components/parameters/Limit", required: true }]
                  responses: { "204": { description: none } }
            components:
              parameters:
                Limit: { name: limit, in: query, schema: { type: integer } }
            """
        let output = Support.generate(["api.yaml": document], main: "api.yaml")
        #expect(
            Support.messages(output) == [
                "api.yaml:10:61: warning: \"required\" beside \"$ref\" is left out: a Reference Object takes only \"summary\" and \"description\" beside it",
            ])
    }

    /// An overlay's `include` checks only what it chose: a flaw in an operation or a
    /// component left out is never reported.
    @Test func onlyTheChosenOperationsAreWalked() {
        let paths = """
            "/a": { "get": { "operationId": "chosen", "sumary": "typo", "responses": { "204": { "description": "none" } } } },
            "/b": { "get": { "operationId": "other", "sumary": "typo", "responses": { "204": { "description": "none" } } } }
            """
        let document = Support.document(paths: paths, schemas: #""Unused": { "type": "object", "requird": [] }"#)
        let overlay = #"{ "openapi": "api.json", "include": { "operations": ["chosen"] } }"#
        let output = Support.generate(["Api.cachegen.json": overlay, "api.json": document], main: "Api.cachegen.json")
        #expect(Support.messages(output) == [#"api.json:4:55: warning: unknown key "sumary" in an Operation Object is left out; did you mean "summary"?"#])
    }

    // MARK: - Swagger 2.0, walked as written

    /// A Swagger 2.0 document is walked as the user wrote it, by 2.0's tables: each warning
    /// once, at the key in the 2.0 file, with a hint from the right object (a body parameter
    /// takes `schema`, a query parameter `type`); a key 2.0 does not know is left out (a 3.0
    /// `requestBody` is not read), and a warned key of a definition is warned about there.
    @Test func aSwagger2DocumentIsWalkedAsWritten() throws {
        let document = """
            swagger: "2.0"
            info: {title: Things API, version: "1", x-logo: ignored}
            hots: things.example.com
            paths:
              /things:
                parameters:
                  - {name: limit, in: query, typ: integer, allowEmptyValue: true}
                post:
                  operationId: addThing
                  sumary: A typo
                  parameters:
                    - {name: thing, in: body, required: true, shema: {$ref: "#/definitions/Thing"}}
                    - {$ref: "#/parameters/trace", description: Traced}
                  requestBody: {content: {application/json: {schema: {type: string}}}}
                  responses:
                    "200": {description: ok, schema: {$ref: "#/definitions/Thing"}, examples: {text/plain: made}}
            parameters:
              trace: {name: X-Trace, in: header, type: string}
            definitions:
              Thing:
                type: object
                requird: [id]
                properties: {id: {type: string}}
                patternProperties: {"^x": {type: string}}
            """
        let output = Support.generate(["api.yaml": document], main: "api.yaml")
        #expect(
            Support.messages(output) == [
                "api.yaml:3:1: warning: unknown key \"hots\" in a Swagger Object is left out; did you mean \"host\"?",
                "api.yaml:7:34: warning: unknown key \"typ\" in a Parameter Object is left out; did you mean \"type\"?",
                "api.yaml:10:7: warning: unknown key \"sumary\" in an Operation Object is left out; did you mean \"summary\"?",
                "api.yaml:12:11: warning: the body parameter \"thing\" of operation \"addThing\" has no schema, so it is sent as any JSON (JSONValue)",
                "api.yaml:12:51: warning: unknown key \"shema\" in a body Parameter Object is left out; did you mean \"schema\"?",
                "api.yaml:13:40: warning: \"description\" beside \"$ref\" is left out: a JSON Reference takes nothing beside it",
                "api.yaml:14:7: warning: unknown key \"requestBody\" in an Operation Object is left out",
                "api.yaml:22:5: warning: unknown key \"requird\" in a Schema Object is left out; did you mean \"required\"?",
                "api.yaml:24:5: warning: \"patternProperties\" in a Schema Object is left out: keys matched by a pattern are not kept; add additionalProperties to keep them",
            ])
        let source = try #require(output.source)
        // Without its schema the body is any JSON, and the 3.0 `requestBody` is not read.
        #expect(source.contains("func addThing(limit: String?, xTrace: String?, body: JSONValue) async throws -> Thing\n"))
    }

    /// An overlay's `include` on a 2.0 document checks only what it chose: not the other
    /// operations, nor `definitions` and `parameters`.
    @Test func onlyTheChosenOperationsOfASwagger2DocumentAreWalked() {
        let document = """
            swagger: "2.0"
            info: {title: Things API, version: "1"}
            paths:
              /a: {get: {operationId: chosen, sumary: typo, responses: {"204": {description: none}}}}
              /b: {get: {operationId: other, sumary: typo, responses: {"204": {description: none}}}}
            parameters:
              unused: {name: x, in: query, typ: string}
            definitions:
              Unused: {type: object, requird: []}
            """
        let overlay = #"{ "openapi": "api.yaml", "include": { "operations": ["chosen"] } }"#
        let output = Support.generate(["Api.cachegen.json": overlay, "api.yaml": document], main: "Api.cachegen.json")
        #expect(Support.messages(output) == [#"api.yaml:4:35: warning: unknown key "sumary" in an Operation Object is left out; did you mean "summary"?"#])
    }

    @Test func keysInAnotherFileAreWalkedOnce() {
        let files = [
            "api.yaml": """
                openapi: 3.0.3
                info: { title: Things API, version: "1" }
                paths:
                  /things:
                    get: { $ref: "ops/list.yaml" }
                  /others:
                    get: { $ref: "ops/list.yaml" }
                """,
            "ops/list.yaml": """
                operationId: listThings
                respones: {}
                """,
        ]
        let output = Support.generate(files, main: "api.yaml")
        #expect(
            Support.messages(output).filter { $0.contains("respones") } == [
                "ops/list.yaml:2:1: warning: unknown key \"respones\" in an Operation Object is left out; did you mean \"responses\"?"
            ])
    }
}
