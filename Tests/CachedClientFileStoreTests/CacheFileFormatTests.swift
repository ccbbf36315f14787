import StoreTestSupport
import Foundation
import Testing

import CachedClientFileStore
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// The on-disk form: what is encoded decodes back, and the header reads alone.
@Suite("CacheFileFormat")
struct CacheFileFormatTests {
    @Test func formatDecodesWhatItEncodesAndReadsTheHeaderAlone() throws {
        let key = storeKey("1")
        let stored = CacheEntry(body: Data("body".utf8), date: Date(timeIntervalSinceReferenceDate: 42.5), etag: "e")
        let bytes = try #require(CacheFileFormat.encode(stored, key: key))
        #expect(bytes.count == 56 + key.endpoint.utf8.count + key.text.utf8.count + 1 + 0 + 4)
        #expect(Array(bytes.prefix(8)) == CacheFileFormat.magic)

        let layout = try bytes.withUnsafeBytes { try CacheFileFormat.decode($0, keyText: key.text).get() }
        #expect(layout.date == stored.date)
        #expect(layout.etag == "e")
        #expect(layout.lastModified == nil)
        #expect(Data(bytes[layout.bodyOffset..<layout.bodyOffset + layout.bodyCount]) == stored.body)

        let header = bytes.withUnsafeBytes { CacheFileFormat.header(of: UnsafeRawBufferPointer(rebasing: $0[..<80])) }
        #expect(header?.endpoint == "Accounts.get")
        #expect(header?.date == stored.date)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e300, -4e11])
    func aDateNoAppCouldShowIsMalformedAndReadsAsAMiss(_ seconds: Double) async throws {
        let key = storeKey("1")
        let entry = CacheEntry(body: Data("body".utf8), date: Date(timeIntervalSinceReferenceDate: seconds))
        let bytes = try #require(CacheFileFormat.encode(entry, key: key))
        #expect(bytes.withUnsafeBytes { CacheFileFormat.decode($0, keyText: key.text) } == .failure(.malformed))

        try await withStoreDirectory { directory in
            let events = EventLog()
            let store = try FileCacheStore(directory: directory, events: events.record)
            try await store.setEntry(entry, for: key)
            #expect(try await store.entry(for: key) == nil)
            #expect(try await store.entryCount() == 0)  // removed, not kept
            #expect(events.all.map(\.description).contains { $0.hasPrefix("evict") && $0.contains("unreadable entry removed") })
        }
    }
}
