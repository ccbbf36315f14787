import Foundation
import Testing

@_spi(Generated) @testable import CachedClientRuntime

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

@Suite("FileCacheStore")
struct FileCacheStoreTests {
    // MARK: - Round trip and layout

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

    @Test func entriesLiveInHashedPartitionEndpointAndPathFolders() async throws {
        try await withStore { store, directory, _, _ in
            try await store.setEntry(storeEntry("a"), for: storeKey("1", partition: "alice@example.com"))
            try await store.setEntry(storeEntry("b"), for: storeKey("1", partition: nil))

            let user = storeKey("1", partition: "alice@example.com")
            let expectedUser = directory.path + "/v2/p-" + String(SHA256.hex(of: Data("alice@example.com".utf8)).prefix(32))
                + "/" + String(SHA256.hex(of: Data("Accounts.get".utf8)).prefix(32))
                + "/" + String(SHA256.hex(of: Data("/items/1".utf8)).prefix(32)) + "/" + user.digest
            #expect(store.entryPath(for: user) == expectedUser)
            #expect(FileManager.default.fileExists(atPath: expectedUser))

            let shared = storeKey("1", partition: nil)
            let expectedShared = directory.path + "/v2/shared/"
                + String(SHA256.hex(of: Data("Accounts.get".utf8)).prefix(32))
                + "/" + String(SHA256.hex(of: Data("/items/1".utf8)).prefix(32)) + "/" + shared.digest
            #expect(store.entryPath(for: shared) == expectedShared)
            #expect(FileManager.default.fileExists(atPath: expectedShared))

            let paths = try allPaths(under: directory)
            #expect(!paths.isEmpty)
            #expect(!paths.contains { $0.contains("alice") || $0.contains("Accounts") || $0.contains("items") })
            // No temporary file is left behind by a write.
            #expect(!paths.contains { $0.contains(".tmp-") })
        }
    }

    @Test func foldersAre0700AndFiles0600() async throws {
        try await withStoreDirectory { temporary in
            let root = temporary.appendingPathComponent("nested/store", isDirectory: true)
            let store = try FileCacheStore(directory: root)
            let key = storeKey("1")
            try await store.setEntry(storeEntry("x"), for: key)

            let file = URL(fileURLWithPath: store.entryPath(for: key))
            let pathFolder = file.deletingLastPathComponent()
            let endpointFolder = pathFolder.deletingLastPathComponent()
            let partitionFolder = endpointFolder.deletingLastPathComponent()
            let layoutFolder = partitionFolder.deletingLastPathComponent()
            #expect(layoutFolder.lastPathComponent == "v2")
            for folder in [temporary.appendingPathComponent("nested"), root, layoutFolder, partitionFolder, endpointFolder, pathFolder] {
                #expect(permissions(of: folder) == 0o700, "\(folder.path)")
            }
            #expect(permissions(of: file) == 0o600)
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

    // MARK: - Removal and sizes

    @Test func removeAllPartitionKeepsOtherUsersAndSharedEntries() async throws {
        try await withStore { store, directory, _, _ in
            try await store.setEntry(storeEntry("1"), for: storeKey("1", partition: "user-1"))
            try await store.setEntry(storeEntry("2"), for: storeKey("2", endpoint: "Other.list", partition: "user-1"))
            try await store.setEntry(storeEntry("3"), for: storeKey("1", partition: "user-2"))
            try await store.setEntry(storeEntry("4"), for: storeKey("1", partition: nil))
            try await store.setEntry(storeEntry("5"), for: storeKey("1", partition: ""))

            try await store.removeAll(partition: "user-1")

            #expect(try await store.entry(for: storeKey("1", partition: "user-1")) == nil)
            #expect(try await store.entry(for: storeKey("2", endpoint: "Other.list", partition: "user-1")) == nil)
            #expect(try await store.entry(for: storeKey("1", partition: "user-2")) == storeEntry("3"))
            #expect(try await store.entry(for: storeKey("1", partition: nil)) == storeEntry("4"))
            #expect(try await store.entry(for: storeKey("1", partition: "")) == storeEntry("5"))
            let partitionFolder = directory.path + "/v2/" + FileCacheStore.partitionFolderName("user-1")
            #expect(!FileManager.default.fileExists(atPath: partitionFolder))
            #expect(try await store.entryCount() == 3)
            #expect(try await store.totalSize() == (try sizeOfEntryFiles(under: directory)))
            #expect(try allPaths(under: directory).allSatisfy { !$0.contains("trash") })

            try await store.removeAll(partition: "nobody")
            #expect(try await store.entryCount() == 3)
        }
    }

    @Test func removeAllEndpointRemovesItInEveryPartition() async throws {
        try await withStore { store, directory, _, _ in
            try await store.setEntry(storeEntry("1"), for: storeKey("1", endpoint: "A.get", partition: "user-1"))
            try await store.setEntry(storeEntry("2"), for: storeKey("2", endpoint: "A.get", partition: "user-2"))
            try await store.setEntry(storeEntry("3"), for: storeKey("3", endpoint: "A.get", partition: nil))
            try await store.setEntry(storeEntry("4"), for: storeKey("1", endpoint: "B.get", partition: "user-1"))
            try await store.setEntry(storeEntry("5"), for: storeKey("5", endpoint: "B.get", partition: nil))

            try await store.removeAll(endpoint: "A.get")

            #expect(try await store.entry(for: storeKey("1", endpoint: "A.get", partition: "user-1")) == nil)
            #expect(try await store.entry(for: storeKey("2", endpoint: "A.get", partition: "user-2")) == nil)
            #expect(try await store.entry(for: storeKey("3", endpoint: "A.get", partition: nil)) == nil)
            #expect(try await store.entry(for: storeKey("1", endpoint: "B.get", partition: "user-1")) == storeEntry("4"))
            #expect(try await store.entry(for: storeKey("5", endpoint: "B.get", partition: nil)) == storeEntry("5"))
            #expect(try await store.entryCount() == 2)
            #expect(try await store.totalSize() == (try sizeOfEntryFiles(under: directory)))
        }
    }

    @Test func removeEntryAndRemoveAll() async throws {
        try await withStore { store, directory, _, _ in
            for id in 1...4 { try await store.setEntry(storeEntry(id.description), for: storeKey(id.description)) }
            try await store.removeEntry(for: storeKey("2"))
            try await store.removeEntry(for: storeKey("never stored"))
            #expect(try await store.entry(for: storeKey("2")) == nil)
            #expect(try await store.entryCount() == 3)

            try await store.removeAll()
            #expect(try await store.entryCount() == 0)
            #expect(try await store.totalSize() == 0)
            for id in 1...4 { #expect(try await store.entry(for: storeKey(id.description)) == nil) }
            #expect(try allPaths(under: directory) == [directory.path + "/v2"])

            // Still usable afterwards.
            try await store.setEntry(storeEntry("back"), for: storeKey("1"))
            #expect(try await store.entry(for: storeKey("1")) == storeEntry("back"))
            #expect(try await store.entryCount() == 1)
        }
    }

    @Test func totalSizeAndEntryCountFollowWritesAndSurviveReopening() async throws {
        try await withStore { store, directory, _, clock in
            #expect(try await store.totalSize() == 0)
            #expect(try await store.entryCount() == 0)
            let small = storeEntry("small")
            let large = storeEntry(String(repeating: "large ", count: 100))
            try await store.setEntry(small, for: storeKey("1"))
            try await store.setEntry(large, for: storeKey("2"))
            let expected = try #require(CacheFileFormat.encode(small, key: storeKey("1"))).count
                + (try #require(CacheFileFormat.encode(large, key: storeKey("2")))).count
            #expect(try await store.totalSize() == expected)
            #expect(try await store.totalSize() == (try sizeOfEntryFiles(under: directory)))
            #expect(try await store.entryCount() == 2)

            try await store.setEntry(small, for: storeKey("2"))  // replaces, smaller
            #expect(try await store.totalSize() == (try sizeOfEntryFiles(under: directory)))
            #expect(try await store.entryCount() == 2)

            let reopened = try FileCacheStore(directory: directory, now: { clock.now })
            #expect(try await reopened.totalSize() == (try sizeOfEntryFiles(under: directory)))
            #expect(try await reopened.entryCount() == 2)
        }
    }

    // MARK: - Limits

    @Test func overflowingMaxBytesEvictsLeastRecentlyUsedFirst() async throws {
        try await withStoreDirectory { directory in
            let clock = StoreTestClock()
            let events = StoreEventLog()
            let size = try #require(CacheFileFormat.encode(storeEntry("body"), key: storeKey("a"))).count
            let store = try FileCacheStore(
                directory: directory, maxBytes: size * 3 + size / 2, events: events.record, now: { clock.now })
            // Uses a granularity apart, so that every read renews its entry's last use.
            let step = FileCacheStore.touchGranularity

            try await store.setEntry(storeEntry("body"), for: storeKey("a"))
            await store.waitForSweep()  // the first write learns the store's size
            clock.advance(step)
            try await store.setEntry(storeEntry("body", date: clock.now), for: storeKey("b"))
            clock.advance(step)
            try await store.setEntry(storeEntry("body"), for: storeKey("c"))
            clock.advance(step)
            #expect(try await store.entry(for: storeKey("a")) != nil)  // a is now more recent than b and c
            #expect(events.all.isEmpty)
            clock.advance(step)
            try await store.setEntry(storeEntry("body"), for: storeKey("d"))  // over the limit
            await store.waitForSweep()

            #expect(events.all == [
                CacheEvent(
                    kind: .evict, endpoint: "Accounts.get", key: String(storeKey("b").digest.prefix(16)), age: 3 * step,
                    message: "evicted: over maxBytes")
            ])
            #expect(try await store.entry(for: storeKey("b")) == nil)
            for id in ["a", "c", "d"] { #expect(try await store.entry(for: storeKey(id)) != nil, "\(id)") }
            #expect(try await store.entryCount() == 3)
            #expect(try await store.totalSize() == size * 3)
        }
    }

    @Test func aReadRenewsTheLastUseOnlyWhenItIsAGranularityOld() async throws {
        try await withStore { store, _, _, clock in
            let key = storeKey("a")
            try await store.setEntry(storeEntry("a"), for: key)
            let path = store.entryPath(for: key)
            let written = clock.now
            #expect(try modificationDate(of: path) == written)

            clock.advance(FileCacheStore.touchGranularity - 1)
            #expect(try await store.entry(for: key) != nil)
            #expect(try modificationDate(of: path) == written)  // recent enough: no metadata write

            clock.advance(1)
            #expect(try await store.entry(for: key) != nil)
            #expect(try modificationDate(of: path) == clock.now)

            clock.advance(FileCacheStore.touchGranularity / 2)
            #expect(try await store.entry(for: key) != nil)
            #expect(try modificationDate(of: path) == written.addingTimeInterval(FileCacheStore.touchGranularity))
        }
    }

    @Test func maxAgeDropsUnusedEntriesInSweepsAndOldEntriesOnRead() async throws {
        try await withStoreDirectory { directory in
            let clock = StoreTestClock()
            let events = StoreEventLog()
            let store = try FileCacheStore(directory: directory, maxAge: 100, events: events.record, now: { clock.now })
            try await store.setEntry(storeEntry("a", date: clock.now), for: storeKey("a"))
            await store.waitForSweep()
            clock.advance(50)
            try await store.setEntry(storeEntry("b", date: clock.now), for: storeKey("b"))

            clock.advance(70)  // a unused for 120 s, b for 70 s
            await store.trim()
            #expect(events.all == [
                CacheEvent(
                    kind: .evict, endpoint: "Accounts.get", key: String(storeKey("a").digest.prefix(16)), age: 120,
                    message: "evicted: unused for longer than maxAge")
            ])
            #expect(try await store.entryCount() == 1)

            clock.advance(40)  // b stored 110 s ago: never returned, removed on read
            #expect(try await store.entry(for: storeKey("b")) == nil)
            #expect(events.all.last == CacheEvent(
                kind: .evict, endpoint: "Accounts.get", key: String(storeKey("b").digest.prefix(16)), age: 110,
                message: "expired entry removed: older than maxAge"))
            #expect(try await store.entryCount() == 0)
            #expect(try sizeOfEntryFiles(under: directory) == 0)
        }
    }

    @Test func aWriteStartsASweepOnceAnHourHasPassed() async throws {
        try await withStoreDirectory { directory in
            let clock = StoreTestClock()
            let events = StoreEventLog()
            let store = try FileCacheStore(directory: directory, maxAge: 600, events: events.record, now: { clock.now })
            try await store.setEntry(storeEntry("old"), for: storeKey("old"))
            await store.waitForSweep()
            clock.advance(FileCacheStore.sweepInterval - 1)
            try await store.setEntry(storeEntry("1"), for: storeKey("1"))
            await store.waitForSweep()
            #expect(events.all.isEmpty)  // too soon for another sweep
            clock.advance(1)
            try await store.setEntry(storeEntry("2"), for: storeKey("2"))
            await store.waitForSweep()
            #expect(events.all.map(\.key) == [String(storeKey("old").digest.prefix(16))])
            #expect(try await store.entryCount() == 2)
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

            let events = StoreEventLog()
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

    // MARK: - Format and helpers

    @Test func xxh64MatchesReferenceVectors() {
        #expect(XXH64.hash(Data()) == 0xEF46_DB37_51D8_E999)
        #expect(XXH64.hash(Data("a".utf8)) == 0xD24E_C4F1_A98C_6E5B)
        #expect(XXH64.hash(Data("abc".utf8)) == 0x44BC_2CF5_AD77_0999)
        #expect(XXH64.hash(Data(repeating: 0x61, count: 32)) == 0x856E_8432_98F9_9AD7)
        #expect(XXH64.hash(Data("0123456789abcdef0123456789abcdef".utf8)) == 0x642A_9495_8E71_E6C5)
        #expect(XXH64.hash(Data("Nobody inspects the spammish repetition".utf8)) == 0xFBCE_A83C_8A37_8BF1)
    }

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

    @Test func defaultFolderFollowsXDGRules() {
        #expect(
            FileCacheStore.xdgDirectory(environment: ["XDG_CACHE_HOME": "/var/cache/app"], home: "/home/me").path
                == "/var/cache/app/cachegen")
        #expect(
            FileCacheStore.xdgDirectory(environment: ["XDG_CACHE_HOME": "relative/cache"], home: "/home/me").path
                == "/home/me/.cache/cachegen")
        #expect(
            FileCacheStore.xdgDirectory(environment: ["HOME": "/home/env"], home: "/home/me").path
                == "/home/env/.cache/cachegen")
        #expect(FileCacheStore.xdgDirectory(environment: [:], home: "/home/me").path == "/home/me/.cache/cachegen")
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
                Corruption(name: "trailing bytes", reason: "malformed file") { bytes in bytes + [0, 0, 0] },
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

    /// A deterministic generator, so "random" test bytes are the same on every run.
    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}

// MARK: - Helpers

/// A settable clock, so ages and last-use dates are exact.
fileprivate final class StoreTestClock: Sendable {
    private let value = Locked(Date(timeIntervalSince1970: 1_700_000_000))
    var now: Date { value.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { value.withLock { $0 += seconds } }
}

/// Collects a store's events.
fileprivate final class StoreEventLog: Sendable {
    private let events = Locked<[CacheEvent]>([])
    var all: [CacheEvent] { events.withLock { $0 } }
    var record: @Sendable (CacheEvent) -> Void { { [events] event in events.withLock { $0.append(event) } } }
}

fileprivate func storeKey(
    _ id: String, endpoint: String = "Accounts.get", partition: String? = "user-1", path: String? = nil, query: String = ""
) -> CacheKey {
    let path = path ?? "/items/\(id)"
    return CacheKey(
        text: "cachegen-key 1\nendpoint \(endpoint)\npath \(path)\nquery \(query)\nitem \(id)\npartition \(partition ?? "*shared*")",
        endpoint: endpoint, partition: partition, path: path)
}

fileprivate func storeEntry(_ body: String, date: Date = Date(timeIntervalSince1970: 1_700_000_000)) -> CacheEntry {
    CacheEntry(body: Data(body.utf8), date: date, etag: "\"\(body.count)\"")
}

/// An entry whose every byte, and length, follow from `value`, so a mix of two is detectable.
@Sendable fileprivate func patternEntry(_ value: UInt8) -> CacheEntry {
    CacheEntry(
        body: Data(repeating: value, count: 60_000 + Int(value) * 101),
        date: Date(timeIntervalSince1970: Double(value)), etag: "v\(value)")
}

fileprivate func withStoreDirectory(_ body: (URL) async throws -> Void) async throws {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("cachegen-store-tests-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try await body(directory)
}

/// A store without limits over a fresh folder, with its event log and clock.
fileprivate func withStore(_ body: (FileCacheStore, URL, StoreEventLog, StoreTestClock) async throws -> Void) async throws {
    try await withStoreDirectory { directory in
        let clock = StoreTestClock()
        let events = StoreEventLog()
        let store = try FileCacheStore(directory: directory, events: events.record, now: { clock.now })
        try await body(store, directory, events, clock)
    }
}

/// The file's modification date, which the store keeps as the entry's last use.
fileprivate func modificationDate(of path: String) throws -> Date? {
    try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
}

fileprivate func allPaths(under directory: URL) throws -> [String] {
    try FileManager.default.subpathsOfDirectory(atPath: directory.path).map { directory.path + "/" + $0 }.sorted()
}

fileprivate func entryFiles(under directory: URL) throws -> [String] {
    try allPaths(under: directory).filter { path in
        var info = stat()
        return (path as NSString).lastPathComponent.count == 64 && lstat(path, &info) == 0
            && Int(info.st_mode) & Int(S_IFMT) == Int(S_IFREG)
    }
}

fileprivate func sizeOfEntryFiles(under directory: URL) throws -> Int {
    try entryFiles(under: directory).reduce(0) { total, path in
        var info = stat()
        _ = lstat(path, &info)
        return total + Int(info.st_size)
    }
}

fileprivate func permissions(of url: URL) -> Int {
    var info = stat()
    guard lstat(url.path, &info) == 0 else { return -1 }
    return Int(info.st_mode) & 0o777
}
