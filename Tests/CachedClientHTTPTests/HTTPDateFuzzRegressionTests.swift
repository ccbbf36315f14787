import Foundation
import Testing

import CachedClientHTTP
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// Inputs the response-headers fuzz target (Fuzz/, issue 17) found, kept in
/// `Tests/CachedClientHTTPTests/FuzzRegressions/` byte for byte.
@Suite("HTTPDate: fuzz regressions")
struct HTTPDateFuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("FuzzRegressions")

    /// `Last-Modified: Sat, 05 Nov 0997 08:49:37 GMT` parsed, but `format` wrote the year as
    /// "997", which is no IMF-fixdate and which `parse` refused: the year must keep four digits.
    @Test func aYearBeforeOneThousandFormatsWithFourDigitsAndReadsBack() throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent("response-headers-year-0997"), encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("Last-Modified: ") })
        let value = String(line.dropFirst("Last-Modified: ".count))
        let now = Date(timeIntervalSince1970: 1_764_000_000)
        let date = try #require(HTTPDate.parse(value, now: now))

        #expect(HTTPDate.format(date) == "Sun, 05 Nov 0997 08:49:37 GMT")
        #expect(HTTPDate.parse(HTTPDate.format(date), now: now) == date)
    }
}
