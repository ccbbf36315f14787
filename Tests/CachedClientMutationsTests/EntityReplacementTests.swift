import CachedClientTestSupport
import FixtureServerSupport
import Foundation
import Testing

@_spi(Generated) import CachedClientCalls
@_spi(Generated) import CachedClientMutations
import CachedClientFileStore
import CachedClientHTTP
import CachedClientQueries
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// A model with the same `id` key as `Note` but another shape: never taken for a note.
struct Label: Codable, Sendable, Equatable {
    var id: String
    var color: Int
}

/// A mutation's answer that is a `CachedEntity` replaces it by id in every cached value the
/// client holds for the partition: lists, details, live queries, and the store's entries.
@Suite(.timeLimit(.minutes(1)))
@MainActor
struct EntityReplacementTests {
    static let detail = Endpoint(name: "Notes.get", cache: CacheRule(ttl: 600, maxStale: 86_400))
    static let labels = Endpoint(name: "Labels.list", cache: CacheRule(ttl: 600, maxStale: 86_400))

    static func edit(_ client: CachedClient, id: String, text: String) async throws -> MutationResult<Note> {
        var request = EndpointRequest(method: "PATCH", path: "/notes/\(id)")
        request.setJSONBody(["text": text], isKey: false)
        return try await client.queueableResponse(for: request, endpoint: NotesAPI.edit, as: Note.self)
    }

    @Test func anEditedNoteIsReplacedInTheListTheDetailAndTheStoreWithoutARequest() async throws {
        let store = MemoryCacheStore()
        let server = NotesServer([Note(id: "s1", text: "one"), Note(id: "s2", text: "two")])
        let client = OfflineFixtures.client(server.transport, store: store)
        let notes = NotesAPI.query(client)
        await notes.load()
        _ = try await client.value(for: EndpointRequest(method: "GET", path: "/notes/s1"), endpoint: Self.detail, as: [Note].self)
        let before = server.transport.requests.count

        let result = try await Self.edit(client, id: "s1", text: "edited")
        #expect(result == .sent(Note(id: "s1", text: "edited")))
        await waitUntil { notes.value?.first?.text == "edited" }
        #expect(notes.value == [Note(id: "s1", text: "edited"), Note(id: "s2", text: "two")])
        let detail = try await client.value(
            for: EndpointRequest(method: "GET", path: "/notes/s1"), endpoint: Self.detail, policy: .cacheOnly, as: [Note].self)
        #expect(detail.value == [Note(id: "s1", text: "edited")])
        #expect(server.transport.requests.count == before + 1)  // the PATCH alone

        // Written back to the store: another client on it reads the edited note.
        await client.flush()
        let other = OfflineFixtures.client(OfflineServer(), store: store)
        let stored = try await other.value(
            for: NotesAPI.listRequest(), endpoint: NotesAPI.list, policy: .cacheOnly, as: [Note].self)
        #expect(stored.value == [Note(id: "s1", text: "edited"), Note(id: "s2", text: "two")])
    }

    @Test func anotherModelWithTheSameIDIsLeftAsItIs() async throws {
        let server = NotesServer()
        server.transport.answer { request in
            if request.method == "GET" { return HTTPResponse(statusCode: 200, body: Data(#"[{"id":"s1","color":3}]"#.utf8)) }
            return HTTPResponse(statusCode: 200, body: Data(#"{"id":"s1","text":"edited"}"#.utf8))
        }
        let client = OfflineFixtures.client(server.transport)
        let labels = EndpointRequest(method: "GET", path: "/labels")
        _ = try await client.value(for: labels, endpoint: Self.labels, as: [Label].self)
        _ = try await Self.edit(client, id: "s1", text: "edited")
        let read = try await client.value(for: labels, endpoint: Self.labels, policy: .cacheOnly, as: [Label].self)
        #expect(read.value == [Label(id: "s1", color: 3)])
    }

    @Test func aQueuedEditReplacesTheNoteWhenItIsSentByAReplay() async throws {
        let server = NotesServer([Note(id: "s1", text: "one")])
        let client = OfflineFixtures.client(server.transport)
        let notes = NotesAPI.query(client)
        await notes.load()
        server.transport.online = false
        #expect(try await Self.edit(client, id: "s1", text: "later").queuedID != nil)
        #expect(notes.value == [Note(id: "s1", text: "one")])
        server.transport.online = true
        await client.replayPendingMutations()
        await waitUntil { notes.value == [Note(id: "s1", text: "later")] }
    }

    @Test func replacementFindsEntitiesNestedInObjectsAndLeavesOtherBodiesAlone() throws {
        let note = Note(id: "n\"1", text: "new")  // an id that JSON escapes: no quick look
        let replacement = try #require(EntityReplacement(note, coding: JSONCoding()))
        let body = Data(#"{"pinned":{"id":"n\"1","text":"old"},"all":[{"id":"n\"1","text":"old"},{"id":"x","text":"y"}]}"#.utf8)
        let replaced = try #require(EntityReplacement.apply([replacement], to: body))
        let value = try JSONDecoder().decode(JSONValue.self, from: replaced)
        #expect(value["pinned"]?["text"] == "new")
        #expect(value["all"]?[0]?["text"] == "new")
        #expect(value["all"]?[1]?["text"] == "y")
        #expect(EntityReplacement.apply([replacement], to: Data(#"[{"id":"x","text":"y"}]"#.utf8)) == nil)
        #expect(EntityReplacement.apply([replacement], to: Data("not json".utf8)) == nil)
    }

    /// A query over `GET /notes/{id}` (the stub answers an array of the one note).
    static func detailQuery(_ client: CachedClient, _ id: String) -> CachedQuery<[Note]> {
        CachedQuery { policy in
            try await client.value(for: EndpointRequest(method: "GET", path: "/notes/\(id)"), endpoint: detail, policy: policy)
        }
    }

    @Test func anOptimisticEntityShowsInEveryQueryHoldingItAndRollsBackOnARefusal() async throws {
        let server = NotesServer([Note(id: "s1", text: "one"), Note(id: "s2", text: "two")])
        let client = OfflineFixtures.client(server.transport)
        let notes = NotesAPI.query(client)
        let one = Self.detailQuery(client, "s1")
        let two = Self.detailQuery(client, "s2")
        for query in [notes, one, two] { await query.load() }
        server.transport.online = false
        let result = try await client.withOptimisticUpdates([.replacing(Note(id: "s1", text: "edited"))]) {
            try await Self.edit(client, id: "s1", text: "edited")
        }
        #expect(result.queuedID != nil)
        #expect(notes.value == [Note(id: "s1", text: "edited"), Note(id: "s2", text: "two")])
        #expect(one.value == [Note(id: "s1", text: "edited")])
        #expect(notes.hasPendingChanges && one.hasPendingChanges)
        #expect(two.value == [Note(id: "s2", text: "two")] && !two.hasPendingChanges)
        let read = try await client.value(for: NotesAPI.listRequest(), endpoint: NotesAPI.list, policy: .cacheOnly, as: [Note].self)
        #expect(read.value == [Note(id: "s1", text: "edited"), Note(id: "s2", text: "two")])

        server.refuseNext(422)
        server.transport.online = true
        await client.replayPendingMutations()
        await waitUntil { !notes.hasPendingChanges && !one.hasPendingChanges }
        #expect(notes.value == [Note(id: "s1", text: "one"), Note(id: "s2", text: "two")])
        #expect(one.value == [Note(id: "s1", text: "one")])
        #expect(client.pendingMutations.items.first?.isFailed == true)
    }

    @Test func anOptimisticEntityIsReplacedByTheServersVersionWithoutARefetch() async throws {
        let server = NotesServer([Note(id: "s1", text: "one"), Note(id: "s2", text: "two")])
        let client = OfflineFixtures.client(server.transport)
        let notes = NotesAPI.query(client)
        await notes.load()
        server.transport.online = false
        _ = try await client.withOptimisticUpdates([.replacing(Note(id: "s1", text: "draft"))]) {
            try await Self.edit(client, id: "s1", text: "final")
        }
        #expect(notes.value?.first == Note(id: "s1", text: "draft"))
        server.transport.online = true
        await client.replayPendingMutations()
        await waitUntil { !notes.hasPendingChanges }
        #expect(notes.value == [Note(id: "s1", text: "final"), Note(id: "s2", text: "two")])
        #expect(server.transport.requests.map(\.method) == ["GET", "PATCH"])
    }
}
