@_spi(Generated) import CachedClientRuntime
import CachedClientTesting
import FixtureServerSupport
import Foundation
import PostgresNIO
import Synchronization
import Testing

@testable import PostgresCacheStore

/// Removal reaches every process's in-memory layer: `removalCount` and `RemovalListener`.
@Suite(
    .enabled(if: TestDatabase.enabled, "CACHEGEN_POSTGRES_URL is not set: run through Scripts/with-postgres.sh"),
    .timeLimit(.minutes(3)))
struct RemovalPropagationTests {
    struct Account: Codable, Sendable, Equatable {
        var id: String
    }

    static let endpoint = Endpoint(
        name: "Accounts.get", cache: CacheRule(ttl: 600, maxStale: 3_600, policy: .cacheFirst, scope: .user), shape: "Account{id}")
    static let request = EndpointRequest(method: "GET", path: "/accounts/1")

    /// Another process (a real child process) signs the user out of the same database: the
    /// value this client holds in memory is not served afterwards, with no wait between the
    /// child's return and the read.
    @Test func aSignOutInAnotherProcessIsHonouredByTheNextReadFromMemory() async throws {
        let namespace = TestDatabase.namespace()
        try await TestDatabase.withStore(namespace: namespace) { postgres in
            let store = CountingStore(postgres)
            let transport = StubTransport(response: .json(#"{"id":"1"}"#))
            let client = CachedClient(
                baseURL: URL(string: "https://api.example.com")!, store: store, transport: transport, partition: "user-1")
            _ = try await client.value(for: Self.request, endpoint: Self.endpoint, as: Account.self)
            await client.flush()
            let readsBefore = store.reads
            #expect(try await client.value(for: Self.request, endpoint: Self.endpoint, policy: .cacheOnly, as: Account.self).isCached)
            #expect(store.reads == readsBefore, "the hit came from memory")

            let child = try await ChildProcess.run("PostgresStoreChild", ["remove-partition", try TestDatabase.requireURL(), namespace, "user-1"])
            #expect(child.status == 0, "\(child.errors)")

            await #expect(throws: CachedClientError.notCached(endpoint: "Accounts.get")) {
                try await client.value(for: Self.request, endpoint: Self.endpoint, policy: .cacheOnly, as: Account.self)
            }
        }
    }

    /// While the listening session is gone, every read of `removalCount` gives a new number (so
    /// memory is not trusted); once the store listens again the number holds still.
    @Test func withoutItsListeningSessionTheCountNeverHoldsStill() async throws {
        try await TestDatabase.withStore { store in
            #expect(store.removalCount == store.removalCount)
            try await TestDatabase.execute(
                "SELECT pg_terminate_backend(pid) FROM \(unescaped: store.listeners) WHERE pid <> pg_backend_pid()")
            try await eventually { store.removalCount != store.removalCount }
            // It reconnects by itself.
            try await store.ready()
            try await eventually { store.removalCount == store.removalCount }
        }
    }

    /// A listener that never acknowledges holds a removal up for `acknowledgementTimeout`
    /// only; then its session is ended, so its process stops trusting memory.
    @Test func aListenerThatNeverAcknowledgesIsDisconnected() async throws {
        try await TestDatabase.withStore(acknowledgementTimeout: .milliseconds(300)) { store in
            try await TestDatabase.withClient { observer in
                try await TestDatabase.withClient { silentClient in
                    // A live session posing as a listener that saw nothing: it never will.
                    let silent = try await TestDatabase.integer(
                        """
                        INSERT INTO \(unescaped: store.listeners) (pid, backend_start, seen)
                        SELECT pid, backend_start, -1 FROM pg_stat_activity WHERE pid = pg_backend_pid()
                        RETURNING pid::bigint
                        """, on: silentClient)
                    try await store.removeAll(partition: "user-1")
                    // Watched from another client: the silent one's session is the one ended.
                    try await eventually {
                        try await TestDatabase.integer(
                            "SELECT count(*)::bigint FROM pg_stat_activity WHERE pid = \(Int32(silent))", on: observer) == 0
                    }
                }
            }
        }
    }

    /// A removal carries its scope to every process: user-1's sign-out through another store
    /// instance on the same tables (as another process would make it) takes user-1's value
    /// from memory and leaves user-2's there, served with no read of the store.
    @Test func aSignOutThroughAnotherStoreKeepsAnotherPartitionsValueInMemory() async throws {
        let namespace = TestDatabase.namespace()
        try await TestDatabase.withStore(namespace: namespace) { postgres in
            try await TestDatabase.withStore(namespace: namespace) { other in
                let store = CountingStore(postgres)
                let transport = StubTransport(response: .json(#"{"id":"1"}"#))
                func client(_ partition: String) -> CachedClient {
                    CachedClient(baseURL: URL(string: "https://api.example.com")!, store: store, transport: transport, partition: partition)
                }
                let signedOut = client("user-1")
                let kept = client("user-2")
                for client in [signedOut, kept] {
                    _ = try await client.value(for: Self.request, endpoint: Self.endpoint, as: Account.self)
                    await client.flush()
                }
                let readsBefore = store.reads

                try await other.removeAll(partition: "user-1")

                #expect(try await kept.value(for: Self.request, endpoint: Self.endpoint, policy: .cacheOnly, as: Account.self).isCached)
                #expect(store.reads == readsBefore, "user-2's value was read again from the store")
                await #expect(throws: CachedClientError.notCached(endpoint: "Accounts.get")) {
                    try await signedOut.value(for: Self.request, endpoint: Self.endpoint, policy: .cacheOnly, as: Account.self)
                }
            }
        }
    }

    /// The same with the sign-out made by a real child process.
    @Test func aSignOutInAnotherProcessKeepsAnotherPartitionsValueInMemory() async throws {
        let namespace = TestDatabase.namespace()
        try await TestDatabase.withStore(namespace: namespace) { postgres in
            let store = CountingStore(postgres)
            let client = CachedClient(
                baseURL: URL(string: "https://api.example.com")!, store: store,
                transport: StubTransport(response: .json(#"{"id":"1"}"#)), partition: "user-2")
            _ = try await client.value(for: Self.request, endpoint: Self.endpoint, as: Account.self)
            await client.flush()
            let readsBefore = store.reads

            let child = try await ChildProcess.run("PostgresStoreChild", ["remove-partition", try TestDatabase.requireURL(), namespace, "user-1"])
            #expect(child.status == 0, "\(child.errors)")

            #expect(try await client.value(for: Self.request, endpoint: Self.endpoint, policy: .cacheOnly, as: Account.self).isCached)
            #expect(store.reads == readsBefore, "user-2's value was read again from the store")
        }
    }

    /// The notification's payload: a scope survives the trip, an older version's bare count is
    /// a move of unknown scope, anything else is ignored; the moves' log knows scopes only
    /// for numbers it kept, and a move without one (a reconnection) is unknown.
    @Test func thePayloadCarriesTheScopeAndTheLogKeepsIt() async throws {
        for scope in [RemovalScope.everything, .partition("user-1"), .endpoint("Accounts.get"), .path("/a", endpoint: "A.b")] {
            let parsed = try #require(RemovalListener.parse(RemovalListener.payload(scope, count: 42)))
            #expect(parsed.count == 42 && parsed.scope == scope)
        }
        #expect(RemovalListener.parse("42")?.count == 42)
        #expect(RemovalListener.parse("42")?.scope == nil)
        #expect(RemovalListener.parse("42 9 1")?.scope == nil)
        #expect(RemovalListener.parse("x 1 1") == nil)

        try await TestDatabase.withStore { store in
            let listener = store.listener
            let start = store.removalCount
            listener.bump(.partition("user-1"))
            listener.bump(.partition("user-1"))
            #expect(store.removals(since: start) == [.partition("user-1")])
            listener.bump(nil)
            #expect(store.removals(since: start) == nil)
            #expect(store.removals(since: start + 3) == [])
            for _ in 0..<RemovalListener.kept { listener.bump(.endpoint("Accounts.get")) }
            #expect(store.removals(since: start + 3) == [.endpoint("Accounts.get")])
            listener.bump(.endpoint("Accounts.get"))
            #expect(store.removals(since: start + 3) == nil)
        }
    }

    /// A removal in this process moves this store's number before it returns, and one in
    /// another store on the same tables moves it too.
    @Test func aRemovalThroughAnotherStoreOnTheSameTablesMovesTheCount() async throws {
        let namespace = TestDatabase.namespace()
        try await TestDatabase.withStore(namespace: namespace) { first in
            try await TestDatabase.withStore(namespace: namespace) { second in
                let before = first.removalCount
                try await second.removeAll(endpoint: "Accounts.get")
                #expect(first.removalCount != before)
            }
        }
    }
}

/// A store that counts reads, passing everything through.
final class CountingStore: ForwardingStore {
    let inner: any CacheStore
    private let readCount = Atomic<Int>(0)
    init(_ inner: PostgresCacheStore) { self.inner = inner }
    var reads: Int { readCount.load(ordering: .relaxed) }
    func entry(for key: CacheKey) async throws -> CacheEntry? {
        readCount.wrappingAdd(1, ordering: .relaxed)
        return try await inner.entry(for: key)
    }
}
