import CachedClientTestSupport
import Foundation
import StoreTestSupport
import Testing

@_spi(Generated) @testable import CachedClientRuntime
@testable import StoreWriter

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `removalCount` is shared by every store on a folder, in this process or another, and
/// trash a crashed removal left is deleted at the next open or removal.
@Suite("FileCacheStore removal count and trash", .timeLimit(.minutes(1)))
struct FileCacheStoreRemovalCountTests {
    /// Every kind of bulk removal, made through one store (`removeEntry` need not count).
    static let removals: [(String, @Sendable (FileCacheStore) async throws -> Void)] = [
        ("removeAll()", { try await $0.removeAll() }),
        ("removeAll(partition:)", { try await $0.removeAll(partition: "user-1") }),
        ("removeAll(endpoint:)", { try await $0.removeAll(endpoint: "Accounts.get") }),
        ("removeAll(endpoint:path:)", { try await $0.removeAll(endpoint: "Accounts.get", path: "/items/1") }),
    ]

    @Test func twoStoresOnOneFolderSeeEachOthersRemovals() async throws {
        try await withStoreDirectory { directory in
            let first = try FileCacheStore(directory: directory)
            let second = try FileCacheStore(directory: directory)
            #expect(first.removalCount == second.removalCount)
            for (name, remove) in Self.removals {
                for (remover, other) in [(first, second), (second, first)] {
                    try await remover.setEntry(storeEntry("x"), for: storeKey("1"))
                    let before = other.removalCount
                    try await remove(remover)
                    #expect(other.removalCount >= before + 2, "\(name): one before the removal, one after")
                    #expect(remover.removalCount == other.removalCount, "\(name)")
                }
            }
            // Reads and writes leave it alone.
            let before = first.removalCount
            try await second.setEntry(storeEntry("y"), for: storeKey("2"))
            _ = try await second.entry(for: storeKey("2"))
            #expect(first.removalCount == before)
        }
    }

    @Test func aRemovalInAnotherProcessMovesTheCount() async throws {
        try await withStoreDirectory { directory in
            let store = try FileCacheStore(directory: directory)
            try await store.setEntry(storeEntry("alice's"), for: storeKey("1", partition: "alice"))
            let before = store.removalCount

            let child = try await runStoreWriter(["remove-partition", directory.path, "alice"])

            #expect(child.status == 0, "\(child.errors)")
            #expect(store.removalCount >= before + 2)
            #expect(try await store.entry(for: storeKey("1", partition: "alice")) == nil)
        }
    }

    @Test func theCounterFileIsPrivate() async throws {
        try await withStoreDirectory { directory in
            _ = try FileCacheStore(directory: directory)
            let attributes = try FileManager.default.attributesOfItem(atPath: directory.path + "/removals")
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            // The number's eight bytes and the log of recent removals after them.
            #expect((attributes[.size] as? Int) == FileCacheStore.RemovalLog.fileLength)
        }
    }

    @Test func withoutACounterFileStoresInThisProcessStillSeeEachOthersRemovals() async throws {
        try await withStoreDirectory { directory in
            // A folder where the counter file should be: it cannot be opened or mapped.
            try FileManager.default.createDirectory(
                atPath: directory.path + "/removals", withIntermediateDirectories: true)
            let first = try FileCacheStore(directory: directory)
            let second = try FileCacheStore(directory: directory)
            let before = second.removalCount
            try await first.removeAll(partition: "user-1")
            #expect(second.removalCount >= before + 2)
            try await second.removeAll(endpoint: "Accounts.get")
            #expect(first.removalCount >= before + 4)
        }
    }

    // MARK: - Trash

    @Test func trashLeftByACrashIsDeletedWhenAStoreOpens() async throws {
        try await withStoreDirectory { directory in
            _ = try FileCacheStore(directory: directory)
            let trash = try Self.plantTrash(in: directory)

            let store = try FileCacheStore(directory: directory)
            await store.trashCleanup?.value

            #expect(!FileManager.default.fileExists(atPath: trash))
        }
    }

    @Test func trashLeftByACrashIsDeletedByTheNextRemoval() async throws {
        try await withStore { store, directory, _, _ in
            let trash = try Self.plantTrash(in: directory)
            try await store.removeAll(partition: "someone else")
            #expect(!FileManager.default.fileExists(atPath: trash))
        }
    }

    /// A trash folder as a removal killed halfway leaves it: a partition's folders and an entry.
    private static func plantTrash(in directory: URL) throws -> String {
        let trash = directory.path + "/" + FileCacheStore.Trash.prefix + "1f2e3d"
        let folder = trash + "/" + FileCacheStore.Folder.endpointFolderName("Accounts.get") + "/"
            + FileCacheStore.Folder.pathFolderName("/items/1")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: folder + "/" + storeKey("1").digest, contents: Data("secret".utf8)))
        return trash
    }
}
