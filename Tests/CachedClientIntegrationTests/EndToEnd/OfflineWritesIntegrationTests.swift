import CachedClientTestSupport
import FixtureServerSupport
import Foundation
import StoreTestSupport
import Testing

@_spi(Generated) @testable import CachedClientRuntime
@_spi(RuntimeLayers) import CachedClientValues

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Offline writes against the real fixture server (`fixture_server.py` with its idempotency
/// mode), across processes and a `kill -9`.
@Suite(.serialized) struct OfflineWritesIntegrationTests {
    let server: FixtureServer

    init() async throws {
        server = try await FixtureServer.shared
    }

    /// A path of this test's own on the shared server.
    static func path() -> String { "/offline-\(UUID().uuidString.prefix(8))/notes" }

    func client(_ directory: URL, network: any HTTPTransport, events: EventLog = EventLog(), launch: Bool = false) throws -> CachedClient {
        CachedClient(
            baseURL: server.baseURL, store: try FileCacheStore(directory: directory), transport: network, partition: "user-1",
            retry: .none, events: events.record, offline: OfflineReplay(replaysAtLaunch: launch))
    }

    func requests(_ path: String) async throws -> [FixtureServer.RecordedRequest] {
        try await server.requests().filter { $0.path == path }
    }

    static func texts(_ requests: [FixtureServer.RecordedRequest]) -> [String] {
        requests.compactMap { try? JSONDecoder().decode([String: String].self, from: Data($0.body.utf8))["text"] }
    }

    @Test func offlineCreatesAreSentOnceEachInOrderWhenTheNetworkIsBack() async throws {
        try await withStoreDirectory { directory in
            let path = Self.path()
            try await server.setIdempotentRoute(path, json: ["id": "n1"])
            try await server.setRoute(path, method: "POST", status: 503, times: 1)  // the first attempt back: 503
            let network = SwitchableNetwork()
            let client = try client(directory, network: network)
            for text in ["a", "b", "c"] {
                let result = try await client.queueableResponse(
                    for: OfflineFixtures.request(text, path: path), endpoint: OfflineFixtures.create, as: [String: String].self)
                #expect(result.queuedID != nil)
            }
            #expect(client.pendingMutations.waitingCount == 3)
            network.online = true
            await client.replayPendingMutations()  // the 503: all stay queued, in order
            #expect(client.pendingMutations.waitingCount == 3)
            client.networkBecameAvailable()
            await client.pendingMutations.wait { $0.isEmpty }
            let sent = try await requests(path)
            #expect(Self.texts(sent) == ["a", "a", "b", "c"])
            #expect(sent.dropFirst().map(\.applied) == [true, true, true])
            #expect(sent[0].header("Idempotency-Key") == sent[1].header("Idempotency-Key"))
            #expect(Set(sent.compactMap { $0.header("Idempotency-Key") }).count == 3)
        }
    }

    @Test func mutationsQueuedByAnotherProcessAreReplayedAtLaunch() async throws {
        try await withStoreDirectory { directory in
            let path = Self.path()
            try await server.setIdempotentRoute(path, json: ["id": "n1"])
            let child = try await ChildProcess.run(
                "StoreWriter", ["queue", directory.path, server.baseURL.absoluteString, path, "5"])
            #expect(child.status == 0, "\(child.errors)")
            #expect(child.output.contains("queued 5"))
            #expect(try await requests(path).isEmpty)

            let sent = Signal()
            let count = Locked(0)
            let network = SwitchableNetwork()
            network.online = true
            let relaunched = CachedClient(
                baseURL: server.baseURL, store: try FileCacheStore(directory: directory), transport: network,
                partition: "user-1", retry: .none,
                events: { event in
                    if event.kind == .mutationSent, count.withLock({ $0 += 1; return $0 }) == 5 { sent.fire() }
                })
            await sent.wait()
            let received = try await requests(path)
            #expect(Self.texts(received) == ["m0", "m1", "m2", "m3", "m4"])
            #expect(received.map(\.applied) == [true, true, true, true, true])
            #expect(relaunched.pendingMutations.items.isEmpty)
            #expect(try allPaths(under: directory).filter { $0.contains(".outbox/") }.isEmpty)
        }
    }

    @Test func aProcessKilledBeforeTheAnswerResendsWithTheSameKeyAndIsAppliedOnce() async throws {
        try await withStoreDirectory { directory in
            let path = Self.path()
            try await server.setIdempotentRoute(path, json: ["id": "n1"])
            try await server.setIdempotentRoute(path, json: ["id": "n1"], delayMilliseconds: 30_000, times: 1)
            let child = try RunningChild("StoreWriter", ["send", directory.path, server.baseURL.absoluteString, path])
            #expect(await child.nextLine() == "sending")
            // Wait (not an assertion) until the server holds the request, then kill -9.
            while try await requests(path).isEmpty { try await Task.sleep(for: .milliseconds(20)) }
            child.killHard()
            _ = await child.wait()

            let network = SwitchableNetwork()
            network.online = true
            let events = EventLog()
            let relaunched = try client(directory, network: network, events: events)
            #expect(relaunched.pendingMutations.items.isEmpty)
            await relaunched.replayPendingMutations()
            let received = try await requests(path)
            let files = try allPaths(under: directory)
            try #require(received.count == 2, "\(events.all) \(files)")
            #expect(Self.texts(received) == ["killed", "killed"])
            #expect(received.map(\.applied) == [true, false])
            #expect(received[0].header("Idempotency-Key") == received[1].header("Idempotency-Key"))
            #expect(relaunched.pendingMutations.items.isEmpty)
        }
    }

    @Test(arguments: [409, 422])
    func aRefusalOnReplayIsReportedAsFailedWithTheServersError(_ status: Int) async throws {
        try await withStoreDirectory { directory in
            let path = Self.path()
            try await server.setRoute(path, method: "POST", status: status, json: ["error": "title too short"])
            let network = SwitchableNetwork()
            let events = EventLog()
            let client = try client(directory, network: network, events: events)
            let id = try #require(
                try await client.queueableResponse(
                    for: OfflineFixtures.request("x", path: path), endpoint: OfflineFixtures.create, as: [String: String].self
                ).queuedID)
            network.online = true
            await client.replayPendingMutations()
            let item = try #require(client.pendingMutations.items.first)
            guard case .failed(let failure) = item.state else {
                Issue.record("not failed: \(item.state)")
                return
            }
            #expect(item.id == id)
            #expect(failure.status == status)
            #expect(failure.body.map { String(decoding: $0, as: UTF8.self) } == #"{"error":"title too short"}"#)
            #expect(events.all.contains { $0.kind == .mutationFailed && $0.key == id })
            // Still failed after a relaunch, until discarded.
            let relaunched = try self.client(directory, network: network)
            await relaunched.replayPendingMutations()
            #expect(relaunched.pendingMutations.items.map(\.state) == [.failed(failure)])
            #expect(try await relaunched.discardMutation(id: id))
            #expect(try await requests(path).count == 1)
        }
    }

    @Test func signOutWithMutationsQueuedSendsNothingAndLeavesNoFile() async throws {
        try await withStoreDirectory { directory in
            let path = Self.path()
            try await server.setIdempotentRoute(path, json: ["id": "n1"])
            let network = SwitchableNetwork()
            let client = try client(directory, network: network)
            for text in ["a", "b"] {
                _ = try await client.queueableResponse(
                    for: OfflineFixtures.request(text, path: path), endpoint: OfflineFixtures.create, as: [String: String].self)
            }
            client.setPartition(nil)
            try await client.removeAll(partition: "user-1")
            network.online = true
            client.setPartition("user-1")
            await client.replayPendingMutations()
            let relaunched = try self.client(directory, network: network)
            await relaunched.replayPendingMutations()
            #expect(try await requests(path).isEmpty)
            #expect(try allPaths(under: directory).filter { $0.contains("outbox") }.isEmpty)
        }
    }

    @Test func aThousandQueuedMutationsReplayInOrder() async throws {
        try await withStoreDirectory { directory in
            let path = Self.path()
            try await server.setIdempotentRoute(path, json: ["id": "n"])
            let network = SwitchableNetwork()
            let client = try client(directory, network: network)
            let count = 1_000
            let queueStart = ContinuousClock.now
            for index in 0..<count {
                _ = try await client.queueableResponse(
                    for: OfflineFixtures.request("m\(index)", path: path), endpoint: OfflineFixtures.create, as: [String: String].self)
            }
            let queueTime = ContinuousClock.now - queueStart
            #expect(await client.mutationLayer.queue.heldBodyBytes == 0)  // memory holds no body of the 1,000
            network.online = true
            let replayStart = ContinuousClock.now
            await client.replayPendingMutations()
            let replayTime = ContinuousClock.now - replayStart
            let received = try await requests(path)
            #expect(Self.texts(received) == (0..<count).map { "m\($0)" })
            #expect(received.allSatisfy { $0.applied == true })
            #expect(client.pendingMutations.items.isEmpty)
            let seconds = { (duration: Duration) in Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18 }
            print(
                "offline writes: queued \(count) mutations (FileCacheStore, fsync each) in \(String(format: "%.2f", seconds(queueTime))) s = \(Int(Double(count) / seconds(queueTime))) mutations/s; replayed them in order against the loopback fixture server in \(String(format: "%.2f", seconds(replayTime))) s = \(Int(Double(count) / seconds(replayTime))) mutations/s")
        }
    }
}
