import StoreTestSupport
import Foundation
import Testing

import CachedClientFileStore
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The outbox contract (`MutationOutbox`) on both built-in stores.
@Suite struct MutationOutboxTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case memory, file
        var testDescription: String { rawValue }
    }

    /// A fresh store of `kind`, also as a `CacheStore`, and a way to open it again (a relaunch).
    func withOutbox(
        _ kind: Kind, _ body: (any CacheStore & MutationOutbox, () throws -> any CacheStore & MutationOutbox) async throws -> Void
    ) async throws {
        switch kind {
        case .memory:
            let store = MemoryCacheStore()
            try await body(store, { store })
        case .file:
            try await withStoreDirectory { directory in
                try await body(try FileCacheStore(directory: directory), { try FileCacheStore(directory: directory) })
            }
        }
    }

    @Test(arguments: Kind.allCases)
    func enqueuedMutationsComeBackInOrderWithGrowingSequences(_ kind: Kind) async throws {
        try await withOutbox(kind) { store, reopen in
            var stored: [QueuedMutation] = []
            for name in ["a", "b", "c"] { stored.append(try await store.enqueueMutation(queuedMutation(name))) }
            #expect(stored.map(\.sequence) == stored.map(\.sequence).sorted())
            #expect(Set(stored.map(\.sequence)).count == 3)
            #expect(try await store.queuedMutations(partition: "user-1") == stored)
            #expect(try await reopen().queuedMutations(partition: "user-1") == stored)
            #expect(try await store.queuedMutations(partition: "user-2").isEmpty)
            #expect(try await store.queuedMutations(partition: nil).isEmpty)
            // Entries are not mutations, and mutations are not entries.
            #expect(try await store.entryCount() == 0)
        }
    }

    @Test(arguments: Kind.allCases)
    func updateAndRemoveActOnOneMutation(_ kind: Kind) async throws {
        try await withOutbox(kind) { store, reopen in
            let first = try await store.enqueueMutation(queuedMutation("a"))
            var second = try await store.enqueueMutation(queuedMutation("b"))
            second.attempts = 3
            second.failure = MutationFailure(status: 422, message: "refused", body: Data(#"{"error":"title"}"#.utf8))
            try await store.updateMutation(second)
            #expect(try await reopen().queuedMutations(partition: "user-1") == [first, second])
            #expect(try await reopen().queuedMutation(second) == second)
            var elsewhere = first
            elsewhere.partition = "user-2"
            #expect(try await store.queuedMutation(elsewhere) == nil)
            try await store.removeMutation(first)
            try await store.removeMutation(first)  // gone already: not an error
            #expect(try await reopen().queuedMutations(partition: "user-1") == [second])
            try await store.removeMutation(second)
            #expect(try await store.queuedMutation(second) == nil)
            try await store.updateMutation(second)  // gone: not brought back
            #expect(try await reopen().queuedMutations(partition: "user-1").isEmpty)
        }
    }

    @Test(arguments: Kind.allCases)
    func signOutRemovesThePartitionsMutationsOnly(_ kind: Kind) async throws {
        try await withOutbox(kind) { store, reopen in
            _ = try await store.enqueueMutation(queuedMutation("a", partition: "user-1"))
            let other = try await store.enqueueMutation(queuedMutation("b", partition: "user-2"))
            let signedOut = try await store.enqueueMutation(queuedMutation("c", partition: nil))
            try await store.removeAll(endpoint: "Notes.create")
            try await store.removeAll(endpoint: "Notes.create", path: "/notes")
            #expect(try await store.queuedMutations(partition: "user-1").count == 1)
            try await store.removeAll(partition: "user-1")
            #expect(try await reopen().queuedMutations(partition: "user-1").isEmpty)
            #expect(try await reopen().queuedMutations(partition: "user-2") == [other])
            #expect(try await reopen().queuedMutations(partition: nil) == [signedOut])
            try await store.removeAll()
            #expect(try await reopen().queuedMutations(partition: "user-2").isEmpty)
            #expect(try await reopen().queuedMutations(partition: nil).isEmpty)
        }
    }

    @Test(arguments: Kind.allCases)
    func sequencesKeepGrowingAfterARelaunch(_ kind: Kind) async throws {
        try await withOutbox(kind) { store, reopen in
            let first = try await store.enqueueMutation(queuedMutation("a"))
            let second = try await reopen().enqueueMutation(queuedMutation("b"))
            #expect(second.sequence > first.sequence)
            #expect(try await reopen().queuedMutations(partition: "user-1").map(\.id) == [first.id, second.id])
        }
    }

    // MARK: - FileCacheStore

    @Test func filesArePrivateNamedWithoutUserDataAndBesideThePartitionsEntries() async throws {
        try await withStoreDirectory { directory in
            let store = try FileCacheStore(directory: directory)
            let mutation = try await store.enqueueMutation(
                queuedMutation("secret-trace", partition: "alice@example.com", path: "/notes/alice-private"))
            try await store.setEntry(storeEntry("x"), for: storeKey("1", partition: "alice@example.com"))
            let files = try allPaths(under: directory).filter { $0.contains("/.outbox/") }
            #expect(files.count == 1)
            let file = try #require(files.first)
            #expect(!file.contains("alice") && !file.contains("secret") && !file.contains("notes"))
            #expect(file.hasSuffix("/" + FileCacheStore.outboxName(mutation)))
            #expect(file.hasPrefix(store.outboxPath(partition: "alice@example.com")))
            var info = stat()
            #expect(lstat(file, &info) == 0)
            #expect(Int(info.st_mode) & 0o777 == 0o600)
            #expect(try await store.entryCount() == 1)
            try await store.removeAll(partition: "alice@example.com")
            #expect(try allPaths(under: directory).filter { $0.contains("outbox") }.isEmpty)
        }
    }

    @Test func aTornOrForeignRecordIsListedAsFailedAndCanBeRemoved() async throws {
        try await withStoreDirectory { directory in
            let store = try FileCacheStore(directory: directory)
            let good = try await store.enqueueMutation(queuedMutation("a"))
            let torn = try await store.enqueueMutation(queuedMutation("b"))
            let later = try await store.enqueueMutation(queuedMutation("c"))
            let folder = store.outboxPath(partition: "user-1")
            let tornPath = folder + "/" + FileCacheStore.outboxName(torn)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: tornPath))
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: tornPath))
            // A record of a later format, as after a downgrade, is not guessed at.
            let laterPath = folder + "/" + FileCacheStore.outboxName(later)
            let text = try String(contentsOfFile: laterPath, encoding: .utf8).replacingOccurrences(of: #""format":1"#, with: #""format":2"#)
            try text.write(toFile: laterPath, atomically: true, encoding: .utf8)
            try "not ours".write(toFile: folder + "/README", atomically: true, encoding: .utf8)

            let listed = try await FileCacheStore(directory: directory).queuedMutations(partition: "user-1")
            #expect(listed.map(\.id) == [good.id, torn.id, later.id])
            #expect(listed[0] == good)
            #expect(listed[1].failure?.message == "unreadable queued mutation: damaged or of an unknown format")
            #expect(listed[1].sequence == torn.sequence && listed[1].method.isEmpty)
            #expect(listed[2].failure != nil)
            try await store.removeMutation(listed[1])
            #expect(try await store.queuedMutations(partition: "user-1").map(\.id) == [good.id, later.id])
        }
    }

    @Test func aRecordWithADateNoAppCouldShowIsListedAsFailed() async throws {
        try await withStoreDirectory { directory in
            let store = try FileCacheStore(directory: directory)
            var mutation = queuedMutation("a")
            mutation.createdAt = Date(timeIntervalSinceReferenceDate: 1e300)
            let stored = try await store.enqueueMutation(mutation)
            let listed = try await FileCacheStore(directory: directory).queuedMutations(partition: "user-1")
            #expect(listed.map(\.id) == [stored.id])
            #expect(listed.first?.failure?.message == "unreadable queued mutation: damaged or of an unknown format")
        }
    }

    @Test func aStrayFileAtTheLastSequenceThereIsFailsTheEnqueueNeverTraps() async throws {
        try await withStoreDirectory { directory in
            let before = try FileCacheStore(directory: directory)
            let first = try await before.enqueueMutation(queuedMutation("a"))
            let folder = before.outboxPath(partition: "user-1")
            try Data("{}".utf8).write(to: URL(fileURLWithPath: folder + "/ffffffffffffffff-stray"))

            // A new process lists the folder to learn the next number, and there is none.
            let store = try FileCacheStore(directory: directory)
            await #expect(throws: FileCacheStoreError(operation: "number a queued mutation in", path: folder, code: EOVERFLOW)) {
                try await store.enqueueMutation(queuedMutation("b"))
            }
            let listed = try await store.queuedMutations(partition: "user-1")
            #expect(listed.map(\.id) == [first.id, "stray"])
            #expect(listed[1].failure != nil)
        }
    }

    @Test func sweepsLeaveTheOutboxAlone() async throws {
        try await withStoreDirectory { directory in
            let clock = StoreTestClock()
            let store = try FileCacheStore(directory: directory, maxBytes: 1, maxAge: 1, now: { clock.now })
            let mutation = try await store.enqueueMutation(queuedMutation("a"))
            try await store.setEntry(storeEntry("x"), for: storeKey("1"))
            clock.advance(10_000)
            await store.trim()
            #expect(try await store.entryCount() == 0)
            #expect(try await store.queuedMutations(partition: "user-1") == [mutation])
        }
    }
}
