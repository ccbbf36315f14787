import StoreTestSupport
import FixtureServerSupport
import Foundation
import Testing

import CachedClientFileStore
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// Reads, writes and single removals: a whole entry or a miss, never a torn or foreign one.
@Suite("FileCacheStore")
struct FileCacheStoreTests {
    @Test func roundTripKeepsEveryField() async throws {
        try await withStore { store, _, _, _ in
            let full = CacheEntry(
                body: Data(#"{"id":"1","balance":12.5}"#.utf8),
                date: Date(timeIntervalSinceReferenceDate: 737_000_000.123_456),
                etag: #"W/"abc""#, lastModified: "Wed, 21 Oct 2015 07:28:00 GMT")
            let bare = CacheEntry(body: Data(), date: Date(timeIntervalSinceReferenceDate: 1), etag: "", lastModified: nil)
            try await store.setEntry(full, for: storeKey("1"))
            try await store.setEntry(bare, for: storeKey("2"))

            #expect(try await store.entry(for: storeKey("1")) == full)
            #expect(try await store.entry(for: storeKey("2")) == bare)
            #expect(try await store.entry(for: storeKey("3")) == nil)

            let replacement = CacheEntry(body: Data("new".utf8), date: Date(timeIntervalSinceReferenceDate: 2))
            try await store.setEntry(replacement, for: storeKey("1"))
            #expect(try await store.entry(for: storeKey("1")) == replacement)
        }
    }

    // MARK: - Unreadable files

    @Test func fileOfAnotherKeyIsAMissAndIsRemoved() async throws {
        try await withStore { store, _, events, _ in
            let a = storeKey("a")
            let b = storeKey("b")
            try await store.setEntry(storeEntry("for a"), for: a)
            try FileManager.default.createDirectory(
                atPath: (store.entryPath(for: b) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: store.entryPath(for: a), toPath: store.entryPath(for: b))

            #expect(try await store.entry(for: b) == nil)
            #expect(!FileManager.default.fileExists(atPath: store.entryPath(for: b)))
            #expect(events.all == [
                CacheEvent(
                    kind: .evict, endpoint: "Accounts.get", key: String(b.digest.prefix(16)),
                    message: "unreadable entry removed: stored under a different key")
            ])
            #expect(try await store.entry(for: a) == storeEntry("for a"))
        }
    }

    @Test(arguments: Corruption.all)
    func unreadableFileIsAMissRemovedAndReported(_ corruption: Corruption) async throws {
        try await withStore { store, _, events, _ in
            let key = storeKey("1")
            try await store.setEntry(storeEntry(String(repeating: "body ", count: 40)), for: key)
            let path = store.entryPath(for: key)
            #expect(try await store.entryCount() == 1)
            try corruption.apply(path)

            #expect(try await store.entry(for: key) == nil)
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(events.all == [
                CacheEvent(
                    kind: .evict, endpoint: "Accounts.get", key: String(key.digest.prefix(16)),
                    message: "unreadable entry removed: \(corruption.reason)")
            ])
            if corruption.name != "folder" {  // a folder swapped in behind the store's back is not in its count
                #expect(try await store.entryCount() == 0)
            }
            // The key is usable again at once.
            try await store.setEntry(storeEntry("again"), for: key)
            #expect(try await store.entry(for: key) == storeEntry("again"))
        }
    }

    // MARK: - Scale and concurrency

    @Test func openingAStoreReadsNoEntry() async throws {
        try await withStore { writer, directory, _, clock in
            let keys = (0..<2_000).map { storeKey("item-\($0)", path: "/items") }  // pages of one list
            for key in keys { try await writer.setEntry(storeEntry("ok"), for: key) }
            // Make every entry unreadable: any store that looked at one would remove and report it.
            let garbage = Data("not an entry".utf8)
            for key in keys { try garbage.write(to: URL(fileURLWithPath: writer.entryPath(for: key))) }

            let events = EventLog()
            let store = try FileCacheStore(
                directory: directory, maxBytes: 1, maxAge: 1, events: events.record, now: { clock.now })
            #expect(events.all.isEmpty)
            #expect(try entryFiles(under: directory).count == 2_000)

            #expect(try await store.entry(for: keys[7]) == nil)
            #expect(events.all.count == 1)
            #expect(try entryFiles(under: directory).count == 1_999)
        }
    }

    @Test func concurrentWritersAndReadersNeverSeeATornEntry() async throws {
        try await withStore { first, directory, events, clock in
            let second = try FileCacheStore(directory: directory, events: events.record, now: { clock.now })
            let key = storeKey("shared")
            let torn = Locked(0)
            let hits = Locked(0)
            try await first.setEntry(patternEntry(1), for: key)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<4 {
                    let store = writer.isMultiple(of: 2) ? first : second
                    group.addTask {
                        for round in 0..<25 {
                            let value = UInt8((writer * 25 + round) % 200 + 1)
                            try await store.setEntry(patternEntry(value), for: key)
                        }
                    }
                }
                for reader in 0..<4 {
                    let store = reader.isMultiple(of: 2) ? second : first
                    group.addTask {
                        for _ in 0..<60 {
                            guard let found = try await store.entry(for: key) else { continue }
                            hits.withLock { $0 += 1 }
                            if let value = found.body.first, found == patternEntry(value) { continue }
                            torn.withLock { $0 += 1 }
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(torn.withLock { $0 } == 0)
            #expect(hits.withLock { $0 } > 0)
            #expect(events.all.isEmpty)
            #expect(try entryFiles(under: directory).count == 1)
            #expect(try allPaths(under: directory).allSatisfy { !$0.contains(".tmp-") })
        }
    }
}

// MARK: - Corruptions

extension FileCacheStoreTests {
    /// One way a file can be unreadable, and the reason the store gives.
    struct Corruption: Sendable, CustomTestStringConvertible {
        var name: String
        var reason: String
        var transform: @Sendable ([UInt8]) -> [UInt8]

        var testDescription: String { name }

        func apply(_ path: String) throws {
            if name == "folder" {
                try FileManager.default.removeItem(atPath: path)
                try FileManager.default.createDirectory(atPath: path + "/inner", withIntermediateDirectories: true)
                return
            }
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            try Data(transform(bytes)).write(to: URL(fileURLWithPath: path))
        }

        static let all: [Corruption] = {
            var all = [
                Corruption(name: "zero length", reason: "empty file") { _ in [] },
                Corruption(name: "random bytes", reason: "not a cachegen entry") { _ in
                    var random = SplitMix64(seed: 7)
                    return (0..<500).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                },
                Corruption(name: "wrong magic", reason: "not a cachegen entry") { bytes in
                    var bytes = bytes
                    bytes[1] = UInt8(ascii: "X")
                    return bytes
                },
                Corruption(name: "older version", reason: "format version 1, expected 2") { bytes in
                    var bytes = bytes
                    bytes[8] = 1
                    return bytes
                },
                Corruption(name: "newer version", reason: "format version 3, expected 2") { bytes in
                    var bytes = bytes
                    bytes[8] = 3
                    return bytes
                },
                Corruption(name: "flipped body byte", reason: "checksum mismatch") { bytes in
                    var bytes = bytes
                    bytes[bytes.count - 20] ^= 0x01
                    return bytes
                },
                Corruption(name: "flipped key byte", reason: "checksum mismatch") { bytes in
                    var bytes = bytes
                    bytes[70] ^= 0x20
                    return bytes
                },
                Corruption(name: "flipped checksum byte", reason: "checksum mismatch") { bytes in
                    var bytes = bytes
                    bytes[bytes.count - 1] ^= 0x80
                    return bytes
                },
                Corruption(name: "trailing bytes", reason: "longer than its header says") { bytes in bytes + [0, 0, 0] },
                Corruption(name: "unknown flag", reason: "malformed file") { bytes in
                    var bytes = bytes
                    bytes[12] |= 0x10
                    return bytes
                },
                Corruption(name: "folder", reason: "not a regular file") { $0 },
            ]
            for offset in [1, 7, 8, 12, 47, 48, 60] {
                all.append(Corruption(name: "truncated at \(offset)", reason: "truncated file") { Array($0.prefix(offset)) })
            }
            for fromEnd in [9, 8, 1] {
                all.append(Corruption(name: "truncated \(fromEnd) before the end", reason: "truncated file") {
                    Array($0.dropLast(fromEnd))
                })
            }
            return all
        }()
    }
}

/// An entry whose every byte, and length, follow from `value`, so a mix of two is detectable.
@Sendable private func patternEntry(_ value: UInt8) -> CacheEntry {
    CacheEntry(
        body: Data(repeating: value, count: 60_000 + Int(value) * 101),
        date: Date(timeIntervalSince1970: Double(value)), etag: "v\(value)")
}
