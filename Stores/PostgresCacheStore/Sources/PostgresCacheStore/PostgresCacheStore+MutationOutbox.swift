import CachedClientRuntime
import Foundation
import NIOFoundationCompat
import PostgresNIO

// The outbox of a `PostgresCacheStore` (`MutationOutbox`): one row per queued mutation in
// `<ns>_outbox`, shared by every process and machine on the same tables, and removed in the
// same transaction as the entries of its partition by `removeAll(partition:)` (sign-out) and
// `removeAll()`; `removeAll(endpoint:)` and `removeAll(endpoint:path:)` (invalidations) and
// the limits (`maxBytes`, `maxAge`, `trim()`) never touch it.
//
// A row: `slot` (the partition as a non-null key: '-' signed out, '+' and the partition
// otherwise), `sequence`, `id`, `partition` (as the app named it, for people reading the
// table), `format` (1) and `record`, the mutation as JSON in `bytea` (as an entry's body:
// same database, same role, same protection). The primary key `(slot, sequence)` is the
// listing order; `UNIQUE (slot, id)` finds one mutation, and makes a retried enqueue of one
// mutation (say, after a connection lost during `COMMIT`) fail rather than store it twice.
// Headers named `Authorization`, `Proxy-Authorization` or `Cookie` are never written, even if
// a caller passes them: the client adds credentials when it sends.
//
// Sequence, strictly increasing per partition across every process and connection: a
// `bigserial` is not enough, since numbers are drawn before commit (a transaction that drew 5
// may commit after one that drew 6 was listed and sent, and 5 would then appear behind a
// mutation already sent). Instead `<ns>_outbox_sequences` holds one row per slot with the last
// number given, and `enqueueMutation(_:)` runs, in one read-committed transaction:
//   1. `INSERT … ON CONFLICT (slot) DO UPDATE SET last = last + 1 RETURNING last`: the new
//      number, with the slot's row locked until commit, so concurrent enqueues of one
//      partition take turns here (other partitions' rows are not locked);
//   2. the mutation's row with that number;
//   3. `COMMIT`, which releases the lock.
// A later enqueue of the partition gets its number only after the earlier one committed, so a
// number is greater than that of every mutation stored before it, and no listing ever shows a
// gap that a smaller number fills later. A process killed at any moment before `COMMIT` ends
// its session, so the server rolls back both the row and the number (nothing, or the whole
// record: the row is a single insert). The counter is kept when mutations are sent or
// discarded, so numbers are not given twice; it goes with the partition at sign-out (no
// partition name is left behind), and numbers of that partition start again at 1.
//
// Durability: `enqueueMutation(_:)` returns after `COMMIT` returned, with `synchronous_commit`
// raised to `on` for that transaction when the server has it `off` (a cache database may,
// for speed; a queued write must not be lost to a server crash either); a stronger setting
// (`remote_apply`) is left as it is. `idle_in_transaction_session_timeout` is set for the
// transaction, so a client machine lost mid-enqueue (no reset ever reaches the server)
// releases the slot's lock after 30 s instead of holding up that partition's enqueues.
//
// Removal of a partition (in `removing(_:scope:mutations:)`) deletes its sequence row first,
// then its mutations, in one read-committed transaction. The first `DELETE` waits for any
// enqueue holding the row; the second, a new statement with a new snapshot, then sees that
// enqueue's committed mutation and deletes it too. An enqueue that starts after the first
// `DELETE` waits on the deleted row's key until the removal commits, then starts the partition
// again at 1 (it came after the sign-out). So no mutation ever outlives its slot's counter,
// and a sequence is never given twice while a mutation holding it is stored.
extension PostgresCacheStore: MutationOutbox {
    /// Stores the mutation after every mutation of its partition and returns it with its
    /// sequence number; it is committed (durably, see above) when this returns.
    public func enqueueMutation(_ mutation: QueuedMutation) async throws -> QueuedMutation {
        try await ensureSchema()
        let clean = Self.withoutCredentials(mutation)
        let slot = Self.outboxSlot(clean.partition)
        let outbox = outbox
        let sequences = outboxSequences
        return try await client.withConnection { connection in
            try await connection.run("BEGIN ISOLATION LEVEL READ COMMITTED", logger: Self.logger)
            do {
                try await connection.run(
                    """
                    SELECT set_config('idle_in_transaction_session_timeout', '30s', true),
                        CASE WHEN current_setting('synchronous_commit') = 'off'
                            THEN set_config('synchronous_commit', 'on', true) END
                    """, logger: Self.logger)
                var last: Int64?
                for try await value in try await connection.query(
                    """
                    INSERT INTO \(unescaped: sequences) AS s (slot, last) VALUES (\(slot), 1)
                    ON CONFLICT (slot) DO UPDATE SET last = s.last + 1
                    RETURNING last
                    """, logger: Self.logger
                ).decode(Int64.self) {
                    last = value
                }
                guard let last, let sequence = UInt64(exactly: last) else { throw OutboxCounterMissing() }
                var stored = clean
                stored.sequence = sequence
                let record = ByteBuffer(data: try Self.encodeRecord(stored))
                try await connection.run(
                    """
                    INSERT INTO \(unescaped: outbox) (slot, sequence, id, partition, format, record)
                    VALUES (\(slot), \(last), \(stored.id), \(stored.partition), \(Self.outboxFormat), \(record))
                    """, logger: Self.logger)
                try await connection.run("COMMIT", logger: Self.logger)
                return stored
            } catch {
                try? await connection.run("ROLLBACK", logger: Self.logger)
                throw error
            }
        }
    }

    /// The partition's mutations in `sequence` order, in one query by the primary key; a row
    /// that does not read back comes back as `QueuedMutation.unreadable(…)`.
    public func queuedMutations(partition: String?) async throws -> [QueuedMutation] {
        try await ensureSchema()
        let rows = try await client.query(
            """
            SELECT sequence, id, format, record FROM \(unescaped: outbox)
            WHERE slot = \(Self.outboxSlot(partition)) ORDER BY sequence
            """, logger: Self.logger)
        var found: [QueuedMutation] = []
        for try await row in rows { found.append(try Self.readRecord(row, partition: partition)) }
        return found
    }

    /// The stored record with the mutation's partition and id, by the unique index; `nil` when
    /// it is gone.
    public func queuedMutation(_ mutation: QueuedMutation) async throws -> QueuedMutation? {
        try await ensureSchema()
        let rows = try await client.query(
            """
            SELECT sequence, id, format, record FROM \(unescaped: outbox)
            WHERE slot = \(Self.outboxSlot(mutation.partition)) AND id = \(mutation.id)
            """, logger: Self.logger)
        var found: QueuedMutation?
        for try await row in rows { found = try Self.readRecord(row, partition: mutation.partition) }
        return found
    }

    /// Rewrites the record with the mutation's partition and id in one statement, keeping its
    /// sequence (its place in the queue never moves); nothing when it is gone.
    public func updateMutation(_ mutation: QueuedMutation) async throws {
        try await ensureSchema()
        let record = ByteBuffer(data: try Self.encodeRecord(Self.withoutCredentials(mutation)))
        try await client.run(
            """
            UPDATE \(unescaped: outbox) SET format = \(Self.outboxFormat), record = \(record)
            WHERE slot = \(Self.outboxSlot(mutation.partition)) AND id = \(mutation.id)
            """, logger: Self.logger)
    }

    /// Deletes the mutation with the same partition and id; nothing when it is gone.
    public func removeMutation(_ mutation: QueuedMutation) async throws {
        try await ensureSchema()
        try await client.run(
            "DELETE FROM \(unescaped: outbox) WHERE slot = \(Self.outboxSlot(mutation.partition)) AND id = \(mutation.id)",
            logger: Self.logger)
    }

    // MARK: - Records

    /// The record format this version writes and reads; a row of another (a later version's,
    /// read after a downgrade) is listed as unreadable rather than guessed at.
    static let outboxFormat = 1

    /// Header names never written to the outbox, whatever a caller passes.
    static let credentialHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie"]

    /// The key of a partition's rows: `-` signed out, `+` and the partition otherwise, so that
    /// no partition name (not even "") is mistaken for signed out.
    static func outboxSlot(_ partition: String?) -> String {
        partition.map { "+" + $0 } ?? "-"
    }

    /// The mutation without credential headers.
    static func withoutCredentials(_ mutation: QueuedMutation) -> QueuedMutation {
        var clean = mutation
        clean.headers.removeAll { credentialHeaders.contains($0.name.lowercased()) }
        return clean
    }

    /// The JSON written to `record`.
    static func encodeRecord(_ mutation: QueuedMutation) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(mutation)
    }

    /// The mutation in a row of `sequence, id, format, record`, or a failed placeholder naming
    /// why it could not be read. Its sequence is the column's (an update keeps the row's
    /// place); its id and partition must match the columns, or the record is not this row's.
    /// Throws only when not even the sequence and id read back (a table altered by hand).
    static func readRecord(_ row: PostgresRow, partition: String?) throws -> QueuedMutation {
        let cells = row.makeRandomAccess()
        let sequence = UInt64(clamping: try cells[0].decode(Int64.self))
        let id = try cells[1].decode(String.self)
        func unreadable(_ reason: String) -> QueuedMutation {
            .unreadable(id: id, sequence: sequence, partition: partition, reason: reason)
        }
        guard let format = try? cells[2].decode(Int.self), let buffer = try? cells[3].decode(ByteBuffer.self) else {
            return unreadable("its columns do not read back")
        }
        guard format == outboxFormat else { return unreadable("of an unknown format") }
        guard var mutation = try? JSONDecoder().decode(QueuedMutation.self, from: Data(buffer: buffer, byteTransferStrategy: .noCopy))
        else { return unreadable("damaged") }
        guard mutation.id == id, mutation.partition == partition else { return unreadable("its content is another row's") }
        mutation.sequence = sequence
        return mutation
    }

    /// What a removal takes from the outbox besides entries.
    enum OutboxRemoval {
        /// Nothing: invalidations leave queued mutations.
        case none
        /// Every partition's (`removeAll()`).
        case all
        /// One slot's (`removeAll(partition:)`).
        case slot(String)
    }

    /// The statements, in order, that remove `removal`'s mutations inside a removal's
    /// transaction: the sequence rows first, then the mutations (see the top of this file).
    func outboxStatements(_ removal: OutboxRemoval) -> [PostgresQuery] {
        switch removal {
        case .none:
            []
        case .all:
            ["DELETE FROM \(unescaped: outboxSequences)", "DELETE FROM \(unescaped: outbox)"]
        case .slot(let slot):
            [
                "DELETE FROM \(unescaped: outboxSequences) WHERE slot = \(slot)",
                "DELETE FROM \(unescaped: outbox) WHERE slot = \(slot)",
            ]
        }
    }
}

/// The sequence upsert returned no row: not possible on intact tables.
struct OutboxCounterMissing: Error, CustomStringConvertible {
    var description: String { "the outbox's sequence row did not come back" }
}
