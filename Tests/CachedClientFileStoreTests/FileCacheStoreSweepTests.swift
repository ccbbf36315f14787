import StoreTestSupport
import Foundation
import Testing

import CachedClientFileStore
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// The running count, `maxBytes` and `maxAge`, and when sweeps run.
@Suite("FileCacheStore: sweeps and limits")
struct FileCacheStoreSweepTests {
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

    /// A sparse file can claim exabytes on tmpfs, XFS or btrfs (`/tmp` is tmpfs on many
    /// distributions): a few in a cache folder, made by another program or by hand, add up past
    /// `Int.max`. Sweeps and removals count them, held at the largest size there is, and never trap.
    @Test(.enabled(if: FileManager.default.isWritableFile(atPath: "/dev/shm"), "sparse files of 2^62 bytes need tmpfs"))
    func sparseFilesThatClaimExabytesAreCountedNeverATrap() async throws {
        let directory = URL(fileURLWithPath: "/dev/shm/cachegen-sparse-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileCacheStore(directory: directory, maxBytes: 1 << 20)
        let key = storeKey("1")
        let sparse = ["a", "b", "c", "d"].map {
            (store.folder.entryPath(for: key) as NSString).deletingLastPathComponent + "/" + String(repeating: $0, count: 64)
        }
        func placeSparseFiles() async throws {
            try await store.setEntry(storeEntry("a"), for: key)
            await store.waitForSweep()  // the one a first write starts: `trim()` below is the only one to see them
            for path in sparse {
                let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
                try #require(fd >= 0)
                defer { close(fd) }
                try #require(ftruncate(fd, 1 << 62) == 0)  // four of them: 2^64 bytes
            }
        }

        try await placeSparseFiles()
        await store.trim()  // over maxBytes: they all go in one sweep, least recently used first
        #expect(sparse.allSatisfy { !FileManager.default.fileExists(atPath: $0) })
        let size = try await store.totalSize()
        #expect((0...(1 << 20)).contains(size))

        try await placeSparseFiles()
        try await store.removeAll(partition: "user-1")
        #expect(try await store.totalSize() == 0)
        #expect(try await store.entryCount() == 0)
        #expect(sparse.allSatisfy { !FileManager.default.fileExists(atPath: $0) })
    }

    @Test func overflowingMaxBytesEvictsLeastRecentlyUsedFirst() async throws {
        try await withStoreDirectory { directory in
            let clock = StoreTestClock()
            let events = EventLog()
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
            let events = EventLog()
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
            let events = EventLog()
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
}

/// The file's modification date, which the store keeps as the entry's last use.
private func modificationDate(of path: String) throws -> Date? {
    try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
}
