import Foundation

/// Where the third party's test inputs live in the repository: `Tests/Fixtures/ThirdParty/`,
/// each folder with a note of its source, version and licence. Tests read them only from
/// here, so a fresh clone in a folder of its own passes.
package enum ThirdPartyFixtures {
    /// `Tests/Fixtures/ThirdParty/`.
    package static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/ThirdParty")

    /// Real, public OpenAPI documents (`openapi/README.md` says where each comes from).
    package static let openAPI = folder.appendingPathComponent("openapi")

    /// The community YAML test suite, data branch (`yaml-test-suite/README.md`).
    package static let yamlTestSuite = folder.appendingPathComponent("yaml-test-suite")
}
