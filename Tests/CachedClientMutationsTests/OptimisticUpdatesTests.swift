import CachedClientTestSupport
import FixtureServerSupport
import Foundation
import Observation
import StoreTestSupport
import Testing

@_spi(Generated) import CachedClientCalls
@_spi(Generated) import CachedClientMutations
import CachedClientFileStore
import CachedClientHTTP
import CachedClientQueries
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

extension Note: CachedEntity {
    package static let identityKey = "id"
}

/// A notes server behind `OfflineServer`: `GET /notes` answers the notes it holds, `POST
/// /notes` adds one with an id of its own (or answers `refusal` when set), `PATCH
/// /notes/{id}` answers the note as sent.
final class NotesServer: Sendable {
    let transport = OfflineServer()
    private let state = Locked<(notes: [Note], refusal: Int?)>(([], nil))

    init(_ notes: [Note] = []) {
        state.withLock { $0.notes = notes }
        transport.online = true
        transport.answer { [state] request in
            let path = request.url.path
            if request.method == "GET" {
                var notes = state.withLock { $0.notes }
                if let range = path.range(of: "/notes/") { notes = notes.filter { $0.id == path[range.upperBound...] } }
                return HTTPResponse(statusCode: 200, body: (try? JSONEncoder().encode(notes)) ?? Data())
            }
            let sent = request.body.flatMap { try? JSONDecoder().decode([String: String].self, from: $0) } ?? [:]
            return state.withLock { state in
                if let status = state.refusal {
                    state.refusal = nil
                    return HTTPResponse(statusCode: status, body: Data(#"{"error":"too short"}"#.utf8))
                }
                if request.method == "PATCH" {
                    let note = Note(id: String(path.split(separator: "/").last ?? ""), text: sent["text"] ?? "")
                    return HTTPResponse(statusCode: 200, body: (try? JSONEncoder().encode(note)) ?? Data())
                }
                let note = Note(id: "s\(state.notes.count + 1)", text: sent["text"] ?? "")
                state.notes.append(note)
                return HTTPResponse(statusCode: 201, body: (try? JSONEncoder().encode(note)) ?? Data())
            }
        }
    }

    /// The next POST or PATCH is refused with `status`.
    func refuseNext(_ status: Int) { state.withLock { $0.refusal = status } }

    var gets: Int { transport.requests.filter { $0.method == "GET" }.count }
}

enum NotesAPI {
    static let list = Endpoint(name: "Notes.list", cache: CacheRule(ttl: 600, maxStale: 86_400))
    static let detail = Endpoint(name: "Notes.get", cache: CacheRule(ttl: 600, maxStale: 86_400))
    static let edit = Endpoint(name: "Notes.edit", cache: nil, offline: .queue)

    static func listRequest() -> EndpointRequest { EndpointRequest(method: "GET", path: "/notes") }

    static func create(_ client: CachedClient, _ text: String) async throws -> MutationResult<Note> {
        try await client.queueableResponse(
            for: OfflineFixtures.request(text), endpoint: OfflineFixtures.create, as: Note.self,
            invalidating: [Invalidation(list)])
    }

    @MainActor
    static func query(_ client: CachedClient) -> CachedQuery<[Note]> {
        CachedQuery { policy in try await client.value(for: listRequest(), endpoint: list, policy: policy) }
    }

    static func draft(_ text: String) -> Note { Note(id: "draft-\(text)", text: text) }
}

/// Optimistic updates over a stub server: shown at once in live queries and reads, marked
/// pending, replaced by the server's truth, and rolled back exactly when the mutation fails
/// for good. Nothing sleeps: waits are on observed state.
@Suite(.timeLimit(.minutes(1)))
@MainActor
struct OptimisticUpdatesTests {
    @Test func anOfflineCreateShowsAtOnceAsPendingAndTheServersItemReplacesIt() async throws {
        let server = NotesServer([Note(id: "s0", text: "old")])
        let client = OfflineFixtures.client(server.transport)
        let notes = NotesAPI.query(client)
        await notes.load()
        #expect(notes.value == [Note(id: "s0", text: "old")])
        let pendingChanged = Locked(false)
        withObservationTracking { _ = notes.hasPendingChanges } onChange: { pendingChanged.withLock { $0 = true } }

        server.transport.online = false
        let result = try await client.withOptimisticUpdates([notes.optimisticUpdate { $0.append(NotesAPI.draft("hi")) }]) {
            try await NotesAPI.create(client, "hi")
        }
        #expect(result.queuedID != nil)
        #expect(pendingChanged.withLock { $0 })
        #expect(notes.hasPendingChanges)
        #expect(notes.value == [Note(id: "s0", text: "old"), NotesAPI.draft("hi")])
        // Every read of the entry through the client shows it too.
        let read = try await client.value(for: NotesAPI.listRequest(), endpoint: NotesAPI.list, policy: .cacheOnly, as: [Note].self)
        #expect(read.value == [Note(id: "s0", text: "old"), NotesAPI.draft("hi")])

        server.transport.online = true
        await client.replayPendingMutations()
        await waitUntil { !notes.hasPendingChanges && !notes.isLoading }
        #expect(notes.value == [Note(id: "s0", text: "old"), Note(id: "s2", text: "hi")])
        #expect(server.transport.requests.map(\.method) == ["GET", "POST", "GET"])
        let after = try await client.value(for: NotesAPI.listRequest(), endpoint: NotesAPI.list, policy: .cacheOnly, as: [Note].self)
        #expect(after.value == [Note(id: "s0", text: "old"), Note(id: "s2", text: "hi")])
    }

    @Test func aRefusalOnReplayRollsBackOnlyItsOwnChange() async throws {
        let server = NotesServer()
        let events = EventLog()
        let client = OfflineFixtures.client(server.transport, events: events)
        let notes = NotesAPI.query(client)
        await notes.load()
        server.transport.online = false
        // Two creates of one scope, each with its change; the first will be refused.
        var ids: [String] = []
        for text in ["first", "second"] {
            let result = try await client.withOptimisticUpdates([notes.optimisticUpdate { $0.append(NotesAPI.draft(text)) }]) {
                try await NotesAPI.create(client, text)
            }
            ids.append(try #require(result.queuedID))
        }
        #expect(notes.value == [NotesAPI.draft("first"), NotesAPI.draft("second")])

        server.refuseNext(422)
        server.transport.online = true
        await client.replayPendingMutations()
        await waitUntil { notes.value?.contains(NotesAPI.draft("first")) == false && !notes.isLoading }
        // The refused change is gone; the second went through and the server's item shows.
        await waitUntil { !notes.hasPendingChanges }
        #expect(notes.value == [Note(id: "s1", text: "second")])
        let failed = try #require(client.pendingMutations.items.first)
        #expect(failed.id == ids[0])
        #expect(failed.state == .failed(MutationFailure(status: 422, message: "refused by the server", body: Data(#"{"error":"too short"}"#.utf8))))
        #expect(events.all.contains { $0.kind == .mutationFailed && $0.key == ids[0] })
    }

    @Test func rollingBackTheEarlierOfTwoPendingChangesKeepsTheLaterApplied() async throws {
        let server = NotesServer([Note(id: "s0", text: "a")])
        let client = OfflineFixtures.client(server.transport)
        let notes = NotesAPI.query(client)
        await notes.load()
        server.transport.online = false
        let first = try await client.withOptimisticUpdates([notes.optimisticUpdate { $0[0].text = "b" }]) {
            try await NotesAPI.create(client, "b")
        }
        _ = try await client.withOptimisticUpdates([notes.optimisticUpdate { $0.append(NotesAPI.draft("c")) }]) {
            try await NotesAPI.create(client, "c")
        }
        #expect(notes.value == [Note(id: "s0", text: "b"), NotesAPI.draft("c")])
        #expect(try await client.discardMutation(id: try #require(first.queuedID)))
        await waitUntil { notes.value == [Note(id: "s0", text: "a"), NotesAPI.draft("c")] }
        #expect(notes.hasPendingChanges)
        #expect(client.pendingMutations.items.count == 1)
    }

    @Test func aRefusalNowRollsBackAndThrows() async throws {
        let server = NotesServer([Note(id: "s0", text: "a")])
        let client = OfflineFixtures.client(server.transport)
        let notes = NotesAPI.query(client)
        await notes.load()
        server.refuseNext(422)
        await #expect(throws: CachedClientError.httpStatus(422, endpoint: "Notes.create", body: Data(#"{"error":"too short"}"#.utf8))) {
            try await client.withOptimisticUpdates([notes.optimisticUpdate { $0.append(NotesAPI.draft("x")) }]) {
                try await NotesAPI.create(client, "x")
            }
        }
        await waitUntil { !notes.hasPendingChanges }
        #expect(notes.value == [Note(id: "s0", text: "a")])
        #expect(client.pendingMutations.items.isEmpty)
    }

    @Test func aCallThatThrowsBeforeAnyMutationRollsBack() async throws {
        let server = NotesServer([Note(id: "s0", text: "a")])
        let client = OfflineFixtures.client(server.transport)
        let notes = NotesAPI.query(client)
        await notes.load()
        struct Cancelled: Error {}
        await #expect(throws: Cancelled.self) {
            try await client.withOptimisticUpdates([notes.optimisticUpdate { $0.removeAll() }]) { throw Cancelled() }
        }
        #expect(notes.value == [Note(id: "s0", text: "a")])
        #expect(!notes.hasPendingChanges)
    }

    @Test func aMutationWithoutAQueueSettlesWhenItReturns() async throws {
        let server = NotesServer()
        let client = OfflineFixtures.client(server.transport)
        let notes = NotesAPI.query(client)
        await notes.load()
        let note = try await client.withOptimisticUpdates([notes.optimisticUpdate { $0.append(NotesAPI.draft("p")) }]) {
            #expect(notes.value == [NotesAPI.draft("p")])
            return try await client.response(
                for: OfflineFixtures.request("p"), endpoint: OfflineFixtures.plain, as: Note.self, invalidating: [])
        }
        #expect(note == Note(id: "s1", text: "p"))
        // Its change's entry is refetched though the endpoint invalidates nothing.
        await waitUntil { !notes.hasPendingChanges && !notes.isLoading }
        #expect(notes.value == [Note(id: "s1", text: "p")])
        #expect(server.gets == 2)
    }

    @Test func anOtherQueryOfTheSameEntryShowsTheChangeAndSignOutRollsItBack() async throws {
        let server = NotesServer()
        let client = OfflineFixtures.client(server.transport)
        let notes = NotesAPI.query(client)
        let again = NotesAPI.query(client)
        await notes.load()
        await again.load()
        server.transport.online = false
        _ = try await client.withOptimisticUpdates([notes.optimisticUpdate { $0.append(NotesAPI.draft("z")) }]) {
            try await NotesAPI.create(client, "z")
        }
        #expect(again.value == [NotesAPI.draft("z")])
        #expect(again.hasPendingChanges)
        try await client.removeAll(partition: "user-1")
        await waitUntil { !again.hasPendingChanges }
        #expect(client.optimistic.isEmpty)
    }

    @Test func aClientWithAQueuedOptimisticMutationIsReleasedWithItsQueries() async throws {
        weak var released: CachedClient?
        do {
            let server = NotesServer()
            let client = OfflineFixtures.client(server.transport)
            let notes = NotesAPI.query(client)
            await notes.load()
            server.transport.online = false
            _ = try await client.withOptimisticUpdates([notes.optimisticUpdate { $0.append(NotesAPI.draft("x")) }]) {
                try await NotesAPI.create(client, "x")
            }
            #expect(notes.hasPendingChanges)
            released = client
        }
        // Tasks that held it for a moment (a hop to the main actor, the replay timer) end.
        for _ in 0..<100_000 where released != nil { await Task.yield() }
        #expect(released == nil)
    }
}
