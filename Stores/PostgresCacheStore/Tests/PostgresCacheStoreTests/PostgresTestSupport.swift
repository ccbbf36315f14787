import CachedClientRuntime
import Foundation
import PostgresNIO
import Synchronization
import Testing

@testable import PostgresCacheStore

/// The server the tests use: `CACHEGEN_POSTGRES_URL`, which `Scripts/with-postgres.sh` sets.
///
/// Without it the suites are skipped, visibly, on a developer's machine; in CI (`CI` set) they
/// run and fail, so a missing server can never pass as green.
enum TestDatabase {
    static let url = ProcessInfo.processInfo.environment["CACHEGEN_POSTGRES_URL"]
    static let isCI = ProcessInfo.processInfo.environment["CI"] != nil
    /// Whether suites that need the server run.
    static let enabled = url != nil || isCI

    struct Missing: Error, CustomStringConvertible {
        var description: String {
            "CACHEGEN_POSTGRES_URL is not set, and CI is: run the tests through Scripts/with-postgres.sh"
        }
    }

    /// The URL, or a failure when it is missing.
    static func requireURL() throws -> String {
        guard let url else { throw Missing() }
        return url
    }

    /// A namespace of its own for each test, so tests run in parallel on one database.
    static func namespace() -> String {
        "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
    }

    /// A store on a fresh namespace (or `namespace`), ready: tables made and listening.
    static func store(
        namespace: String = TestDatabase.namespace(), maxBytes: Int? = nil, maxAge: TimeInterval? = nil,
        acknowledgementTimeout: Duration = .seconds(2), schemaVersion: Int = PostgresCacheSchema.currentVersion,
        now: @escaping @Sendable () -> Date = { Date() }
    ) async throws -> PostgresCacheStore {
        var configuration = try PostgresCacheStore.configuration(url: try requireURL())
        // Every test runs at once, and each holds stores and clients: a few connections each
        // keep the whole run well under the server's 300 (past it, stores wait for a listening
        // session that cannot connect, and the run stalls instead of failing).
        configuration.options.maximumConnections = TestDatabase.connectionsPerPool
        let store = try PostgresCacheStore(
            configuration: configuration, namespace: namespace,
            maxBytes: maxBytes, maxAge: maxAge, acknowledgementTimeout: acknowledgementTimeout, now: now,
            schemaVersion: schemaVersion)
        try await store.ready()
        return store
    }

    /// Runs `body` with a store and shuts the store down afterwards, whatever happens.
    static func withStore<T>(
        namespace: String = TestDatabase.namespace(), maxBytes: Int? = nil, maxAge: TimeInterval? = nil,
        acknowledgementTimeout: Duration = .seconds(2), now: @escaping @Sendable () -> Date = { Date() },
        _ body: (PostgresCacheStore) async throws -> T
    ) async throws -> T {
        let store = try await store(
            namespace: namespace, maxBytes: maxBytes, maxAge: maxAge, acknowledgementTimeout: acknowledgementTimeout, now: now)
        do {
            let result = try await body(store)
            await store.shutdown()
            return result
        } catch {
            await store.shutdown()
            throw error
        }
    }

    /// The most connections a test's store or client opens: one for listening, two for queries.
    static let connectionsPerPool = 3

    /// A plain client for looking at tables behind the store's back.
    static func withClient<T: Sendable>(_ body: (PostgresClient) async throws -> T) async throws -> T {
        var configuration = try PostgresCacheStore.configuration(url: try requireURL())
        configuration.options.maximumConnections = connectionsPerPool
        let client = PostgresClient(configuration: configuration)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await body(client)
        }
    }

    /// Runs one statement on a fresh connection, reading its rows to the end.
    static func execute(_ query: PostgresQuery) async throws {
        try await withClient { client in
            for try await _ in try await client.query(query) {}
        }
    }

    /// The one integer a query returns.
    static func integer(_ query: PostgresQuery, on client: PostgresClient) async throws -> Int {
        var result: Int?
        for try await value in try await client.query(query).decode(Int64.self) { result = Int(value) }
        guard let result else { throw Missing() }
        return result
    }
}

/// A key as a generated client would make it, from a few parts.
func testKey(_ name: String, endpoint: String = "Accounts.get", partition: String? = "user-1", path: String = "/accounts/1")
    -> CacheKey
{
    CacheKey(
        text: "cachegen-key 1\nendpoint \(endpoint)\npath \(path)\nquery id=\(name)\npartition \(partition ?? "*shared*")",
        endpoint: endpoint, partition: partition, path: path)
}

/// An entry whose body says what it is.
func testEntry(_ body: String, date: Date = Date(timeIntervalSinceReferenceDate: 800_000_000.125)) -> CacheEntry {
    CacheEntry(body: Data(body.utf8), date: date)
}

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let current: Mutex<Date>
    init(_ start: Date = Date(timeIntervalSinceReferenceDate: 800_000_000)) { current = Mutex(start) }
    var now: Date { current.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { current.withLock { $0 += seconds } }
}

/// Waits until `condition` holds, checking every 10 ms, and fails after `timeout`: for what a
/// store does in the background. Never an assertion about time.
func eventually(
    timeout: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(10))
    }
    Issue.record("the condition did not hold within \(timeout)", sourceLocation: sourceLocation)
}
