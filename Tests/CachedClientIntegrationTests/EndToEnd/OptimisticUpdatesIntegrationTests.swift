import CachedClientTestSupport
import FixtureServerSupport
import Foundation
import StoreTestSupport
import Testing

@_spi(Generated) @testable import CachedClientRuntime

/// Optimistic updates against the fixture server (`fixture_server.py`'s collections): an
/// offline create shown at once in a held list query as pending, then replaced by the
/// server's item; a refusal that rolls the change back and is reported.
@Suite(.serialized, .timeLimit(.minutes(1)))
@MainActor
struct OptimisticUpdatesIntegrationTests {
    let server: FixtureServer

    init() async throws {
        server = try await FixtureServer.shared
    }

    static let list = Endpoint(name: "Notes.list", cache: CacheRule(ttl: 600, maxStale: 86_400))

    func client(_ directory: URL, network: SwitchableNetwork, events: EventLog = EventLog()) throws -> CachedClient {
        CachedClient(
            baseURL: server.baseURL, store: try FileCacheStore(directory: directory), transport: network, partition: "user-1",
            retry: .none, events: events.record, offline: OfflineReplay(replaysAtLaunch: false))
    }

    /// `withStoreDirectory` on the main actor.
    func inStoreDirectory(_ body: (URL) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("cachegen-store-tests-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await body(directory)
    }

    func listQuery(_ client: CachedClient, path: String) -> CachedQuery<[Note]> {
        CachedQuery { policy in
            try await client.value(for: EndpointRequest(method: "GET", path: path), endpoint: Self.list, policy: policy)
        }
    }

    func create(_ client: CachedClient, _ text: String, path: String) async throws -> MutationResult<Note> {
        try await client.queueableResponse(
            for: OfflineFixtures.request(text, path: path), endpoint: OfflineFixtures.create, as: Note.self,
            invalidating: [Invalidation(Self.list)])
    }

    @Test func anOfflineCreateIsShownPendingInAHeldListThenTheServersItemReplacesIt() async throws {
        try await inStoreDirectory { directory in
            let path = OfflineWritesIntegrationTests.path()
            try await server.setCollectionRoute(path)
            let network = SwitchableNetwork()
            network.online = true
            let client = try client(directory, network: network)
            let notes = listQuery(client, path: path)
            await notes.load()
            #expect(notes.value == [])

            network.online = false
            let draft = Note(id: "draft", text: "on the train")
            let result = try await client.withOptimisticUpdates([notes.optimisticUpdate { $0.append(draft) }]) {
                try await create(client, "on the train", path: path)
            }
            #expect(result.queuedID != nil)
            #expect(notes.value == [draft])
            #expect(notes.hasPendingChanges)
            #expect(client.pendingMutations.waitingCount == 1)

            network.online = true
            client.networkBecameAvailable()
            await waitUntil { notes.value == [Note(id: "s1", text: "on the train")] && !notes.hasPendingChanges }
            await client.pendingMutations.wait { $0.isEmpty }
            let requests = try await server.requests().filter { $0.path == path }
            #expect(requests.map(\.method) == ["GET", "POST", "GET"])
            #expect(requests[1].applied == true)
        }
    }

    @Test func afterARelaunchTheQueuedCreateIsSentOnceAndTheListShowsTheServersItem() async throws {
        try await inStoreDirectory { directory in
            let path = OfflineWritesIntegrationTests.path()
            try await server.setCollectionRoute(path)
            let offline = SwitchableNetwork()
            let before = try client(directory, network: offline)
            let shown = listQuery(before, path: path)
            await shown.load()  // offline and nothing stored: an error, no value
            _ = try await before.withOptimisticUpdates([shown.optimisticUpdate { $0.append(Note(id: "draft", text: "t")) }]) {
                try await create(before, "t", path: path)
            }
            #expect(before.pendingMutations.waitingCount == 1)

            // A relaunch: another client on the same folder; the change lived in the old process.
            let network = SwitchableNetwork()
            network.online = true
            let relaunched = try client(directory, network: network)
            let notes = listQuery(relaunched, path: path)
            await notes.load()
            #expect(notes.value == [] && !notes.hasPendingChanges)
            relaunched.networkBecameAvailable()
            await waitUntil { notes.value == [Note(id: "s1", text: "t")] }
            await relaunched.pendingMutations.wait { $0.isEmpty }
            let posts = try await server.requests().filter { $0.path == path && $0.method == "POST" }
            #expect(posts.count == 1 && posts[0].applied == true)
        }
    }

    @Test func a422RollsBackTheOptimisticValueAndReportsIt() async throws {
        try await inStoreDirectory { directory in
            let path = OfflineWritesIntegrationTests.path()
            try await server.setCollectionRoute(path)
            try await server.setRoute(path, method: "POST", status: 422, json: ["error": "text too short"])
            let network = SwitchableNetwork()
            network.online = true
            let events = EventLog()
            let client = try client(directory, network: network, events: events)
            let notes = listQuery(client, path: path)
            await notes.load()

            network.online = false
            let id = try #require(
                try await client.withOptimisticUpdates([notes.optimisticUpdate { $0.append(Note(id: "draft", text: "x")) }]) {
                    try await create(client, "x", path: path)
                }.queuedID)
            #expect(notes.value == [Note(id: "draft", text: "x")])

            network.online = true
            await client.replayPendingMutations()
            await waitUntil { !notes.hasPendingChanges }
            #expect(notes.value == [])
            let failed = try #require(client.pendingMutations.items.first)
            #expect(failed.id == id)
            guard case .failed(let failure) = failed.state else {
                Issue.record("not failed: \(failed.state)")
                return
            }
            #expect(failure.status == 422)
            #expect(failure.body.map { String(decoding: $0, as: UTF8.self) } == #"{"error":"text too short"}"#)
            #expect(events.all.contains { $0.kind == .mutationFailed && $0.key == id })
            // Nothing was refetched: the list's entry stayed what the server said.
            #expect(try await server.requests().filter { $0.path == path }.map(\.method) == ["GET", "POST"])
        }
    }
}
