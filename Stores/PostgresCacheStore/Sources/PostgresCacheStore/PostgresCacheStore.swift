import CachedClientRuntime
import Foundation
import Logging
import NIOFoundationCompat
import PostgresNIO
import Synchronization

/// A `CacheStore` in a PostgreSQL database, shared by every process and machine of a service,
/// so that one process's upstream answer serves them all and a sign-out anywhere reaches
/// everyone.
///
/// - Tables are created on first use and migrated forward (`PostgresCacheSchema`); a database
///   written by a newer build is refused, never altered.
/// - A row holds the full key text, compared on read: a row of another key is a miss.
/// - With `maxBytes`, the least recently used entries are deleted in batches, by an index,
///   once the running total (kept by triggers, never by a scan) is over it. With `maxAge`,
///   an entry stored longer ago is never returned and expired rows are deleted in batches.
/// - Removal and sign-out reach every process: see `removalCount` and `RemovalListener`.
/// - Fleet-wide request collapsing through leases: see `PostgresCacheStore+Leases.swift`.
/// - A durable outbox of queued mutations per partition (`MutationOutbox`), removed with its
///   partition: see `PostgresCacheStore+MutationOutbox.swift`.
///
/// The store owns a `PostgresClient` (a connection pool) and runs it; call `shutdown()` before
/// the process ends or the store is dropped, which closes its connections.
public final class PostgresCacheStore: CacheStore {
    /// The size the store is trimmed back under; `nil` for no limit.
    public let maxBytes: Int?
    /// The age, in seconds, after which an entry is never returned; `nil` for no limit.
    public let maxAge: TimeInterval?
    /// The prefix of every table's name.
    public let namespace: String
    /// How long a removal waits for other processes to acknowledge it (see `removalCount`).
    public let acknowledgementTimeout: Duration

    let client: PostgresClient
    let now: @Sendable () -> Date
    /// The pool's run loop and the removal listener, cancelled by `shutdown()`.
    private let tasks: [Task<Void, Never>]
    let listener: RemovalListener
    /// Creates or migrates the tables once, on first use.
    private let schema: Task<Void, any Error>
    /// Writes since the last pass over expired rows, so a pass costs one query per `expiryEvery` writes.
    let writesSinceExpiry = Atomic<Int>(0)

    /// The store's tables, by name.
    let entries: String
    let usage: String
    let removals: String
    let listeners: String
    let leases: String
    let outbox: String
    let outboxSequences: String

    /// The pool never logs; failures reach the caller as errors.
    static let logger = Logger(label: "cachegen.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Opens a store on a server and starts its connection pool; tables are made on first use.
    ///
    /// - Parameters:
    ///   - configuration: where the server is and how to log in (postgres-nio's pool settings).
    ///   - namespace: the prefix of the store's table names, letters, digits and `_` only.
    ///   - maxBytes: delete the least recently used entries when the bodies and keys exceed it.
    ///   - maxAge: never return an entry stored longer ago than this, in seconds.
    ///   - acknowledgementTimeout: how long a removal waits for each process listening for
    ///     removals to say it has seen it, before disconnecting that process's listener.
    ///   - now: the clock for ages and last use, injectable for tests.
    public convenience init(
        configuration: PostgresClient.Configuration,
        namespace: String = "cachegen",
        maxBytes: Int? = nil,
        maxAge: TimeInterval? = nil,
        acknowledgementTimeout: Duration = .seconds(2),
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        try self.init(
            configuration: configuration, namespace: namespace, maxBytes: maxBytes, maxAge: maxAge,
            acknowledgementTimeout: acknowledgementTimeout, now: now, schemaVersion: PostgresCacheSchema.currentVersion)
    }

    /// Opens a store from a URL such as `postgres://user:password@host:5432/database`
    /// (`?sslmode=require` for TLS; `postgresql://` works too).
    public convenience init(
        url: String,
        namespace: String = "cachegen",
        maxBytes: Int? = nil,
        maxAge: TimeInterval? = nil,
        acknowledgementTimeout: Duration = .seconds(2),
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        try self.init(
            configuration: try Self.configuration(url: url), namespace: namespace, maxBytes: maxBytes, maxAge: maxAge,
            acknowledgementTimeout: acknowledgementTimeout, now: now)
    }

    /// The designated initializer; `schemaVersion` is below the current one only in migration tests.
    init(
        configuration: PostgresClient.Configuration, namespace: String, maxBytes: Int?, maxAge: TimeInterval?,
        acknowledgementTimeout: Duration, now: @escaping @Sendable () -> Date, schemaVersion: Int
    ) throws {
        guard let first = namespace.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first),
            namespace.utf8.count <= 40,
            namespace.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { throw PostgresCacheStoreError.invalidNamespace }
        self.namespace = namespace
        self.maxBytes = maxBytes
        self.maxAge = maxAge
        self.acknowledgementTimeout = acknowledgementTimeout
        self.now = now
        entries = namespace + "_entries"
        usage = namespace + "_usage"
        removals = namespace + "_removals"
        listeners = namespace + "_listeners"
        leases = namespace + "_leases"
        outbox = namespace + "_outbox"
        outboxSequences = namespace + "_outbox_sequences"
        let client = PostgresClient(configuration: configuration, backgroundLogger: Self.logger)
        self.client = client
        let run = Task { await client.run() }
        let schema = Task {
            _ = try await PostgresCacheSchema.migrate(client, namespace: namespace, to: schemaVersion)
        }
        self.schema = schema
        let listener = RemovalListener(client: client, namespace: namespace, schema: schema)
        self.listener = listener
        tasks = [run, Task { await listener.run() }]
    }

    deinit {
        for task in tasks { task.cancel() }
    }

    /// Stops listening and closes every connection; the store answers nothing afterwards.
    public func shutdown() async {
        for task in tasks.reversed() {
            task.cancel()
            await task.value
        }
    }

    /// Waits until the tables exist and this process listens for removals, so that
    /// `removalCount` is a number memory can be trusted with; for start-up and tests.
    /// Without it the store works the same, its clients just keep nothing in memory until then.
    public func ready() async throws {
        try await schema.value
        await listener.waitUntilListening()
    }

    /// Grows with every `removeAll…` in any process on the same tables; one atomic load while
    /// this process listens for removals, and a new number on every read while it does not,
    /// so memory is never trusted then. See `RemovalListener` for the guarantee.
    public var removalCount: UInt64 { listener.value }

    /// The scopes of the removals since `count` that this process was told of (its own, and
    /// every process's through the notifications), from the last 256 moves of its number;
    /// `nil` when any move since is not known one by one: a reconnection, a read while not
    /// listening, a notification of a version without scopes. One lock, no query.
    public func removals(since count: UInt64) -> [RemovalScope]? {
        listener.scopes(since: count)
    }

    /// Its errors name no key, path or value.
    public func eventDescription(of error: any Error) -> String? {
        if let error = error as? PostgresCacheStoreError { return error.description }
        if let error = error as? PSQLError { return "PostgreSQL error \(error.code)" + (error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? "") }
        return nil
    }

    /// Waits for the tables; the first call of each method pays for creating them.
    @inline(__always)
    func ensureSchema() async throws {
        try await schema.value
    }

    // MARK: - Entries

    /// The entry stored under exactly `key.text`, unless it is older than `maxAge`.
    ///
    /// One indexed query. Its last use is brought forward only when it is `touchGranularity`
    /// or more behind, so a hit is a read and nothing else, but for one read per entry a minute.
    public func entry(for key: CacheKey) async throws -> CacheEntry? {
        try await ensureSchema()
        let now = self.now().timeIntervalSinceReferenceDate
        let cutoff = maxAge.map { now - $0 } ?? -Double.greatestFiniteMagnitude
        let rows = try await client.query(
            """
            SELECT key_text, body, stored_at, etag, last_modified, fresh_lifetime, fresh_initial_age, fresh_no_cache,
                fresh_must_revalidate, fresh_stale_if_error, fresh_stale_while_revalidate, last_used
            FROM \(unescaped: entries) WHERE digest = \(key.digest) AND stored_at >= \(cutoff)
            """, logger: Self.logger)
        // Read to the end (one row at most) before looking at it, so the connection goes back at once.
        var found: PostgresRow?
        for try await row in rows { found = row }
        guard let row = found else { return nil }
        let (text, body, stored, etag, lastModified, lifetime, initialAge, noCache, mustRevalidate, staleIfError, swr, lastUsed) =
            try row.decode(
                (String, ByteBuffer, Double, String?, String?, Double?, Double?, Bool?, Bool?, Double?, Double?, Double).self)
        guard text == key.text else { return nil }
        if now - lastUsed >= Self.touchGranularity { await touch(key.digest, at: now) }
        let freshness = initialAge.map {
            ServerFreshness(
                lifetime: lifetime, initialAge: $0, noCache: noCache ?? false, mustRevalidate: mustRevalidate ?? false,
                staleIfError: staleIfError, staleWhileRevalidate: swr)
        }
        return CacheEntry(
            body: Data(buffer: body, byteTransferStrategy: .noCopy),
            date: Date(timeIntervalSinceReferenceDate: stored), etag: etag, lastModified: lastModified,
            freshness: freshness)
    }

    /// Least-recently-used order needs uses only to the minute; touching on every hit would
    /// make every read a write.
    static let touchGranularity: TimeInterval = 60

    /// Records a use; a failure only makes eviction order coarser, so it is not thrown.
    private func touch(_ digest: String, at now: Double) async {
        try? await client.run(
            "UPDATE \(unescaped: entries) SET last_used = \(now) WHERE digest = \(digest) AND last_used < \(now)",
            logger: Self.logger)
    }

    /// Stores the entry in one statement (an upsert), so a reader anywhere sees the old row or
    /// the new one; then applies the limits when the running total is over `maxBytes`.
    public func setEntry(_ entry: CacheEntry, for key: CacheKey) async throws {
        try await ensureSchema()
        let now = self.now().timeIntervalSinceReferenceDate
        let size = entry.body.count + key.text.utf8.count
        let freshness = entry.freshness
        let rows = try await client.query(
            """
            INSERT INTO \(unescaped: entries) (digest, key_text, endpoint, partition, path, body, stored_at, etag, last_modified,
                fresh_lifetime, fresh_initial_age, fresh_no_cache, fresh_must_revalidate, fresh_stale_if_error,
                fresh_stale_while_revalidate, size, last_used)
            VALUES (\(key.digest), \(key.text), \(key.endpoint), \(key.partition), \(key.path), \(ByteBuffer(data: entry.body)),
                \(entry.date.timeIntervalSinceReferenceDate), \(entry.etag), \(entry.lastModified), \(freshness?.lifetime),
                \(freshness?.initialAge), \(freshness?.noCache), \(freshness?.mustRevalidate), \(freshness?.staleIfError),
                \(freshness?.staleWhileRevalidate), \(size), \(now))
            ON CONFLICT (digest) DO UPDATE SET key_text = EXCLUDED.key_text, endpoint = EXCLUDED.endpoint,
                partition = EXCLUDED.partition, path = EXCLUDED.path, body = EXCLUDED.body, stored_at = EXCLUDED.stored_at,
                etag = EXCLUDED.etag, last_modified = EXCLUDED.last_modified, fresh_lifetime = EXCLUDED.fresh_lifetime,
                fresh_initial_age = EXCLUDED.fresh_initial_age, fresh_no_cache = EXCLUDED.fresh_no_cache,
                fresh_must_revalidate = EXCLUDED.fresh_must_revalidate, fresh_stale_if_error = EXCLUDED.fresh_stale_if_error,
                fresh_stale_while_revalidate = EXCLUDED.fresh_stale_while_revalidate, size = EXCLUDED.size,
                last_used = EXCLUDED.last_used
            RETURNING (SELECT sum(bytes) FROM \(unescaped: usage))::bigint
            """, logger: Self.logger)
        var total: Int64 = 0
        for try await value in rows.decode(Int64?.self) { total = value ?? 0 }
        // The total was read before this statement's own trigger ran: add this entry.
        try await applyLimits(totalBefore: Int(total) + size)
    }

    /// Removes the entry under `key`; not counted in `removalCount` (see `CacheStore.removalCount`).
    public func removeEntry(for key: CacheKey) async throws {
        try await ensureSchema()
        try await client.run("DELETE FROM \(unescaped: entries) WHERE digest = \(key.digest)", logger: Self.logger)
    }
}
