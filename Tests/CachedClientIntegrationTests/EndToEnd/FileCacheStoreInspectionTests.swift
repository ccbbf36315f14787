import CachedClientTestSupport
import FixtureServerSupport
import Foundation
import StoreTestSupport
import Testing

@_spi(Generated) @testable import CachedClientRuntime

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A look inside a real cache folder (`FileCacheStore.inspect`, `CachedClient.inspect`): the
/// rows a client's calls over the fixture server leave, no credential ever shown, and
/// damaged or hostile files listed as unreadable without a crash, a hang or a change.
@Suite("FileCacheStore inspection", .timeLimit(.minutes(1)))
struct FileCacheStoreInspectionTests {
    static let secrets = ["SECRET-BEARER-1a2b", "SECRET-API-KEY-3c4d", "SECRET-TENANT-5e6f", "SECRET-QUERY-7a8b", "SECRET-IDEMPOTENCY-9c0d"]

    /// A client over the fixture server: two entries of `user-1`, one shared, one of
    /// `user-2`, and two queued mutations, one failed; then the rows, judged 200 s after
    /// the first call.
    @Test func rowsOfAFolderAClientWroteOverTheFixtureServer() async throws {
        try await withStoreDirectory { directory in
            let server = try await FixtureServer.shared
            let prefix = "/inspect-\(UUID().uuidString.lowercased())"
            let clock = TestClock()
            let store = try FileCacheStore(directory: directory, now: clock.function)
            func client(_ partition: String?) -> CachedClient {
                CachedClient(
                    baseURL: URL(string: server.baseURL.absoluteString + prefix + "/v1")!, store: store,
                    transport: URLSessionTransport(timeout: 10), partition: partition,
                    headers: { ["Authorization": "Bearer SECRET-BEARER-1a2b", "X-Api-Key": "SECRET-API-KEY-3c4d"] },
                    now: clock.function)
            }
            for id in ["1", "2"] {
                try await server.setRoute(prefix + "/v1/accounts/\(id)", json: Account(id: id, balance: 10))
            }
            try await server.setRoute(prefix + "/v1/rates", json: Account(id: "rates", balance: 1))
            let alice = client("user-1")
            let start = clock.now
            _ = try await alice.value(for: Fixtures.request(id: "1"), endpoint: Fixtures.endpoint(), as: Account.self)
            clock.advance(by: 150)
            _ = try await alice.value(for: Fixtures.request(id: "2"), endpoint: Fixtures.endpoint(), as: Account.self)
            _ = try await alice.value(
                for: EndpointRequest(method: "GET", path: "/rates"),
                endpoint: Fixtures.endpoint("RateRepository.getRates", scope: .shared), as: Account.self)
            _ = try await client("user-2").value(for: Fixtures.request(id: "1"), endpoint: Fixtures.endpoint(), as: Account.self)
            await alice.flush()
            let waiting = try await store.enqueueMutation(Self.mutation(partition: "user-1", createdAt: start))
            var failed = Self.mutation(partition: nil, createdAt: start.addingTimeInterval(30))
            failed.attempts = 3
            failed.failure = MutationFailure(message: "HTTP 422")
            failed = try await store.enqueueMutation(failed)
            clock.advance(by: 50)

            let found = try #require(try await alice.inspect(ttls: ["AccountRepository.getAccount": 60]))
            #expect(found.date == start.addingTimeInterval(200))
            #expect(found.groups.map(\.partition) == [.shared, .user("user-1"), .user("user-2")])
            #expect(found.groups.map(\.endpoint) == ["RateRepository.getRates", "AccountRepository.getAccount", "AccountRepository.getAccount"])
            #expect(found.groups.map(\.entries) == [1, 2, 1])
            #expect(found.groups.map(\.oldest) == [start.addingTimeInterval(150), start, start.addingTimeInterval(150)])
            #expect(found.groups.map(\.newest) == [start.addingTimeInterval(150), start.addingTimeInterval(150), start.addingTimeInterval(150)])
            // getAccount is fresh for 60 s: the entry 50 s old is, the one 200 s old is not;
            // getRates has no ttl given and no lifetime from the server.
            #expect(found.groups.map(\.fresh) == [0, 1, 1])
            #expect(found.groups.map(\.stale) == [0, 1, 0])
            #expect(found.groups.map(\.unknownFreshness) == [1, 0, 0])
            #expect(found.groups.map(\.pinned) == [0, 0, 0])
            #expect(found.groups.reduce(0) { $0 + $1.bytes } == (try sizeOfEntryFiles(under: directory)))
            #expect(found.groups.allSatisfy { $0.bytes > $0.entries * 64 })
            // The failed one, made signed out, sorts first.
            #expect(found.mutations.map(\.partition) == [.signedOut, .user("user-1")])
            #expect(found.mutations.map(\.id) == [failed.id, waiting.id])
            #expect(found.mutations.map(\.sequence) == [failed.sequence, waiting.sequence])
            #expect(found.mutations.map(\.endpoint) == ["NoteRepository.createNote", "NoteRepository.createNote"])
            #expect(found.mutations.map(\.method) == ["POST", "POST"])
            #expect(found.mutations.map(\.createdAt) == [start.addingTimeInterval(30), start])
            #expect(found.mutations.map(\.attempts) == [3, 0])
            #expect(found.mutations.map(\.bodyBytes) == [24, 24])
            #expect(found.mutations.map(\.failure) == ["HTTP 422", nil])
            #expect(found.unreadable.isEmpty)
            #expect(found.values.isEmpty)
            // The same rows from the folder alone, as another process reads it.
            let fromFolder = try FileCacheStore.inspect(
                directory: directory,
                options: CacheInspection.Options(now: clock.now, ttls: ["AccountRepository.getAccount": 60]))
            #expect(fromFolder == found)
        }
    }

    /// Key headers, the client's credentials, and a queued mutation's headers, query and
    /// idempotency key are never in the table or the JSON, bodies included or not; bodies
    /// are there only when asked for.
    @Test func noCredentialIsShownEvenWithValues() async throws {
        try await withStoreDirectory { directory in
            let server = try await FixtureServer.shared
            let prefix = "/inspect-\(UUID().uuidString.lowercased())"
            let clock = TestClock()
            let store = try FileCacheStore(directory: directory, now: clock.function)
            let client = CachedClient(
                baseURL: URL(string: server.baseURL.absoluteString + prefix + "/v1")!, store: store,
                transport: URLSessionTransport(timeout: 10), partition: "user-1",
                headers: { ["Authorization": "Bearer SECRET-BEARER-1a2b", "X-Api-Key": "SECRET-API-KEY-3c4d"] },
                now: clock.function)
            try await server.setRoute(prefix + "/v1/accounts/1", json: Account(id: "ENTRY-BODY-MARKER", balance: 10))
            var request = Fixtures.request(id: "1")
            request.addHeader("X-Tenant-Key", "SECRET-TENANT-5e6f", isKey: true)
            request.addQuery("api_key", "SECRET-QUERY-7a8b", isKey: true)
            _ = try await client.value(for: request, endpoint: Fixtures.endpoint(), as: Account.self)
            await client.flush()
            _ = try await store.enqueueMutation(Self.mutation(partition: "user-1", createdAt: clock.now))
            // The secrets did reach the folder (the key text, the outbox record): hiding them is the inspection's doing.
            let onDisk = try allPaths(under: directory).compactMap { FileManager.default.contents(atPath: $0) }
                .map { String(decoding: $0, as: UTF8.self) }.joined()
            for secret in ["SECRET-TENANT-5e6f", "SECRET-QUERY-7a8b", "SECRET-IDEMPOTENCY-9c0d", "SECRET-API-KEY-3c4d"] {
                #expect(onDisk.contains(secret), "\(secret) is not on disk, so the check would prove nothing")
            }

            let plain = try #require(try await client.inspect())
            let withValues = try #require(try await client.inspect(includingValues: true))
            for text in [plain.table, plain.json(), withValues.table, withValues.json()] {
                for secret in Self.secrets { #expect(!text.contains(secret), "\(secret) shown") }
            }
            for text in [plain.table, plain.json()] {
                #expect(!text.contains("ENTRY-BODY-MARKER"))
                #expect(!text.contains("MUTATION-BODY"))
            }
            for text in [withValues.table, withValues.json()] {
                #expect(text.contains("ENTRY-BODY-MARKER"))
                #expect(text.contains("MUTATION-BODY"))
            }
            #expect(withValues.values.map(\.kind) == [.entry, .mutation])
            #expect(withValues.values.map(\.path) == ["/accounts/1", "/notes"])
        }
    }

    /// Every kind of damaged or planted file is a row of the unreadable list with the reason
    /// a read would give, the readable entries are still counted, nothing blocks, and the
    /// folder is left exactly as it was (no file removed, no date touched).
    @Test func garbledAndHostileFilesAreListedAsUnreadableAndLeftAlone() async throws {
        try await withStore { store, directory, _, _ in
            var keys: [CacheKey] = []
            for id in 1...9 {
                let key = storeKey("\(id)")
                keys.append(key)
                try await store.setEntry(storeEntry("body \(id)"), for: key)
            }
            func path(_ index: Int) -> String { store.entryPath(for: keys[index]) }
            func relative(_ path: String) -> String { String(path.dropFirst(directory.path.count + 1)) }
            // Truncated, a flipped byte, empty, longer than its header, foreign.
            let truncated = try Data(contentsOf: URL(fileURLWithPath: path(0)))
            try truncated.prefix(truncated.count - 3).write(to: URL(fileURLWithPath: path(0)))
            var flipped = try Data(contentsOf: URL(fileURLWithPath: path(1)))
            flipped[flipped.count - 12] ^= 0xFF
            try flipped.write(to: URL(fileURLWithPath: path(1)))
            try Data().write(to: URL(fileURLWithPath: path(2)))
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path(3)))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("trailing".utf8))
            try handle.close()
            try Data("{\"not\": \"an entry\"}".utf8).write(to: URL(fileURLWithPath: path(4)))
            // A FIFO (which would block a plain `open`), a link to a device, a folder.
            #expect(unlink(path(5)) == 0 && mkfifo(path(5), 0o600) == 0)
            #expect(unlink(path(6)) == 0 && symlink("/dev/zero", path(6)) == 0)
            #expect(unlink(path(7)) == 0 && mkdir(path(7), 0o700) == 0)
            // A valid entry copied to another key's name: the store never reads it there.
            let misplaced = (path(8) as NSString).deletingLastPathComponent + "/" + String(repeating: "a", count: 64)
            #expect(link(path(8), misplaced) == 0)
            // A damaged outbox record, a file where a folder should be, a stray name.
            let outbox = store.outboxPath(partition: "user-1")
            try FileManager.default.createDirectory(atPath: outbox, withIntermediateDirectories: true)
            let record = outbox + "/0000000000000001-0F6C0D2E-0000-4000-8000-000000000001"
            try Data("{\"format\": 1, \"mutation\": ".utf8).write(to: URL(fileURLWithPath: record))
            let stray = directory.path + "/v2/junk"
            try Data("x".utf8).write(to: URL(fileURLWithPath: stray))
            let strayName = (path(8) as NSString).deletingLastPathComponent + "/notes.txt"
            try Data("x".utf8).write(to: URL(fileURLWithPath: strayName))
            let before = try Self.snapshot(directory)

            let result = await finishing(within: .seconds(10)) {
                try FileCacheStore.inspect(directory: directory, options: CacheInspection.Options(now: Fixtures.start))
            }
            let found = try #require(try result?.get(), "the inspection did not finish")
            let expected: [(String, String)] = [
                (relative(path(0)), "truncated file"),
                (relative(path(1)), "checksum mismatch"),
                (relative(path(2)), "empty file"),
                (relative(path(3)), "longer than its header says"),
                (relative(path(4)), "not a cachegen entry"),
                (relative(path(5)), "not a regular file"),
                (relative(path(6)), "not a regular file"),
                (relative(path(7)), "not a regular file"),
                (relative(misplaced), "stored under a different key"),
                (relative(record), "damaged or of an unknown format"),
                ("v2/junk", "not a folder of the cache's layout"),
                (relative(strayName), "not an entry's name"),
            ].sorted { $0.0 < $1.0 }
            #expect(found.unreadable.map(\.file) == expected.map(\.0))
            #expect(found.unreadable.map(\.reason) == expected.map(\.1))
            #expect(found.groups.map(\.entries) == [1])  // the one valid entry, keys[8]
            #expect(found.table.contains("UNREADABLE FILES"))
            #expect(try Self.snapshot(directory) == before, "the inspection changed the folder")
        }
    }

    /// A hostile entry's endpoint name, partition and body cannot put control characters
    /// (a terminal escape, a forged line) into the table.
    @Test func controlCharactersFromAFileAreEscapedInTheTable() async throws {
        try await withStore { store, directory, _, _ in
            let key = storeKey("1", endpoint: "Evil\u{1B}[2J\nfake row", partition: "user\u{7}")
            try await store.setEntry(storeEntry("body\u{1B}]0;title\u{7}"), for: key)
            let found = try FileCacheStore.inspect(
                directory: directory, options: CacheInspection.Options(now: Fixtures.start, includeValues: true))
            #expect(found.groups.map(\.endpoint) == ["Evil\u{1B}[2J\nfake row"])
            let table = found.table
            #expect(!table.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
            #expect(table.contains("Evil\\u{1b}[2J\\u{a}fake row"))
            #expect(table.contains("body\\u{1b}]0;title\\u{7}"))
        }
    }

    /// A `MemoryCacheStore` lists the same rows as a `FileCacheStore` given the same
    /// entries and mutations (sizes apart: it counts bodies, not files).
    @Test func aMemoryStoreListsTheSameRows() async throws {
        try await withStore { fileStore, _, _, _ in
            let memory = MemoryCacheStore()
            let mutation = Self.mutation(partition: "user-1", createdAt: Fixtures.start)
            for store in [fileStore as any CacheStore & MutationOutbox, memory] {
                try await store.setEntry(storeEntry("one"), for: storeKey("1"))
                try await store.setEntry(storeEntry("two", date: Fixtures.start.addingTimeInterval(-90)), for: storeKey("2", partition: nil))
                _ = try await store.enqueueMutation(mutation)
            }
            let options = CacheInspection.Options(now: Fixtures.start, ttls: ["Accounts.get": 60])
            var fromFile = try await fileStore.inspect(options)
            var fromMemory = memory.inspect(options)
            #expect(fromMemory.groups.map(\.bytes) == [3, 3])
            for index in fromFile.groups.indices { fromFile.groups[index].bytes = 0 }
            for index in fromMemory.groups.indices { fromMemory.groups[index].bytes = 0 }
            #expect(fromFile == fromMemory)
            #expect(fromMemory.groups.map(\.partition) == [.shared, .user("user-1")])
            #expect(fromMemory.groups.map(\.stale) == [1, 0])
            #expect(fromMemory.mutations.count == 1)
        }
    }

    /// The entries a prefetch plan pins are counted in `pinned` (a file store's and a memory
    /// store's, and a folder's read alone, as `cachegen-cache` reads it), until unpinned.
    @Test func entriesAPrefetchPinnedAreCountedUntilUnpinned() async throws {
        try await withStoreDirectory { directory in
            let server = try await FixtureServer.shared
            let base = "/inspect-pins-\(UUID().uuidString.prefix(8))"
            for id in 1...3 {
                try await server.setRoute(base + "/items/\(id)", json: TripRepository.Item(id: id, name: "item \(id)"))
            }
            for store in [try FileCacheStore(directory: directory) as any CacheStore, MemoryCacheStore()] {
                let client = CachedClient(baseURL: server.baseURL, store: store, partition: "user-1", retry: .none)
                let repository = TripRepository(client: client, base: base)
                _ = try await repository.item(3)  // stored, not pinned
                var calls: [PrefetchCall] = []
                for id in 1...2 { calls.append(try await PrefetchCall { try await repository.item(id) }) }
                #expect(await client.prefetch(named: "trip", calls).result().state == .finished)
                let pinned = try #require(try await client.inspect())
                #expect(pinned.groups.map(\.entries) == [3])
                #expect(pinned.groups.map(\.pinned) == [2])
                if store is FileCacheStore {
                    #expect(try FileCacheStore.inspect(directory: directory).groups.map(\.pinned) == [2])
                }
                try await client.unpin(named: "trip")
                #expect(try await client.inspect()?.groups.map(\.pinned) == [0])
            }
        }
    }

    /// A folder without a store is an error naming it, not an empty inspection.
    @Test func aFolderWithoutAStoreThrows() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("cachegen-none-\(UUID().uuidString)")
        #expect(throws: FileCacheStoreError.self) { try FileCacheStore.inspect(directory: missing) }
        #expect(!FileManager.default.fileExists(atPath: missing.path), "the inspection created the folder")
    }

    static func mutation(partition: String?, createdAt: Date) -> QueuedMutation {
        QueuedMutation(
            id: UUID().uuidString, partition: partition, scope: "/notes", endpoint: "NoteRepository.createNote", method: "POST",
            path: "/notes", query: [.init(name: "api_key", value: "SECRET-QUERY-7a8b")],
            headers: [.init(name: "X-Api-Key", value: "SECRET-API-KEY-3c4d")], body: Data("{\"text\":\"MUTATION-BODY\"}".utf8),
            contentType: "application/json", idempotencyKey: "SECRET-IDEMPOTENCY-9c0d", createdAt: createdAt)
    }

    /// Every path under the folder with its size and modification date.
    static func snapshot(_ directory: URL) throws -> [String] {
        try allPaths(under: directory).map { path in
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let date = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1
            return "\(path) \(attributes[.size] ?? -1) \(date)"
        }
    }
}
