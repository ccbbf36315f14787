import Foundation
import Testing

import CachedClientFileStore
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// Inputs the cache-file fuzz target (Fuzz/, issue 17) found, kept in
/// `Tests/CachedClientFileStoreTests/FuzzRegressions/` byte for byte.
@Suite("CacheFileFormat: fuzz regressions")
struct CacheFileFormatFuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("FuzzRegressions")

    /// The input as the target decoded it: with its trailing checksum recomputed, which the
    /// target does so that mutations reach past the checksum.
    static func fileWithChecksum(_ name: String) throws -> [UInt8] {
        var bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
        let body = bytes.count - CacheFileFormat.checksumSize
        let checksum = bytes.withUnsafeBytes { XXH64.hash(UnsafeRawBufferPointer(rebasing: $0[0..<body])) }
        withUnsafeBytes(of: checksum.littleEndian) { bytes.replaceSubrange(body..., with: $0) }
        return bytes
    }

    /// A sound header and checksum around a freshness block whose numbers are impossible
    /// (here a stale-while-revalidate of -2.7e-3), stored under the "empty" endpoint's key.
    /// It was reported as `keyMismatch` ("stored under a different key") for any other key
    /// and as `malformed` only for its own: corruption must read as corruption under every key.
    @Test func impossibleFreshnessIsMalformedUnderEveryKey() throws {
        let file = try Self.fileWithChecksum("cache-file-negative-freshness-other-key")
        let ownKey = "endpoint empty\nmethod GET\nbase https://api.example.com\npath /\nshape 3f2a9c"
        file.withUnsafeBytes { bytes in
            #expect(CacheFileFormat.decode(bytes, keyText: ownKey) == .failure(.malformed))
            #expect(CacheFileFormat.decode(bytes, keyText: "another key") == .failure(.malformed))
            #expect(CacheFileFormat.decode(bytes, keyText: "") == .failure(.malformed))
        }
    }
}
