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

/// A repository written as generated code writes one, over a path of the test's own: what an
/// app would build its prefetch list from.
struct TripRepository: Sendable {
    let client: CachedClient
    let base: String

    struct Item: Codable, Sendable, Equatable {
        var id: Int
        var name: String
    }

    static let itemEndpoint = Endpoint(
        name: "TripRepository.item", cache: CacheRule(ttl: 60, maxStale: 1e9, policy: .networkFirst, scope: .user),
        shape: "trip-item-1")
    static let saveEndpoint = Endpoint(name: "TripRepository.save", cache: nil)

    func item(_ id: Int, policy: CachePolicy? = nil) async throws -> CachedValue<Item> {
        var request = EndpointRequest(method: "GET", path: base + "/items/{id}")
        request.setPathParameter("id", id)
        return try await client.value(for: request, endpoint: Self.itemEndpoint, policy: policy)
    }

    func save(_ id: Int) async throws {
        var request = EndpointRequest(method: "PUT", path: base + "/items/{id}")
        request.setPathParameter("id", id)
        try await client.perform(request, endpoint: Self.saveEndpoint)
    }
}

/// Sends through `URLSessionTransport`, except requests from number `blockFrom` on (counted
/// from 1), which wait until `open()` or until their task is cancelled (at most 30 s, a bound,
/// never an assertion).
final class BlockingTransport: HTTPTransport {
    private let transport = URLSessionTransport()
    private let count = Locked(0)
    private let isOpen = Locked(false)
    private let blockFrom: Int?

    init(blockFrom: Int? = nil) {
        self.blockFrom = blockFrom
    }

    /// Lets the blocked requests, and all later ones, through.
    func open() { isOpen.withLock { $0 = true } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let number = count.withLock { $0 += 1; return $0 }
        if let blockFrom, number >= blockFrom {
            let deadline = ContinuousClock.now + .seconds(30)
            while !isOpen.withLock({ $0 }) {
                guard ContinuousClock.now < deadline else { throw URLError(.timedOut) }
                try await Task.sleep(for: .milliseconds(2))
            }
        }
        return try await transport.send(request)
    }
}

/// "Available offline on purpose" against the fixture server and a real `FileCacheStore` folder.
@Suite(.serialized) struct PrefetchIntegrationTests {
    let server: FixtureServer

    init() async throws {
        server = try await FixtureServer.shared
    }

    /// A path prefix of this test's own on the shared server, with items 1…`count` served.
    func serveItems(_ count: Int) async throws -> String {
        let base = "/trip-\(UUID().uuidString.prefix(8))"
        for id in 1...count {
            try await server.setRoute(base + "/items/\(id)", json: TripRepository.Item(id: id, name: "item \(id)"))
        }
        return base
    }

    func requestCount(_ base: String) async throws -> Int {
        try await server.requests().filter { $0.path.hasPrefix(base) }.count
    }

    func client(
        _ store: FileCacheStore, transport: any HTTPTransport = URLSessionTransport(), clock: StoreTestClock? = nil,
        partition: String? = "user-1"
    ) -> CachedClient {
        CachedClient(
            baseURL: server.baseURL, store: store, transport: transport, partition: partition, retry: .none,
            now: { clock?.now ?? Date() }, memoryCacheLimit: 0)
    }

    func calls(_ repository: TripRepository, _ ids: ClosedRange<Int>) async throws -> [PrefetchCall] {
        var calls: [PrefetchCall] = []
        for id in ids { calls.append(try await PrefetchCall { try await repository.item(id) }) }
        return calls
    }

    @Test func aPrefetchReportsEachCallDoneWithItsBytesAndKeepsTheEntriesForOffline() async throws {
        try await withStoreDirectory { directory in
            let base = try await serveItems(5)
            let store = try FileCacheStore(directory: directory)
            let transport = BlockingTransport(blockFrom: 1)
            let client = client(store, transport: transport)
            let repository = TripRepository(client: client, base: base)
            let calls = try await calls(repository, 1...5)
            #expect(try await requestCount(base) == 0)  // making the list sends nothing

            let job = client.prefetch(named: "trip", calls, maxConcurrentCalls: 2)
            let updates = job.updates()  // before any call is done: every change is seen
            transport.open()
            var seen: [PrefetchProgress] = []
            for await progress in updates { seen.append(progress) }
            let final = await job.result()

            #expect(final.state == .finished)
            #expect(final.completed == 5 && final.total == 5 && final.failed == 0)
            let expectedBytes = try (1...5).reduce(0) { sum, id in
                sum + (try JSONEncoder.sorted.encode(TripRepository.Item(id: id, name: "item \(id)"))).count
            }
            #expect(final.bytes == expectedBytes)
            #expect(seen.last == final)
            #expect(seen.map(\.completed) == Array(seen.map(\.completed).sorted()))
            // One change per call done, in order, then the end.
            let running = seen.filter { $0.state == .running }.map(\.completed)
            #expect(seen.first?.completed == 0 && seen.first?.total == 5)
            #expect(Set(running).sorted() == [0, 1, 2, 3, 4, 5] && running == running.sorted())
            #expect(seen.filter { $0.state != .running } == [final])
            #expect(try await requestCount(base) == 5)

            let plans = try await store.prefetchPlans()
            #expect(plans.map(\.name) == ["trip"] && plans.first?.partition == "user-1")
            #expect(plans.first?.pinnedKeys.count == 5)
            for id in 1...5 {
                let value = try await repository.item(id, policy: .cacheOnly)
                #expect(value.value == TripRepository.Item(id: id, name: "item \(id)"))
            }
            #expect(try await client.prefetchPlans().map(\.completed) == [5])
        }
    }

    @Test func makingACallSendsNothingAndRefusesMocksAndUncachedCalls() async throws {
        try await withStoreDirectory { directory in
            let base = try await serveItems(1)
            let client = client(try FileCacheStore(directory: directory))
            let repository = TripRepository(client: client, base: base)
            let call = try await PrefetchCall { try await repository.item(1) }
            #expect(call.endpoint == "TripRepository.item" && call.path == base + "/items/1")
            await #expect(throws: PrefetchCallError.notCached(endpoint: "TripRepository.save")) {
                try await PrefetchCall { try await repository.save(1) }
            }
            await #expect(throws: PrefetchCallError.noCall) {
                try await PrefetchCall { TripRepository.Item(id: 1, name: "a mock") }
            }
            #expect(try await requestCount(base) == 0)
        }
    }

    @Test func aCancelledPrefetchKeepsWhatIsDoneAndALaterLaunchFetchesOnlyTheRest() async throws {
        try await withStoreDirectory { directory in
            let base = try await serveItems(6)
            let first = client(try FileCacheStore(directory: directory), transport: BlockingTransport(blockFrom: 4))
            let calls = try await calls(TripRepository(client: first, base: base), 1...6)
            let job = first.prefetch(named: "trip", calls, maxConcurrentCalls: 1)
            for await progress in job.updates() where progress.completed == 3 {
                job.cancel()
                break
            }
            let stopped = await job.result()
            #expect(stopped.state == .stopped && stopped.completed == 3 && stopped.failed == 0)
            #expect(try await requestCount(base) == 3)
            #expect(try await first.prefetchPlans() == [
                PrefetchProgress(name: "trip", completed: 3, total: 6, bytes: stopped.bytes, state: .stopped)
            ])

            // A later launch: a new store and client on the same folder.
            let second = client(try FileCacheStore(directory: directory))
            let resumed = try #require(try await second.resumePrefetch(named: "trip"))
            let final = await resumed.result()
            #expect(final.state == .finished && final.completed == 6 && final.total == 6)
            let paths = try await server.requests().filter { $0.path.hasPrefix(base) }.map(\.path)
            #expect(paths.count == 6 && Set(paths).count == 6)  // items 4…6 once each, nothing again
            #expect(try await second.resumePrefetch(named: "nothing") == nil)
        }
    }

    @Test func pinnedEntriesOutliveTheAgeAndSizeLimitsUntilUnpinned() async throws {
        try await withStoreDirectory { directory in
            let base = try await serveItems(6)
            let clock = StoreTestClock()
            let store = try FileCacheStore(directory: directory, maxBytes: 200_000, maxAge: 3_600, now: { clock.now })
            let client = client(store, clock: clock)
            let repository = TripRepository(client: client, base: base)
            for id in 4...6 { _ = try await repository.item(id) }  // cached, not pinned
            await client.prefetch(named: "trip", try await calls(repository, 1...3)).result()
            await client.flush()

            clock.advance(7_200)  // past maxAge for all six
            await store.trim()
            let keys = try await store.prefetchPlans().flatMap(\.pinnedKeys)
            #expect(keys.count == 3)
            for key in keys { #expect(try await store.entry(for: key) != nil) }
            #expect(try await store.entryCount() == 3)
            for id in 1...3 { #expect(try await repository.item(id, policy: .cacheOnly).value.id == id) }
            for id in 4...6 {
                await #expect(throws: CachedClientError.self) { try await repository.item(id, policy: .cacheOnly) }
            }

            // A pinned entry fetched fresh is replaced and stays pinned.
            try await server.setRoute(base + "/items/1", json: TripRepository.Item(id: 1, name: "renamed"))
            _ = try await repository.item(1, policy: .networkOnly)
            await client.flush()
            clock.advance(7_200)
            await store.trim()
            #expect(try await repository.item(1, policy: .cacheOnly).value.name == "renamed")

            // Over the size limit: unpinned entries go, pinned ones stay even when they alone are over it.
            let small = try FileCacheStore(directory: directory, maxBytes: 1, now: { clock.now })
            for id in 4...6 { _ = try await repository.item(id) }
            await client.flush()
            await small.trim()
            #expect(try await small.entryCount() == 3)
            for key in keys { #expect(try await small.entry(for: key) != nil) }

            try await client.unpin(named: "trip")
            #expect(try await store.prefetchPlans().isEmpty)
            await small.trim()
            #expect(try await small.entryCount() == 0)
        }
    }

    @Test func signingOutRemovesThePinsWithThePartition() async throws {
        try await withStoreDirectory { directory in
            let base = try await serveItems(3)
            let clock = StoreTestClock()
            let store = try FileCacheStore(directory: directory, maxAge: 3_600, now: { clock.now })
            let client = client(store, clock: clock)
            let repository = TripRepository(client: client, base: base)
            await client.prefetch(named: "trip", try await calls(repository, 1...3)).result()
            let keys = try await store.prefetchPlans().flatMap(\.pinnedKeys)
            #expect(keys.count == 3)

            client.setPartition(nil)
            try await client.removeAll(partition: "user-1")
            #expect(try await store.prefetchPlans().isEmpty)
            for key in keys { #expect(try await store.entry(for: key) == nil) }
            #expect(!FileManager.default.fileExists(atPath: store.folder.prefetchPath(partition: "user-1")))
            client.setPartition("user-1")
            #expect(try await client.resumePrefetch(named: "trip") == nil)
            #expect(try await client.prefetchPlans().isEmpty)
        }
    }

    @Test func aGarbledPlanFileIsLeftOutAndItsEntriesAreNoLongerPinned() async throws {
        try await withStoreDirectory { directory in
            let base = try await serveItems(2)
            let clock = StoreTestClock()
            let store = try FileCacheStore(directory: directory, maxAge: 3_600, now: { clock.now })
            let client = client(store, clock: clock)
            await client.prefetch(named: "trip", try await calls(TripRepository(client: client, base: base), 1...2)).result()
            let folder = store.folder.prefetchPath(partition: "user-1")
            let file = folder + "/" + FileCacheStore.PrefetchPlans.fileName("trip")
            let whole = try Data(contentsOf: URL(fileURLWithPath: file))

            for damaged in [Data("{\"format\":1,\"plan\":{".utf8), whole.prefix(whole.count / 2), Data([0xFF, 0x00, 0x7B])] {
                try damaged.write(to: URL(fileURLWithPath: file))
                #expect(try await store.prefetchPlans().isEmpty)
                #expect(try await store.prefetchPlan(named: "trip", partition: "user-1") == nil)
                #expect(!FileManager.default.fileExists(atPath: file))  // removed, not kept
            }
            // A folder where the file should be is left out too.
            try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: true)
            #expect(try await client.prefetchPlans().isEmpty)

            clock.advance(7_200)
            await store.trim()
            #expect(try await store.entryCount() == 0)  // no longer pinned: the age limit applies
        }
    }

    @Test func aPlanWhoseByteCountsAddUpPastIntMaxIsReadNeverACrash() async throws {
        try await withStoreDirectory { directory in
            let base = try await serveItems(2)
            let store = try FileCacheStore(directory: directory)
            let first = client(store)
            await first.prefetch(named: "trip", try await calls(TripRepository(client: first, base: base), 1...2)).result()
            let file = store.folder.prefetchPath(partition: "user-1") + "/" + FileCacheStore.PrefetchPlans.fileName("trip")
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let counts = try Regex(#""bytes"\s*:\s*[0-9]+"#)
            #expect(text.matches(of: counts).count == 2)
            try text.replacing(counts, with: #""bytes":9223372036854775807"#).write(toFile: file, atomically: true, encoding: .utf8)

            // A later launch reads the plan's counts as they are, held at the largest there is.
            let second = client(try FileCacheStore(directory: directory))
            #expect(try await second.prefetchPlans() == [
                PrefetchProgress(name: "trip", completed: 2, total: 2, bytes: .max, state: .finished)
            ])
            let resumed = try #require(try await second.resumePrefetch(named: "trip"))
            let final = await resumed.result()
            #expect(final.state == .finished && final.completed == 2 && final.bytes == .max)
        }
    }
}

extension JSONEncoder {
    /// The fixture server's encoding of a route's JSON (`FixtureServer.setRoute(_:json:)`).
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }
}
