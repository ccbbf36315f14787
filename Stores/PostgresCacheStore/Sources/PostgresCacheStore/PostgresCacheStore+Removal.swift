import CachedClientRuntime
import PostgresNIO

extension PostgresCacheStore {
    /// Removes every entry, in every process's view (see `RemovalListener`), and every queued
    /// mutation of every partition, in the same transaction.
    public func removeAll() async throws {
        try await removing("", scope: .everything, mutations: .all)
    }

    /// Removes one partition's entries, as sign-out does, and its queued mutations in the same
    /// transaction (never sent under the next user's token); shared entries and other
    /// partitions' mutations stay.
    public func removeAll(partition: String) async throws {
        try await removing(
            " WHERE partition = \(partition)", scope: .partition(partition), mutations: .slot(Self.outboxSlot(partition)))
    }

    /// Removes one endpoint's entries in every partition; queued mutations stay (an invalidation).
    public func removeAll(endpoint: String) async throws {
        try await removing(" WHERE endpoint = \(endpoint)", scope: .endpoint(endpoint))
    }

    /// Removes one endpoint's entries of one resolved path, in every partition and for every
    /// query, by the `(endpoint, path)` index; other paths' entries and queued mutations stay.
    public func removeAll(endpoint: String, path: String) async throws {
        try await removing(" WHERE endpoint = \(endpoint) AND path = \(path)", scope: .path(path, endpoint: endpoint))
    }

    /// Deletes the rows matched by `condition`, bumps and announces the fleet's removal count
    /// with `scope` in the same transaction, then waits for every listening process to
    /// acknowledge it. This process's number moves (with `scope` in its log) before the
    /// deletion starts and after it ends, so a client of this process that read it at any
    /// moment in between sees it change and finds what it covers.
    ///
    /// Two notifications leave, in this order: `<count> <kind> <digest>` (the scope, see
    /// `RemovalListener.payload(_:count:)`), then `<count>` alone, the only one versions
    /// before scopes read; a listener that has the scope ignores the second.
    ///
    /// `mutations` names the outbox rows that go in the same transaction (sign-out and
    /// `removeAll()`): their partitions' sequence rows first, then the mutations (see
    /// `PostgresCacheStore+MutationOutbox.swift` for why in this order).
    func removing(_ condition: PostgresQuery, scope: RemovalScope, mutations: OutboxRemoval = .none) async throws {
        try await ensureSchema()
        listener.bump(scope)
        defer { listener.bump(scope) }
        let query = PostgresQuery(unsafeSQL: "DELETE FROM \(entries)" + condition.sql, binds: condition.binds)
        let removals = removals
        let outboxDeletions = outboxStatements(mutations)
        let channel = namespace + "_removals"
        let announced: Int64 = try await client.withConnection { connection in
            // Read committed whatever the server's default: each statement sees what committed
            // before it, which the outbox's removal order relies on.
            try await connection.run("BEGIN ISOLATION LEVEL READ COMMITTED", logger: Self.logger)
            do {
                try await connection.run(query, logger: Self.logger)
                for statement in outboxDeletions {
                    try await connection.run(statement, logger: Self.logger)
                }
                var count: Int64 = 0
                let rows = try await connection.query(
                    "UPDATE \(unescaped: removals) SET count = count + 1 WHERE id = 1 RETURNING count", logger: Self.logger)
                for try await value in rows.decode(Int64.self) { count = value }
                let scoped = RemovalListener.payload(scope, count: count)
                try await connection.run("SELECT pg_notify(\(channel), \(scoped))", logger: Self.logger)
                try await connection.run("SELECT pg_notify(\(channel), \(String(count)))", logger: Self.logger)
                try await connection.run("COMMIT", logger: Self.logger)
                return count
            } catch {
                try? await connection.run("ROLLBACK", logger: Self.logger)
                throw error
            }
        }
        try await waitForAcknowledgements(of: announced)
    }

    /// Polls `<ns>_listeners` until every live listener has seen `count`; past
    /// `acknowledgementTimeout`, ends the sessions of those that have not, so their processes
    /// stop trusting memory (`RemovalListener`) before this removal returns.
    private func waitForAcknowledgements(of count: Int64) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + acknowledgementTimeout
        var pause: Duration = .microseconds(200)
        while true {
            let behind = try await client.query(
                """
                SELECT l.pid FROM \(unescaped: listeners) l
                JOIN pg_stat_activity a ON a.pid = l.pid AND a.backend_start = l.backend_start
                WHERE l.seen < \(count)
                """, logger: Self.logger)
            var pids: [Int32] = []
            for try await pid in behind.decode(Int32.self) { pids.append(pid) }
            if pids.isEmpty { return }
            if clock.now >= deadline {
                for pid in pids {
                    // Fails without the right to (another role, not a superuser): then all
                    // that is left is that process noticing its session is gone.
                    try? await client.run("SELECT pg_terminate_backend(\(pid))", logger: Self.logger)
                    try? await client.run(
                        "DELETE FROM \(unescaped: listeners) WHERE pid = \(pid)", logger: Self.logger)
                }
                return
            }
            try await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(20))
        }
    }
}
