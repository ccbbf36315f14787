import Foundation
import Testing

@testable import CacheGenCore
@testable import CacheGenOpenAPI
import GeneratorTestSupport

/// Every real, public document in `Tests/Fixtures/ThirdParty/openapi/` generates with no errors; each
/// warning names what was left out; the operations generated are counted.
@Suite struct OpenAPIRealDocumentTests {
    static let documentsFolder = ThirdPartyFixtures.openAPI

    static let documents: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: documentsFolder.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted()
    }()

    /// Operations generated and present per document; a change to the mapping shows here.
    static let expectedCounts: [String: (generated: Int, present: Int)] = [
        "api-with-examples.yaml": (2, 2),
        "callback-example.yaml": (1, 1),
        "link-example.yaml": (6, 6),
        "openapi-generator-petstore.yaml": (10, 10),
        "petstore-expanded.yaml": (4, 4),
        "petstore.yaml": (3, 3),
        "postgres-database-example.yaml": (3, 3),
        "swagger2-petstore-expanded.yaml": (4, 4),
        "swagger2-uber.yaml": (5, 5),
        "uspto.yaml": (3, 3),
        "various-content-types.yaml": (11, 11),
    ]

    @Test func everyDocumentIsHere() {
        #expect(Set(Self.documents) == Set(Self.expectedCounts.keys), "documents missing at \(Self.documentsFolder.path)")
    }

    @Test(arguments: documents)
    func generatesWithNoErrors(_ name: String) throws {
        let path = Self.documentsFolder.appendingPathComponent(name).path
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let output = Generator.generate(data, path: path)
        #expect(!output.hasErrors, "\(output.diagnostics)")
        #expect(output.source != nil)
        for warning in output.diagnostics {
            let namesWhatIsMissing = warning.message.contains(" left out") || warning.message.contains("no operations")
            #expect(namesWhatIsMissing, "\(warning)")
        }
        let root = try OpenAPISource.parse(data, file: path)
        let result = OpenAPIFrontStage.spec(document: root, file: path, read: Generator.readFile)
        let counts = (result.operationsGenerated, result.operationsPresent)
        print("OpenAPI \(name): \(counts.0) of \(counts.1) operations generated, \(output.diagnostics.count) warnings")
        let expected = try #require(Self.expectedCounts[name])
        #expect(counts == expected, "\(name)")
    }
}
