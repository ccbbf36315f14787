import StoreTestSupport
import Foundation
import Testing

import CachedClientFileStore
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// The log of recent removals beside the removal count (`<folder>/removals`): every store on
/// the folder reads what any of them removed; an overflowed, corrupt, foreign or older file
/// says `nil` (everything), never a narrower scope and never a crash.
@Suite("FileCacheStore removal log")
struct FileCacheStoreRemovalLogTests {
    static let alice = CacheKey(text: "alice 1", endpoint: "A.get", partition: "alice", path: "/a/1")
    static let bob = CacheKey(text: "bob 1", endpoint: "A.get", partition: "bob", path: "/a/1")
    static let bobOtherPath = CacheKey(text: "bob 2", endpoint: "A.get", partition: "bob", path: "/a/2")
    static let bobOtherEndpoint = CacheKey(text: "bob 3", endpoint: "B.get", partition: "bob", path: "/a/1")
    static let shared = CacheKey(text: "shared 1", endpoint: "B.get", partition: nil, path: "/b")
    static let keys = [alice, bob, bobOtherPath, bobOtherEndpoint, shared]

    static func covered(_ scopes: [RemovalScope]?) -> [String] {
        keys.filter { key in scopes?.contains { $0.covers(key) } ?? true }.map(\.text)
    }

    /// Each form, made through one store, is read back exactly by another store on the folder.
    @Test func anotherStoreOnTheFolderReadsEachRemovalsScope() async throws {
        try await withStoreDirectory { directory in
            let remover = try FileCacheStore(directory: directory)
            let reader = try FileCacheStore(directory: directory)
            let forms: [(String, [String], @Sendable () async throws -> Void)] = [
                ("partition", ["alice 1"], { try await remover.removeAll(partition: "alice") }),
                ("endpoint", ["bob 3", "shared 1"], { try await remover.removeAll(endpoint: "B.get") }),
                ("path", ["alice 1", "bob 1"], { try await remover.removeAll(endpoint: "A.get", path: "/a/1") }),
                ("everything", Self.keys.map(\.text), { try await remover.removeAll() }),
            ]
            for (name, expected, remove) in forms {
                let before = reader.removalCount
                #expect(reader.removals(since: before) == [], "\(name)")
                try await remove()
                #expect(reader.removalCount == before + 2, "\(name)")
                #expect(Self.covered(reader.removals(since: before)) == expected, "\(name)")
            }
            // From the first count: all four removals, so every key.
            #expect(Self.covered(reader.removals(since: 0)) == Self.keys.map(\.text))
        }
    }

    /// 63 removals (126 moves) are known; one more and the oldest is gone: `nil`.
    @Test func anOverflowedLogSaysNothing() async throws {
        try await withStoreDirectory { directory in
            let store = try FileCacheStore(directory: directory)
            for _ in 0..<63 { try await store.removeAll(partition: "alice") }
            #expect(Self.covered(store.removals(since: 0)) == ["alice 1"])
            try await store.removeAll(partition: "alice")
            #expect(store.removals(since: 0) == nil)
            #expect(Self.covered(store.removals(since: 2)) == ["alice 1"])
        }
    }

    /// A counter file of the format before the log (eight bytes) is grown, keeps its number,
    /// and logs from then on; the numbers it moved before are unknown.
    @Test func anOlderCounterFileIsGrownAndLogsFromThenOn() async throws {
        try await withStoreDirectory { directory in
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let path = directory.appending(path: "removals")
            try withUnsafeBytes(of: UInt64(40).littleEndian) { try Data($0).write(to: path) }
            let store = try FileCacheStore(directory: directory)
            #expect(store.removalCount == 40)
            #expect(store.removals(since: 39) == nil)
            #expect(try Data(contentsOf: path).count == FileCacheStore.RemovalLog.fileLength)
            try await store.removeAll(partition: "alice")
            #expect(store.removalCount == 42)
            #expect(Self.covered(store.removals(since: 40)) == ["alice 1"])
            #expect(store.removals(since: 39) == nil)
        }
    }

    /// A number moved by a store that does not log (an older version): `nil` across it.
    @Test func aMoveWithoutASlotSaysNothing() async throws {
        try await withStoreDirectory { directory in
            let store = try FileCacheStore(directory: directory)
            try await store.removeAll(partition: "alice")
            let path = directory.appending(path: "removals")
            let handle = try FileHandle(forUpdating: path)
            try handle.write(contentsOf: withUnsafeBytes(of: UInt64(3).littleEndian) { Data($0) })
            try handle.close()
            #expect(store.removalCount == 3)
            #expect(store.removals(since: 2) == nil)
            #expect(Self.covered(store.removals(since: 1)) == Self.keys.map(\.text))
            try await store.removeAll(partition: "alice")
            #expect(Self.covered(store.removals(since: 3)) == ["alice 1"])
        }
    }

    /// Any byte of the log changed: a slot fails its check (`nil`), a foreign header is left
    /// alone and makes every answer `nil`; nothing crashes and no scope gets narrower.
    @Test(arguments: [8, 16, 16 + 8, 16 + 16, 16 + 24, 16 + 3 * 32 + 17])
    func aCorruptByteMakesTheLogSayNothing(_ offset: Int) async throws {
        try await withStoreDirectory { directory in
            let store = try FileCacheStore(directory: directory)
            try await store.removeAll(partition: "alice")
            try await store.removeAll(partition: "alice")
            #expect(Self.covered(store.removals(since: 0)) == ["alice 1"])
            let path = directory.appending(path: "removals")
            var bytes = try Data(contentsOf: path)
            // Slots of numbers 1 to 4 sit at 16 + n * 32: corrupt one of them, or the header.
            let target = offset < 16 ? offset : offset + 32
            bytes[target] ^= 0x5A
            try bytes.write(to: path)
            #expect(store.removals(since: 0) == nil, "byte \(target)")
            if offset == 8 {
                // A foreign header stays foreign: later removals are not logged either.
                try await store.removeAll(partition: "alice")
                #expect(store.removals(since: 4) == nil)
                #expect(try Data(contentsOf: path)[8] == bytes[8])
            }
        }
    }

    /// A file that is too short to hold the log (another program's) or filled with anything
    /// gives `nil` once the number has moved, never a crash.
    @Test func aShortFileSaysNothing() async throws {
        #expect(FileCacheStore.RemovalLog.scopes(in: [UInt8](repeating: 1, count: 100), since: 0) == nil)
        #expect(FileCacheStore.RemovalLog.scopes(in: [UInt8](repeating: 0, count: 100), since: 0) == [], "no move, nothing to say")
        #expect(FileCacheStore.RemovalLog.scopes(in: [], since: 0) == nil)
        var bytes = [UInt8](repeating: 0xFF, count: FileCacheStore.RemovalLog.fileLength)
        #expect(FileCacheStore.RemovalLog.scopes(in: bytes, since: 0) == nil)
        bytes.replaceSubrange(8..<16, with: withUnsafeBytes(of: FileCacheStore.RemovalLog.headerMagic.littleEndian) { Array($0) })
        #expect(FileCacheStore.RemovalLog.scopes(in: bytes, since: 0) == nil)
        #expect(FileCacheStore.RemovalLog.scopes(in: bytes, since: UInt64.max) == [])
    }
}
