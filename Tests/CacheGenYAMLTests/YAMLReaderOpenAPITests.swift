import Foundation
import Testing

@testable import CacheGenReading
@testable import CacheGenYAML
import GeneratorTestSupport

/// Reads the real OpenAPI documents in `Tests/Fixtures/ThirdParty/openapi/` and compares each with the
/// value PyYAML reads from it (with YAML 1.2 core-schema resolution), checked in as JSON
/// by `Scripts/fixtures/make-yaml-fixtures.py`.
@Suite struct YAMLReaderOpenAPITests {
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let documentsFolder = ThirdPartyFixtures.openAPI

    static let documents: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: documentsFolder.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted()
    }()

    @Test func everyDocumentHasAFixture() throws {
        #expect(Self.documents.count >= 9, "documents missing at \(Self.documentsFolder.path)")
        let fixtures = try FileManager.default.contentsOfDirectory(
            atPath: Self.testsFolder.appendingPathComponent("OpenAPIFixtures").path)
        #expect(Set(fixtures) == Set(Self.documents.map { $0.replacingOccurrences(of: ".yaml", with: ".json") }))
    }

    @Test(arguments: documents)
    func readsAsPyYAMLDoes(_ name: String) throws {
        let yaml = try Data(contentsOf: Self.documentsFolder.appendingPathComponent(name))
        let fixture = Self.testsFolder.appendingPathComponent("OpenAPIFixtures")
            .appendingPathComponent(name.replacingOccurrences(of: ".yaml", with: ".json"))
        let expected = try JSONReader.parse(try Data(contentsOf: fixture), file: fixture.lastPathComponent)
        let node = try YAMLReader.parse(yaml, file: name)
        let difference = YAMLTestSuiteTests.firstDifference(node, expected)
        #expect(difference == nil, "\(name): \(difference ?? "")")
        #expect(node["openapi"]?.value.stringValue?.hasPrefix("3.") == true || node["swagger"]?.value.stringValue == "2.0")
    }

    /// Locations point where the text is: every key of `paths` is on a line of the file
    /// that starts with that key at the key's column.
    @Test(arguments: documents)
    func keyLocationsPointAtTheKeys(_ name: String) throws {
        let text = try String(contentsOf: Self.documentsFolder.appendingPathComponent(name), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let node = try YAMLReader.parse(Data(text.utf8), file: name)
        let paths = try #require(node["paths"]?.value.members)
        for member in paths {
            let line = Array(lines[member.keyLocation.line - 1])
            let rest = String(line.dropFirst(member.keyLocation.column - 1))
            #expect(
                rest.hasPrefix(member.key) || rest.hasPrefix("'\(member.key)'") || rest.hasPrefix("\"\(member.key)\""),
                "\(member.keyLocation): \(rest)")
        }
    }
}
