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
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct OfflineWritesTests {
    @Test func onlineTheCallReturnsTheServersAnswerWithAnIdempotencyKey() async throws {
        let server = OfflineServer()
        server.online = true
        let client = OfflineFixtures.client(server)
        let result = try await client.queueableResponse(for: OfflineFixtures.request("hi"), endpoint: OfflineFixtures.create, as: Note.self)
        #expect(result == .sent(Note(id: "n1", text: "hi")))
        let key = try #require(server.requests.first?.headers["Idempotency-Key"])
        #expect(UUID(uuidString: key) != nil)
        #expect(client.pendingMutations.items.isEmpty)
        #expect(try await client.mutationLayer.queue.outbox.queuedMutations(partition: "user-1").isEmpty)
    }

    @Test func offlineMutationsQueueAndAreSentInOrderWithTheirKeysWhenTheNetworkIsBack() async throws {
        let server = OfflineServer()
        let events = EventLog()
        let client = OfflineFixtures.client(server, events: events)
        let first = try await client.queueableResponse(for: OfflineFixtures.request("one"), endpoint: OfflineFixtures.create, as: Note.self)
        let second = try await client.queueableResponse(for: OfflineFixtures.request("two"), endpoint: OfflineFixtures.create, as: Note.self)
        let firstID = try #require(first.queuedID)
        #expect(second.queuedID != nil)
        #expect(client.pendingMutations.items.map(\.id) == [firstID, second.queuedID])
        #expect(client.pendingMutations.items.map(\.state) == [.queued, .queued])
        #expect(client.pendingMutations.items.map(\.attempts) == [1, 0])
        #expect(await client.mutationLayer.queue.heldBodyBytes == 0)  // bodies stay in the outbox
        #expect(events.kinds == [.mutationSending, .mutationQueued, .mutationQueued])
        let stored = try await client.mutationLayer.queue.outbox.queuedMutations(partition: "user-1")

        server.online = true
        await client.replayPendingMutations()
        #expect(OfflineFixtures.texts(server.requests) == ["one", "two"])
        #expect(server.requests.map { $0.headers["Idempotency-Key"] } == stored.map(\.idempotencyKey))
        #expect(client.pendingMutations.items.isEmpty)
        #expect(try await client.mutationLayer.queue.outbox.queuedMutations(partition: "user-1").isEmpty)
        #expect(events.kinds.suffix(4) == [.mutationSending, .mutationSent, .mutationSending, .mutationSent])
        #expect(events.all.suffix(4).map(\.key) == [firstID, firstID, second.queuedID, second.queuedID])
    }

    @Test(arguments: [500, 502, 503, 429])
    func serverErrorsAndRateLimitsQueueToo(_ status: Int) async throws {
        let server = OfflineServer()
        server.online = true
        server.answer { _ in HTTPResponse(statusCode: status) }
        let client = OfflineFixtures.client(server)
        let result = try await client.queueableResponse(for: OfflineFixtures.request("one"), endpoint: OfflineFixtures.create, as: Note.self)
        #expect(result.queuedID != nil)
        #expect(client.pendingMutations.waitingCount == 1)
    }

    @Test func aRefusedCallThrowsAsBeforeAndLeavesNothingQueued() async throws {
        let server = OfflineServer()
        server.online = true
        server.answer { _ in HTTPResponse(statusCode: 422, body: Data("bad".utf8)) }
        let client = OfflineFixtures.client(server)
        await #expect(throws: CachedClientError.httpStatus(422, endpoint: "Notes.create", body: Data("bad".utf8))) {
            _ = try await client.queueableResponse(for: OfflineFixtures.request("one"), endpoint: OfflineFixtures.create, as: Note.self)
        }
        #expect(client.pendingMutations.items.isEmpty)
        #expect(try await client.mutationLayer.queue.outbox.queuedMutations(partition: "user-1").isEmpty)
    }

    @Test func anEndpointWithoutTheRuleFailsOfflineAsBefore() async throws {
        let client = OfflineFixtures.client(OfflineServer())
        await #expect(throws: URLError.self) {
            _ = try await client.queueableResponse(for: OfflineFixtures.request("one"), endpoint: OfflineFixtures.plain, as: Note.self)
        }
        #expect(client.pendingMutations.items.isEmpty)
    }

    @Test func aReplayRefusedForGoodIsKeptAsFailedUntilRetriedOrDiscarded() async throws {
        let server = OfflineServer()
        let events = EventLog()
        let client = OfflineFixtures.client(server, events: events)
        let bad = try #require(
            try await client.queueableResponse(for: OfflineFixtures.request("bad"), endpoint: OfflineFixtures.create, as: Note.self).queuedID)
        let good = try #require(
            try await client.queueableResponse(for: OfflineFixtures.request("good"), endpoint: OfflineFixtures.create, as: Note.self).queuedID)
        server.online = true
        server.answer { request in
            OfflineFixtures.texts([request]) == ["bad"]
                ? HTTPResponse(statusCode: 422, body: Data(#"{"error":"too short"}"#.utf8))
                : HTTPResponse(statusCode: 201, body: Data(#"{"id":"n2","text":"good"}"#.utf8))
        }
        await client.replayPendingMutations()
        // The failed one does not hold back the rest of its scope.
        #expect(OfflineFixtures.texts(server.requests) == ["bad", "good"])
        let failure = MutationFailure(status: 422, message: "refused by the server", body: Data(#"{"error":"too short"}"#.utf8))
        #expect(client.pendingMutations.items.map(\.id) == [bad])
        #expect(client.pendingMutations.items.map(\.state) == [.failed(failure)])
        #expect(client.pendingMutations.waitingCount == 0)
        #expect(try await client.mutationLayer.queue.outbox.queuedMutations(partition: "user-1").map(\.failure) == [failure])
        #expect(events.all.contains { $0.kind == .mutationFailed && $0.key == bad && $0.message == "status 422: refused by the server" })
        #expect(events.all.contains { $0.kind == .mutationSent && $0.key == good })

        // A retry sends it again, body and key as before.
        #expect(await client.retryMutation(id: bad))
        #expect(OfflineFixtures.texts(server.requests) == ["bad", "good", "bad"])
        #expect(server.requests[2].headers["Idempotency-Key"] == server.requests[0].headers["Idempotency-Key"])
        #expect(client.pendingMutations.items.map(\.state) == [.failed(failure)])

        #expect(try await client.discardMutation(id: bad))
        #expect(try await !client.discardMutation(id: bad))
        #expect(client.pendingMutations.items.isEmpty)
        #expect(try await client.mutationLayer.queue.outbox.queuedMutations(partition: "user-1").isEmpty)
        #expect(events.kinds.last == .mutationDiscarded)
    }

    @Test func theTimerReplaysOnTheInjectedClock() async throws {
        let server = OfflineServer()
        let clock = ManualClock()
        let client = OfflineFixtures.client(server, replay: OfflineReplay(interval: .seconds(30), replaysAtLaunch: false, clock: clock))
        _ = try await client.queueableResponse(for: OfflineFixtures.request("one"), endpoint: OfflineFixtures.create, as: Note.self)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(29))
        #expect(server.requests.isEmpty)
        server.online = true
        clock.advance(by: .seconds(1))
        await client.pendingMutations.wait { $0.isEmpty }
        #expect(OfflineFixtures.texts(server.requests) == ["one"])
    }

    @Test func networkBecameAvailableReplaysAndObserversSeeEachChange() async throws {
        let server = OfflineServer()
        let client = OfflineFixtures.client(server)
        let changed = Locked(0)
        withObservationTracking { _ = client.pendingMutations.items } onChange: { changed.withLock { $0 += 1 } }
        _ = try await client.queueableResponse(for: OfflineFixtures.request("one"), endpoint: OfflineFixtures.create, as: Note.self)
        #expect(changed.withLock { $0 } == 1)
        server.online = true
        client.networkBecameAvailable()
        await client.pendingMutations.wait { $0.isEmpty }
        #expect(OfflineFixtures.texts(server.requests) == ["one"])
    }

    @Test func differentScopesDoNotWaitForEachOther() async throws {
        let server = OfflineServer()
        let client = OfflineFixtures.client(server)
        _ = try await client.queueableResponse(for: OfflineFixtures.request("a", path: "/notes/1"), endpoint: OfflineFixtures.create, as: Note.self)
        server.online = true
        let other = try await client.queueableResponse(for: OfflineFixtures.request("b", path: "/notes/2"), endpoint: OfflineFixtures.create, as: Note.self)
        #expect(other.value != nil)
        #expect(client.pendingMutations.items.count == 1)
    }

    @Test func signOutRemovesQueuedMutationsAndSendsNone() async throws {
        try await withStoreDirectory { directory in
            let server = OfflineServer()
            let store = try FileCacheStore(directory: directory)
            let events = EventLog()
            let client = OfflineFixtures.client(server, store: store, events: events)
            _ = try await client.queueableResponse(for: OfflineFixtures.request("one"), endpoint: OfflineFixtures.create, as: Note.self)
            _ = try await client.queueableResponse(for: OfflineFixtures.request("two"), endpoint: OfflineFixtures.create, as: Note.self)
            client.setPartition(nil)
            try await client.removeAll(partition: "user-1")
            server.online = true
            await client.replayPendingMutations()
            client.setPartition("user-1")
            await client.replayPendingMutations()
            #expect(server.requests.isEmpty)
            #expect(client.pendingMutations.items.isEmpty)
            #expect(try allPaths(under: directory).filter { $0.contains(".outbox/") }.isEmpty)
        }
    }

    @Test func noCredentialIsWrittenToTheOutbox() async throws {
        try await withStoreDirectory { directory in
            let server = OfflineServer()
            let client = OfflineFixtures.client(
                server, store: try FileCacheStore(directory: directory), headers: { ["Authorization": "Bearer token-from-provider"] })
            var request = OfflineFixtures.request("one")
            request.addHeader("Authorization", "Bearer declared-token", isKey: false)
            request.addHeader("X-Trace", "trace-1", isKey: false)
            _ = try await client.queueableResponse(for: request, endpoint: OfflineFixtures.create, as: Note.self)
            let files = try allPaths(under: directory).filter { $0.contains(".outbox/") }
            #expect(files.count == 1)
            let text = try String(contentsOfFile: try #require(files.first), encoding: .utf8)
            #expect(!text.contains("token"))
            #expect(text.contains("trace-1"))
            server.online = true
            await client.replayPendingMutations()
            #expect(server.requests.first?.headers["Authorization"] == "Bearer token-from-provider")
            #expect(server.requests.first?.headers["X-Trace"] == "trace-1")
        }
    }

    @Test func aRelaunchedClientReplaysAtLaunchWithTheSameKey() async throws {
        try await withStoreDirectory { directory in
            let server = OfflineServer()
            let first = OfflineFixtures.client(server, store: try FileCacheStore(directory: directory))
            _ = try await first.queueableResponse(for: OfflineFixtures.request("one"), endpoint: OfflineFixtures.create, as: Note.self)
            let key = try await first.mutationLayer.queue.outbox.queuedMutations(partition: "user-1").first?.idempotencyKey
            server.online = true
            let sent = Signal()
            let events = EventLog()
            let relaunched = CachedClient(
                baseURL: Fixtures.baseURL, store: try FileCacheStore(directory: directory), transport: server,
                partition: "user-1", retry: .none,
                events: { event in
                    events.record(event)
                    if event.kind == .mutationSent { sent.fire() }
                })
            await sent.wait()
            #expect(relaunched.pendingMutations.items.isEmpty)
            #expect(server.requests.first?.headers["Idempotency-Key"] == key)
        }
    }

    @Test func anUnreadableQueuedMutationIsReportedAsFailedNeverACrash() async throws {
        try await withStoreDirectory { directory in
            let server = OfflineServer()
            let store = try FileCacheStore(directory: directory)
            let client = OfflineFixtures.client(server, store: store)
            let id = try #require(
                try await client.queueableResponse(for: OfflineFixtures.request("one"), endpoint: OfflineFixtures.create, as: Note.self)
                    .queuedID)
            let file = try #require(try allPaths(under: directory).first { $0.contains(".outbox/") })
            try Data(#"{"format":1,"mutation":{"id":"#.utf8).write(to: URL(fileURLWithPath: file))
            server.online = true
            let relaunched = OfflineFixtures.client(server, store: try FileCacheStore(directory: directory))
            await relaunched.replayPendingMutations()
            #expect(server.requests.isEmpty)
            #expect(relaunched.pendingMutations.items.map(\.id) == [id])
            #expect(relaunched.pendingMutations.items.first?.isFailed == true)
            #expect(await !relaunched.retryMutation(id: id))
            #expect(try await relaunched.discardMutation(id: id))
            #expect(try allPaths(under: directory).filter { $0.contains(".outbox/") }.isEmpty)
        }
    }

    @Test func aRecordThatCountsTheMostAttemptsThereAreIsReplayedNeverACrash() async throws {
        try await withStoreDirectory { directory in
            let server = OfflineServer()
            let client = OfflineFixtures.client(server, store: try FileCacheStore(directory: directory))
            let id = try #require(
                try await client.queueableResponse(for: OfflineFixtures.request("one"), endpoint: OfflineFixtures.create, as: Note.self)
                    .queuedID)
            let file = try #require(try allPaths(under: directory).first { $0.contains(".outbox/") })
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let count = try Regex(#""attempts"\s*:\s*[0-9]+"#)
            #expect(text.matches(of: count).count == 1)
            try text.replacing(count, with: #""attempts":9223372036854775807"#).write(toFile: file, atomically: true, encoding: .utf8)

            // Still offline: the replay's attempt waits, and the count stays the largest there is.
            let relaunched = OfflineFixtures.client(server, store: try FileCacheStore(directory: directory))
            await relaunched.replayPendingMutations()
            #expect(relaunched.pendingMutations.items.map(\.attempts) == [.max])
            // Refused for good: recorded as failed, the count held there too.
            server.online = true
            server.answer { _ in HTTPResponse(statusCode: 422, body: Data(#"{"error":"too short"}"#.utf8)) }
            await relaunched.replayPendingMutations()
            #expect(relaunched.pendingMutations.items.map(\.id) == [id])
            #expect(relaunched.pendingMutations.items.first?.isFailed == true)
            let stored = try await relaunched.mutationLayer.queue.outbox.queuedMutations(partition: "user-1")
            #expect(stored.map(\.attempts) == [.max])
        }
    }
}

@Suite struct MutationQueueTests {
    @Test func anAttemptThatOutlivesAPartitionSwitchLeavesTheNewPartitionsScopeBusy() async throws {
        let store = MemoryCacheStore()
        let queue = MutationQueue(store: store)
        try await queue.load(partition: "user-1")
        let old = store.enqueueMutation(queuedMutation("a", partition: "user-1"))
        #expect(await queue.add(old))  // being sent
        _ = store.enqueueMutation(queuedMutation("b", partition: "user-2"))
        try await queue.load(partition: "user-2")
        let claimed = try #require(await queue.claimNext(in: "/notes", partition: "user-2"))
        #expect(claimed.query.first?.value == "b")
        await queue.finish(old, updated: nil)  // the old partition's answer arrives
        #expect(await queue.claimNext(in: "/notes", partition: "user-2") == nil)  // still busy
        await queue.finish(claimed, updated: nil)
        #expect(queue.list.items.isEmpty)
    }
}
