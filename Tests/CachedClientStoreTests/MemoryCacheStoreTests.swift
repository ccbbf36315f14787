import Foundation
import Testing

import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

@Suite("MemoryCacheStore")
struct MemoryCacheStoreTests {
    @Test func roundTripIsKeyedByTheExactKeyText() {
        let store = MemoryCacheStore()
        let stored = CacheEntry(body: Data("a".utf8), date: Date(timeIntervalSince1970: 5), etag: "e", lastModified: "m")
        store.setEntry(stored, for: memoryKey("1"))
        #expect(store.entry(for: memoryKey("1")) == stored)
        #expect(store.entry(for: memoryKey("2")) == nil)
        #expect(store.entry(for: memoryKey("1", partition: "user-2")) == nil)

        let replacement = CacheEntry(body: Data("b".utf8), date: Date(timeIntervalSince1970: 6))
        store.setEntry(replacement, for: memoryKey("1"))
        #expect(store.entry(for: memoryKey("1")) == replacement)
        #expect(store.entryCount() == 1)

        store.removeEntry(for: memoryKey("1"))
        #expect(store.entry(for: memoryKey("1")) == nil)
    }

    @Test func partitionRemovalKeepsSharedAndOtherUsers() {
        let store = MemoryCacheStore()
        store.setEntry(memoryEntry("1"), for: memoryKey("1", partition: "user-1"))
        store.setEntry(memoryEntry("2"), for: memoryKey("1", partition: "user-2"))
        store.setEntry(memoryEntry("3"), for: memoryKey("1", partition: nil))

        store.removeAll(partition: "user-1")

        #expect(store.keys() == [memoryKey("1", partition: nil), memoryKey("1", partition: "user-2")])
    }

    @Test func endpointRemovalCoversEveryPartition() {
        let store = MemoryCacheStore()
        store.setEntry(memoryEntry("1"), for: memoryKey("1", endpoint: "A.get", partition: "user-1"))
        store.setEntry(memoryEntry("2"), for: memoryKey("1", endpoint: "A.get", partition: nil))
        store.setEntry(memoryEntry("3"), for: memoryKey("1", endpoint: "B.get", partition: "user-1"))

        store.removeAll(endpoint: "A.get")

        #expect(store.keys() == [memoryKey("1", endpoint: "B.get", partition: "user-1")])
        store.removeAll()
        #expect(store.keys().isEmpty)
    }

    @Test func sizesCountBodiesAndEntries() async throws {
        let store = MemoryCacheStore()
        store.setEntry(memoryEntry("abc"), for: memoryKey("1"))
        store.setEntry(memoryEntry("defgh"), for: memoryKey("2"))
        #expect(store.totalSize() == 8)
        #expect(store.entryCount() == 2)

        // Through the protocol, as `CachedClient` uses it.
        let erased: any CacheStore = store
        #expect(try await erased.totalSize() == 8)
        try await erased.removeEntry(for: memoryKey("2"))
        #expect(try await erased.entryCount() == 1)
    }

    @Test func concurrentUseIsSafe() async {
        let store = MemoryCacheStore()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<100 {
                        store.setEntry(memoryEntry("\(index)"), for: memoryKey("\(task)-\(index)"))
                        _ = store.entry(for: memoryKey("\(task)-\(index / 2)"))
                    }
                }
            }
        }
        #expect(store.entryCount() == 800)
    }
}

fileprivate func memoryKey(
    _ id: String, endpoint: String = "Accounts.get", partition: String? = "user-1", path: String? = nil
) -> CacheKey {
    let path = path ?? "/items/\(id)"
    return CacheKey(
        text: "cachegen-key 1\nendpoint \(endpoint)\npath \(path)\nitem \(id)\npartition \(partition ?? "*shared*")",
        endpoint: endpoint, partition: partition, path: path)
}

fileprivate func memoryEntry(_ body: String) -> CacheEntry {
    CacheEntry(body: Data(body.utf8), date: Date(timeIntervalSince1970: 1_700_000_000))
}

/// Every `removeAll…` moves `removalCount`; reads and writes do not.
@Suite("MemoryCacheStore removal count")
struct MemoryCacheStoreRemovalCountTests {
    @Test func everyBulkRemovalMovesTheCount() {
        let store = MemoryCacheStore()
        let removals: [(MemoryCacheStore) -> Void] = [
            { $0.removeAll() },
            { $0.removeAll(partition: "user-1") },
            { $0.removeAll(endpoint: "Accounts.get") },
            { $0.removeAll(endpoint: "Accounts.get", path: "/items/1") },
        ]
        for remove in removals {
            store.setEntry(memoryEntry("1"), for: memoryKey("1"))
            let before = store.removalCount
            _ = store.entry(for: memoryKey("1"))
            #expect(store.removalCount == before)
            remove(store)
            #expect(store.removalCount > before)
        }
    }
}
