import Foundation
import Testing

@testable import CacheGenOpenAPI
@testable import CacheGenSpec

/// `Schemas/cachegen.schema.json` says exactly what the parser accepts: every key and
/// every enumerated value, in both directions.
@Suite struct SpecSchemaTests {
    static let schemaURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Schemas/cachegen.schema.json")

    let schema: [String: Any]
    let definitions: [String: Any]

    init() throws {
        let data = try Data(contentsOf: Self.schemaURL)
        schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        definitions = try #require(schema["definitions"] as? [String: Any])
    }

    /// Each object the parser reads, and the schema definition that describes it.
    static let objects: [(definition: String, keys: [String])] = [
        ("spec", SpecParser.Keys.root),
        ("overlay", OpenAPICacheRules.Keys.overlay),
        ("overlayDefaults", OpenAPICacheRules.Keys.defaults),
        ("operationRule", OpenAPICacheRules.Keys.operation),
        ("defaults", SpecParser.Keys.defaults),
        ("cacheDefaults", SpecParser.Keys.defaultCache),
        ("objectModel", SpecParser.Keys.objectModel),
        ("enumModel", SpecParser.Keys.enumModel),
        ("propertyObject", SpecParser.Keys.property),
        ("repository", SpecParser.Keys.repository),
        ("endpoint", SpecParser.Keys.endpoint),
        ("endpointCache", SpecParser.Keys.endpointCache),
        ("paging", SpecParser.pagingKeys),
        ("offlineObject", SpecParser.offlineKeys),
        ("selection", SpecParser.filterKeys),
        ("overlaySelection", OpenAPISelection.filterKeys),
    ]

    @Test(arguments: objects.map(\.definition))
    func schemaObjectsHaveExactlyTheParsersKeys(_ definition: String) throws {
        let object = try #require(definitions[definition] as? [String: Any])
        let keys = try #require(Self.objects.first { $0.definition == definition }?.keys)
        let properties = try #require(object["properties"] as? [String: Any])
        #expect(Set(properties.keys) == Set(keys), "definition '\(definition)'")
        #expect(object["additionalProperties"] as? Bool == false, "definition '\(definition)' must reject unknown keys")
    }

    @Test func enumeratedValuesMatch() throws {
        #expect(try values("policy") == Set(SpecPolicy.allCases.map(\.rawValue)))
        #expect(try values("scope") == Set(SpecScope.allCases.map(\.rawValue)))
        let defaults = try #require(try properties("defaults"))
        #expect(Set(try #require((defaults["jsonKeys"] as? [String: Any])?["enum"] as? [String])) == Set(Defaults.JSONKeys.allCases.map(\.rawValue)))
        #expect(Set(try #require((defaults["dates"] as? [String: Any])?["enum"] as? [String])) == Set(DateFormat.allCases.map(\.rawValue)))
        let endpoint = try #require(try properties("endpoint"))
        #expect(Set(try #require((endpoint["method"] as? [String: Any])?["enum"] as? [String])) == SpecValidator.methods)
        let version = try #require(try properties("spec")?["version"] as? [String: Any])
        #expect(version["const"] as? Int == 1)
    }

    /// The root picks the overlay when `openapi` is present, as `InputKind` does.
    @Test func theRootChoosesOverlayOrSpec() throws {
        let condition = try #require(schema["if"] as? [String: Any])
        #expect(condition["required"] as? [String] == ["openapi"])
        #expect((schema["then"] as? [String: String])?["$ref"] == "#/definitions/overlay")
        #expect((schema["else"] as? [String: String])?["$ref"] == "#/definitions/spec")
    }

    @Test func theTypeDescriptionNamesEveryScalar() throws {
        let type = try #require(definitions["type"] as? [String: Any])
        let description = try #require(type["description"] as? String)
        for scalar in TypeRef.Scalar.allCases {
            #expect(description.contains(scalar.rawValue))
        }
    }

    private func properties(_ definition: String) throws -> [String: Any]? {
        (definitions[definition] as? [String: Any])?["properties"] as? [String: Any]
    }

    private func values(_ definition: String) throws -> Set<String> {
        Set(try #require((definitions[definition] as? [String: Any])?["enum"] as? [String]))
    }
}
