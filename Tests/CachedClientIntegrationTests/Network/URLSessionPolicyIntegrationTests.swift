import CachedClientTestSupport
import FixtureServerSupport
import Foundation
import StoreTestSupport
import Testing

@_spi(Generated) @testable import CachedClientRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every policy through `URLSessionTransport` and a `FileCacheStore` against the real
/// fixture server, then with the server process stopped (connection refused), and
/// partitions kept apart on disk.
@Suite("Integration: every policy, the server stopped, partitions", .timeLimit(.minutes(1)))
struct URLSessionPolicyIntegrationTests {
    /// A folder for a store, removed when the test ends.
    struct Folder {
        let url = FileManager.default.temporaryDirectory.appending(path: "cachegen-policies-\(UUID().uuidString)")
        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    static func client(
        _ server: FixtureServer, prefix: String = "", store: any CacheStore, partition: String? = "user-1",
        clock: TestClock, events: EventLog = EventLog()
    ) -> CachedClient {
        CachedClient(
            baseURL: URL(string: server.baseURL.absoluteString + prefix + "/v1")!, store: store,
            transport: URLSessionTransport(timeout: 10), partition: partition, retry: .none,
            now: clock.function, events: events.record)
    }

    static func account(_ client: CachedClient, _ policy: CachePolicy? = nil) async throws -> CachedValue<Account> {
        try await client.value(for: Fixtures.request(), endpoint: Fixtures.endpoint(), policy: policy)
    }

    // MARK: - The server stopped

    @Test func everyPolicyWithTheServerStoppedWithinTTLWithinMaxStaleAndPast() async throws {
        let folder = Folder()
        defer { folder.remove() }
        let server = try await FixtureServer.start()
        let clock = TestClock()
        let events = EventLog()
        let client = Self.client(
            server, store: try FileCacheStore(directory: folder.url, now: clock.function), clock: clock, events: events)
        try await server.setRoute("/v1/accounts/1", json: Fixtures.alice)
        #expect(try await Self.account(client) == .fresh(value: Fixtures.alice))

        server.stop()
        let stored = CachedValue<Account>.cached(value: Fixtures.alice, date: Fixtures.start)
        func expectAnswers(_ expected: [CachePolicy: CachedValue<Account>?]) async {
            for policy in CachePolicy.allCases {
                let answer: CachedValue<Account>?
                do {
                    answer = try await Self.account(client, policy)
                } catch {
                    #expect(
                        error is URLError || error as? CachedClientError == .notCached(endpoint: "AccountRepository.getAccount"),
                        "\(policy): \(error)")
                    answer = nil
                }
                #expect(answer == expected[policy] ?? nil, "\(policy) at age \(clock.now.timeIntervalSince(Fixtures.start))")
                await client.waitForBackgroundRefreshes()
            }
        }

        clock.advance(by: 10)  // within ttl
        await expectAnswers([.networkFirst: stored, .cacheFirst: stored, .staleWhileRevalidate: stored, .cacheOnly: stored])
        clock.advance(by: Fixtures.ttl)  // past ttl, within maxStale
        await expectAnswers([.networkFirst: stored, .cacheFirst: stored, .staleWhileRevalidate: stored, .cacheOnly: stored])
        clock.advance(by: Fixtures.maxStale)  // past maxStale: nothing is shown
        await expectAnswers([:])

        // Offline is normal for a background refresh: no error events, only what was used.
        #expect(!events.kinds.contains(.error))
        // networkFirst within and past ttl, cacheFirst past it (within ttl it used the entry).
        #expect(events.kinds.filter { $0 == .fallback }.count == 3)
    }

    // MARK: - The server up

    @Test func staleWhileRevalidateAnswersAtOnceAndTheServersAnswerReplacesTheEntry() async throws {
        let folder = Folder()
        defer { folder.remove() }
        let server = try await FixtureServer.shared
        let prefix = "/test-\(UUID().uuidString.lowercased())"
        let clock = TestClock()
        let client = Self.client(
            server, prefix: prefix, store: try FileCacheStore(directory: folder.url, now: clock.function), clock: clock)
        try await server.setRoute(prefix + "/v1/accounts/1", json: Fixtures.alice)
        _ = try await Self.account(client)
        try await server.setRoute(prefix + "/v1/accounts/1", json: Fixtures.aliceLater)
        clock.advance(by: Fixtures.ttl + 1)

        #expect(try await Self.account(client, .staleWhileRevalidate) == .cached(value: Fixtures.alice, date: Fixtures.start))
        await client.waitForBackgroundRefreshes()

        #expect(
            try await Self.account(client, .cacheOnly)
                == .cached(value: Fixtures.aliceLater, date: Fixtures.start.addingTimeInterval(Fixtures.ttl + 1)))
        #expect(try await server.requests().filter { $0.path.hasPrefix(prefix) }.count == 2)
    }

    @Test func networkOnlyAlwaysAsksTheServerAndCacheOnlyNever() async throws {
        let folder = Folder()
        defer { folder.remove() }
        let server = try await FixtureServer.shared
        let prefix = "/test-\(UUID().uuidString.lowercased())"
        let clock = TestClock()
        let client = Self.client(
            server, prefix: prefix, store: try FileCacheStore(directory: folder.url, now: clock.function), clock: clock)
        try await server.setRoute(prefix + "/v1/accounts/1", json: Fixtures.alice)
        func requestCount() async throws -> Int { try await server.requests().filter { $0.path.hasPrefix(prefix) }.count }

        await #expect(throws: CachedClientError.notCached(endpoint: "AccountRepository.getAccount")) {
            try await Self.account(client, .cacheOnly)
        }
        #expect(try await requestCount() == 0)
        #expect(try await Self.account(client, .networkOnly) == .fresh(value: Fixtures.alice))
        #expect(try await Self.account(client, .networkOnly) == .fresh(value: Fixtures.alice))
        #expect(try await requestCount() == 2)
        #expect(try await Self.account(client, .cacheOnly) == .cached(value: Fixtures.alice, date: Fixtures.start))
        #expect(try await requestCount() == 2)
    }

    // MARK: - Partitions

    @Test func aSetCookieIsNeverSentBackWithTheNextUsersRequests() async throws {
        let server = try await FixtureServer.shared
        let prefix = "/test-\(UUID().uuidString.lowercased())"
        let clock = TestClock()
        let client = Self.client(server, prefix: prefix, store: MemoryCacheStore(), partition: "alice", clock: clock)
        try await server.setRoute(
            prefix + "/v1/accounts/1", headers: ["Set-Cookie": "session=alice-session-cookie; Path=/"], json: Fixtures.alice)
        _ = try await Self.account(client)

        client.setPartition("bob")
        _ = try await Self.account(client)

        let requests = try await server.requests().filter { $0.path.hasPrefix(prefix) }
        #expect(requests.count == 2)
        #expect(requests.allSatisfy { $0.header("Cookie") == nil }, "\(requests.map { $0.header("Cookie") })")
    }

    @Test func userBNeverReadsUserAsEntryOnDiskAndSignOutDeletesAsFiles() async throws {
        let folder = Folder()
        defer { folder.remove() }
        let server = try await FixtureServer.start()
        let clock = TestClock()
        let store = try FileCacheStore(directory: folder.url, now: clock.function)
        let client = Self.client(server, store: store, partition: "alice@bank.example", clock: clock)
        let bob = Account(id: "1", balance: 99_999)
        try await server.setRoute("/v1/accounts/1", json: Fixtures.alice)
        #expect(try await Self.account(client) == .fresh(value: Fixtures.alice))

        client.setPartition("bob@bank.example")
        await #expect(throws: CachedClientError.notCached(endpoint: "AccountRepository.getAccount")) {
            try await Self.account(client, .cacheOnly)
        }
        try await server.setRoute("/v1/accounts/1", json: bob)
        #expect(try await Self.account(client, .cacheFirst) == .fresh(value: bob))  // asked the server, did not use alice's
        server.stop()
        #expect(try await Self.account(client) == .cached(value: bob, date: Fixtures.start))

        // A relaunch as a third user, offline: nothing of alice's or bob's.
        let carol = Self.client(
            server, store: try FileCacheStore(directory: folder.url, now: clock.function), partition: "carol@bank.example",
            clock: clock)
        await #expect(throws: URLError.self) { try await Self.account(carol) }
        await #expect(throws: CachedClientError.notCached(endpoint: "AccountRepository.getAccount")) {
            try await Self.account(carol, .cacheOnly)
        }

        // On disk: one folder per user, named by a hash; sign-out deletes alice's folder only.
        // (Alice's answer was given before the switch, so its write lands after it.)
        await client.flush()
        let aliceFolder = folder.url.appending(path: "v2/" + FileCacheStore.partitionFolderName("alice@bank.example")).path
        let bobFolder = folder.url.appending(path: "v2/" + FileCacheStore.partitionFolderName("bob@bank.example")).path
        #expect(FileManager.default.fileExists(atPath: aliceFolder))
        let paths = FileManager.default.enumerator(atPath: folder.url.path)?.allObjects as? [String] ?? []
        #expect(!paths.contains { $0.contains("alice") || $0.contains("bob") || $0.contains("accounts") })

        try await client.removeAll(partition: "alice@bank.example")

        #expect(!FileManager.default.fileExists(atPath: aliceFolder))
        #expect(FileManager.default.fileExists(atPath: bobFolder))
        client.setPartition("alice@bank.example")
        await #expect(throws: CachedClientError.notCached(endpoint: "AccountRepository.getAccount")) {
            try await Self.account(client, .cacheOnly)
        }
        client.setPartition("bob@bank.example")
        #expect(try await Self.account(client, .cacheOnly) == .cached(value: bob, date: Fixtures.start))
    }
}
