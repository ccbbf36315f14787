import Foundation
import Testing

import CachedClientFileStore
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// Format version 2's server freshness block: written only when there is something to
/// keep, read back exactly, and rejected when its flags or numbers make no sense.
@Suite("FileCacheStore: server freshness on disk")
struct CacheFileFormatFreshnessTests {
    static let key = CacheKey(
        text: "cachegen-key 1\nendpoint Accounts.get\npath /items/1\npartition user-1", endpoint: "Accounts.get",
        partition: "user-1", path: "/items/1")
    static let date = Date(timeIntervalSinceReferenceDate: 737_000_000.5)

    static let samples: [ServerFreshness] = [
        ServerFreshness(lifetime: 600, initialAge: 12.5, noCache: true, mustRevalidate: true, staleIfError: 30, staleWhileRevalidate: 15),
        ServerFreshness(lifetime: nil, initialAge: 0),
        ServerFreshness(lifetime: 0, initialAge: 3, mustRevalidate: true),
        // The largest lifetime a response can give (`CacheControl.maximumDelta`, 2^31 s, in CachedClientHTTP).
        ServerFreshness(lifetime: 2_147_483_648, staleWhileRevalidate: 0),
    ]

    @Test(arguments: samples)
    func everyFieldSurvivesAWriteAndAFreshRead(_ freshness: ServerFreshness) async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "cachegen-format-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let entry = CacheEntry(body: Data("{}".utf8), date: Self.date, etag: "\"e\"", freshness: freshness)
        try await FileCacheStore(directory: directory).setEntry(entry, for: Self.key)

        #expect(try await FileCacheStore(directory: directory).entry(for: Self.key) == entry)
    }

    @Test func theBlockIsWrittenOnlyWhenTheServerSaidSomething() throws {
        let bare = CacheEntry(body: Data("body".utf8), date: Self.date)
        var full = bare
        full.freshness = ServerFreshness(lifetime: 60)
        let bareBytes = try #require(CacheFileFormat.encode(bare, key: Self.key))
        let fullBytes = try #require(CacheFileFormat.encode(full, key: Self.key))

        #expect(fullBytes.count == bareBytes.count + CacheFileFormat.freshnessSize)
        let layout = try fullBytes.withUnsafeBytes { try CacheFileFormat.decode($0, keyText: Self.key.text).get() }
        #expect(layout.freshness == ServerFreshness(lifetime: 60))
        #expect(Data(fullBytes[layout.bodyOffset..<layout.bodyOffset + layout.bodyCount]) == Data("body".utf8))
    }

    @Test func freshnessFlagsWithoutTheBlockAreMalformed() throws {
        let bytes = try #require(CacheFileFormat.encode(CacheEntry(body: Data("b".utf8), date: Self.date), key: Self.key))
        let patched = Self.resealed(bytes) { $0[12] |= 1 << 4 }  // no-cache without "has freshness"
        #expect(patched.withUnsafeBytes { CacheFileFormat.decode($0, keyText: Self.key.text) } == .failure(.malformed))
    }

    @Test func aNegativeOrNonFiniteNumberIsMalformed() throws {
        let entry = CacheEntry(body: Data("b".utf8), date: Self.date, freshness: ServerFreshness(lifetime: 60))
        let bytes = try #require(CacheFileFormat.encode(entry, key: Self.key))
        let blockStart = CacheFileFormat.fixedHeaderSize + Self.key.endpoint.utf8.count + Self.key.text.utf8.count
        for bad in [-1.0, .nan, .infinity] {
            let patched = Self.resealed(bytes) { bytes in
                withUnsafeBytes(of: bad.bitPattern.littleEndian) { bytes.replaceSubrange(blockStart..<blockStart + 8, with: $0) }
            }
            #expect(patched.withUnsafeBytes { CacheFileFormat.decode($0, keyText: Self.key.text) } == .failure(.malformed))
        }
    }

    @Test func aNumberTheFormatCannotHoldIsWrittenAsZero() throws {
        let entry = CacheEntry(body: Data(), date: Self.date, freshness: ServerFreshness(lifetime: -5, initialAge: .infinity))
        let bytes = try #require(CacheFileFormat.encode(entry, key: Self.key))
        let layout = try bytes.withUnsafeBytes { try CacheFileFormat.decode($0, keyText: Self.key.text).get() }
        #expect(layout.freshness == ServerFreshness(lifetime: 0, initialAge: 0))
    }

    /// `bytes` changed by `edit`, with the checksum recomputed so only the edit is wrong.
    static func resealed(_ bytes: [UInt8], _ edit: (inout [UInt8]) -> Void) -> [UInt8] {
        var bytes = bytes
        edit(&bytes)
        let end = bytes.count - CacheFileFormat.checksumSize
        let checksum = bytes.withUnsafeBytes { XXH64.hash(UnsafeRawBufferPointer(rebasing: $0[..<end])) }
        withUnsafeBytes(of: checksum.littleEndian) { bytes.replaceSubrange(end..<bytes.count, with: $0) }
        return bytes
    }
}
