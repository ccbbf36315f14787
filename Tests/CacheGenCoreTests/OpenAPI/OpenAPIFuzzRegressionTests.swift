import CacheGenCore
import Foundation
import Testing

/// Inputs the `openapi` fuzz target found (Fuzz/README.md, "Findings"), kept in
/// `Tests/CacheGenCoreTests/FuzzRegressions/` byte for byte.
@Suite struct OpenAPIFuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FuzzRegressions")

    /// A Swagger 2.0 `consumes` entry that is a block of prose, not a media type, became the
    /// only media type of a body, and the warning leaving the operation out printed it as it
    /// was, line breaks and all. Every message is one line; that one quotes the text.
    @Test func aMediaTypeWithALineBreakStaysOnOneLineInItsWarning() throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("openapi-consumes-spans-lines.yaml"))
        let output = Generator.generate(data, path: "api/openapi", read: { _ in nil })
        #expect(!output.diagnostics.isEmpty)
        for diagnostic in output.diagnostics {
            #expect(!diagnostic.message.unicodeScalars.contains { $0 == "\n" || $0 == "\r" }, "\(diagnostic)")
        }
        #expect(
            output.diagnostics.contains {
                $0.message.hasPrefix(#"operation "addPet" is left out: its request body is only "aue vel, vehicula interdum libero. Morbi"#)
            })
    }
}
