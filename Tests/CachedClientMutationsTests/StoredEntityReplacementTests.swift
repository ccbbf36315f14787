import CachedClientTestSupport
import FixtureServerSupport
import Foundation
import Testing

@_spi(Generated) import CachedClientCalls
@_spi(Generated) import CachedClientMutations
import CachedClientFileStore
import CachedClientHTTP
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// An entity a mutation's answer replaced reaches the entries the client did not hold when it
/// was replaced: entries on disk only (written by another client on the same folder, never in
/// this one's memory) show the new version when read, are written back with their own date,
/// and lose to removals; sign-out forgets the replacements. A mutation queued before a relaunch
/// replaces its entity when a replay sends it. Against the fixture server.
@Suite(.serialized, .timeLimit(.minutes(1)))
@MainActor
struct StoredEntityReplacementTests {
    let server: FixtureServer
    let root = "/stored-\(UUID().uuidString.prefix(8))/notes"
    let clock = TestClock()

    init() async throws {
        server = try await FixtureServer.shared
    }

    static let list = Endpoint(name: "Notes.list", cache: CacheRule(ttl: 600, maxStale: 86_400))
    static let detail = Endpoint(name: "Notes.get", cache: CacheRule(ttl: 600, maxStale: 86_400))
    static let sharedDetail = Endpoint(name: "Notes.getShared", cache: CacheRule(ttl: 600, maxStale: 86_400, scope: .shared))
    static let edit = Endpoint(name: "Notes.edit", cache: nil)

    /// The list, the detail of `s1` (an array of the one note) and its edit.
    func setRoutes() async throws {
        try await server.setRoute(root, json: [Note(id: "s1", text: "one"), Note(id: "s2", text: "two")])
        try await server.setRoute(root + "/s1", json: [Note(id: "s1", text: "one")])
        try await server.setRoute(root + "/s1", method: "PATCH", json: Note(id: "s1", text: "edited"))
    }

    /// A client on a store of its own over `directory`, on the test's clock.
    func client(_ directory: URL, partition: String = "user-1") throws -> CachedClient {
        CachedClient(
            baseURL: server.baseURL, store: try FileCacheStore(directory: directory), partition: partition, retry: .none,
            now: clock.function, offline: OfflineReplay(replaysAtLaunch: false))
    }

    func inStoreDirectory(_ body: (URL) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("cachegen-store-tests-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await body(directory)
    }

    func read(
        _ client: CachedClient, _ path: String, _ endpoint: Endpoint = detail, policy: CachePolicy = .cacheOnly
    ) async throws -> CachedValue<[Note]> {
        try await client.value(for: EndpointRequest(method: "GET", path: path), endpoint: endpoint, policy: policy)
    }

    func editNote(_ client: CachedClient) async throws {
        let note = try await client.response(
            for: EndpointRequest(method: "PATCH", path: root + "/s1"), endpoint: Self.edit, as: Note.self)
        #expect(note == Note(id: "s1", text: "edited"))
    }

    @Test func anEntityReplacedShowsInEntriesReadLaterFromTheStoreWhichKeepTheirDate() async throws {
        try await setRoutes()
        try await inStoreDirectory { directory in
            let writer = try client(directory)
            _ = try await read(writer, root, Self.list, policy: .networkFirst)
            _ = try await read(writer, root + "/s1", policy: .networkFirst)
            await writer.flush()
            let stored = clock.now
            clock.advance(by: 10)

            // Another client on the folder, which never held those entries, edits the note.
            let editor = try client(directory)
            try await editNote(editor)
            let detail = try await read(editor, root + "/s1")
            #expect(detail.value == [Note(id: "s1", text: "edited")])
            #expect(detail.date == stored)
            let list = try await read(editor, root, Self.list)
            #expect(list.value == [Note(id: "s1", text: "edited"), Note(id: "s2", text: "two")])

            // Written back with the date they were stored at: a third client reads them so.
            await editor.flush()
            let third = try client(directory)
            let again = try await read(third, root, Self.list)
            #expect(again.value == [Note(id: "s1", text: "edited"), Note(id: "s2", text: "two")])
            #expect(again.date == stored)
            let requests = try await server.requests().filter { $0.path.hasPrefix(root) }
            #expect(requests.map(\.method) == ["GET", "GET", "PATCH"])
        }
    }

    @Test func theReaderNeverWritesAndTheWriterWritesBackWhatItFoundOutOfDate() async throws {
        try await setRoutes()
        try await inStoreDirectory { directory in
            let writer = try client(directory)
            _ = try await read(writer, root + "/s1", policy: .networkFirst)
            await writer.flush()
            clock.advance(by: 10)
            let editor = try client(directory)
            try await editNote(editor)

            let call = try editor.makeCall(
                EndpointRequest(method: "GET", path: root + "/s1"), endpoint: Self.detail, rule: try #require(Self.detail.cache))
            let read = try #require(await editor.reader.read(call))
            #expect(read.outdated)
            #expect(try JSONDecoder().decode([Note].self, from: read.entry.body) == [Note(id: "s1", text: "edited")])
            // Read twice, and nothing written: the reader only says the entry is out of date.
            #expect(try #require(await editor.reader.read(call)).outdated)
            await editor.flush()
            let before = try #require(try await client(directory).store.entry(for: call.key))
            #expect(try JSONDecoder().decode([Note].self, from: before.body) == [Note(id: "s1", text: "one")])

            // The writer writes it back, with the date it was stored at.
            let entry = try #require(await editor.reader.entry(call, writingBackWith: editor.writer))
            await editor.flush()
            let stored = try #require(try await client(directory).store.entry(for: call.key))
            #expect(stored.body == entry.body && stored.date == entry.date && stored.date == before.date)
        }
    }

    @Test func aRemovalAfterTheReplacementWinsAndALaterAnswerIsLeftAsTheServerSaid() async throws {
        try await setRoutes()
        try await inStoreDirectory { directory in
            let writer = try client(directory)
            _ = try await read(writer, root + "/s1", policy: .networkFirst)
            await writer.flush()
            clock.advance(by: 10)
            let editor = try client(directory)
            try await editNote(editor)
            // Read (and written back) before the removal: the write-back never brings it back.
            #expect(try await read(editor, root + "/s1").value == [Note(id: "s1", text: "edited")])

            try await editor.removeAll(endpoint: Self.detail.name)
            await #expect(throws: CachedClientError.self) { try await read(editor, root + "/s1") }
            await editor.flush()
            await #expect(throws: CachedClientError.self) { try await read(try client(directory), root + "/s1") }

            // An answer stored after the replacement is what the server said then.
            clock.advance(by: 10)
            _ = try await read(writer, root + "/s1", policy: .networkOnly)
            await writer.flush()
            #expect(try await read(editor, root + "/s1").value == [Note(id: "s1", text: "one")])
        }
    }

    @Test func signingOutForgetsTheReplacementsOfThatUser() async throws {
        try await setRoutes()
        try await inStoreDirectory { directory in
            let writer = try client(directory)
            _ = try await read(writer, root + "/s1", Self.sharedDetail, policy: .networkFirst)
            await writer.flush()
            clock.advance(by: 10)
            let editor = try client(directory)
            try await editNote(editor)
            #expect(editor.mutationLayer.replacedEntities.count == 1)

            try await editor.removeAll(partition: "user-1")
            #expect(editor.mutationLayer.replacedEntities.isEmpty)
            // The shared entry stays, as the server last answered it.
            #expect(try await read(editor, root + "/s1", Self.sharedDetail).value == [Note(id: "s1", text: "one")])
        }
    }

    @Test func anUnreadableEntryStoredBeforeAReplacementStaysAMiss() async throws {
        try await setRoutes()
        try await inStoreDirectory { directory in
            let store = try FileCacheStore(directory: directory)
            let editor = CachedClient(
                baseURL: server.baseURL, store: store, partition: "user-1", retry: .none, now: clock.function,
                offline: OfflineReplay(replaysAtLaunch: false))
            let request = EndpointRequest(method: "GET", path: root + "/s1")
            let key = try editor.makeCall(request, endpoint: Self.detail, rule: try #require(Self.detail.cache)).key
            // The id is there, in an object that is not a note: never replaced, never read.
            try await store.setEntry(CacheEntry(body: Data(#"[{"id":"s1","text":5}]"#.utf8), date: clock.now), for: key)
            clock.advance(by: 10)
            try await editNote(editor)
            await #expect(throws: CachedClientError.self) { try await read(editor, root + "/s1") }
            await editor.flush()
            #expect(try await store.entry(for: key) == nil)
        }
    }

    static let queuedEdit = Endpoint(name: "Notes.editQueued", cache: nil, offline: .queue)

    /// Stores the detail of `s1`, then queues its edit offline, in a client that is then gone.
    func queueEditBeforeARelaunch(_ directory: URL) async throws {
        let network = SwitchableNetwork()
        network.online = true
        let before = CachedClient(
            baseURL: server.baseURL, store: try FileCacheStore(directory: directory), transport: network, partition: "user-1",
            retry: .none, now: clock.function, offline: OfflineReplay(replaysAtLaunch: false))
        _ = try await read(before, root + "/s1", policy: .networkFirst)
        network.online = false
        let result = try await before.queueableResponse(
            for: EndpointRequest(method: "PATCH", path: root + "/s1"), endpoint: Self.queuedEdit, as: Note.self)
        #expect(result.queuedID != nil)
        await before.flush()
        clock.advance(by: 10)
    }

    @Test func aReplayAfterARelaunchReplacesTheEntityWithoutACallFirst() async throws {
        try await setRoutes()
        try await inStoreDirectory { directory in
            try await queueEditBeforeARelaunch(directory)
            let after = try client(directory)
            after.readsEntities(of: Self.queuedEdit, as: Note.self)  // what a generated repository's init does
            await after.replayPendingMutations()
            #expect(after.pendingMutations.items.isEmpty)
            #expect(try await read(after, root + "/s1").value == [Note(id: "s1", text: "edited")])
            await after.flush()  // the read wrote the replaced entity back: it lands before the folder goes
        }
    }

    @Test func anAnswerReplayedBeforeTheEndpointIsKnownIsReadWhenItIs() async throws {
        try await setRoutes()
        try await inStoreDirectory { directory in
            try await queueEditBeforeARelaunch(directory)
            let after = try client(directory)
            await after.replayPendingMutations()
            #expect(after.mutationLayer.entityReaders.unreadCount == 1 && after.mutationLayer.replacedEntities.isEmpty)
            let reading = after.readsEntities(of: Self.queuedEdit, as: Note.self)
            #expect(after.mutationLayer.entityReaders.unreadCount == 0)
            await reading?.value
            #expect(after.mutationLayer.replacedEntities.count == 1)
            #expect(try await read(after, root + "/s1").value == [Note(id: "s1", text: "edited")])
            await after.flush()  // the read wrote the replaced entity back: it lands before the folder goes
        }
    }

    @Test func theLogKeepsTheLastThousandReplacementsOneOfEachEntity() throws {
        let log = EntityReplacementLog()
        #expect(log.isEmpty && log.limit == 1_000)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        func replacement(_ number: Int, _ text: String = "x") throws -> EntityReplacement {
            try #require(EntityReplacement(Note(id: "n\(number)", text: text), coding: JSONCoding()))
        }
        for number in 0...1_000 {
            log.remember([try replacement(number)], partition: "user-1", at: start + Double(number))
        }
        #expect(log.count == 1_000)
        let all = log.replacements(in: "user-1", after: .distantPast)
        #expect(all.first?.id == "n1" && all.last?.id == "n1000")  // n0, the oldest, dropped

        // A newer version of an entity takes its older one's place.
        log.remember([try replacement(5, "newer")], partition: "user-1", at: start + 2_000)
        #expect(log.count == 1_000)
        let newest = log.replacements(in: "user-1", after: start + 1_000)
        #expect(newest.map(\.id) == ["n5"] && newest.first?.object["text"] == "newer")
        #expect(log.replacements(in: "user-2", after: .distantPast).isEmpty)

        log.remember([try replacement(1)], partition: "user-2", at: start)
        log.forget(partition: "user-1")
        #expect(log.count == 1)
        log.forgetAll()
        #expect(log.isEmpty)
    }
}
