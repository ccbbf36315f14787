import StoreTestSupport
import Foundation
import Testing

import CachedClientFileStore
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// Removing everything, a partition, an endpoint: gone in every partition it names, kept
/// elsewhere, and taken off the count.
@Suite("FileCacheStore: bulk removal")
struct FileCacheStoreRemovalTests {
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
            #expect(try allPaths(under: directory) == [directory.path + "/removals", directory.path + "/v2"])

            // Still usable afterwards.
            try await store.setEntry(storeEntry("back"), for: storeKey("1"))
            #expect(try await store.entry(for: storeKey("1")) == storeEntry("back"))
            #expect(try await store.entryCount() == 1)
        }
    }
}
