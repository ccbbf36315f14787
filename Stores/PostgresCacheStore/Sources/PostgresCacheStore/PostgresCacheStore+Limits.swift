import CachedClientRuntime
import PostgresNIO
import Synchronization

extension PostgresCacheStore {
    /// How many rows one eviction statement deletes: enough to make progress, few enough that
    /// it never holds many row locks or runs long.
    static let evictionBatch = 256
    /// Expired rows are looked for once per this many writes of this process (and by `trim()`).
    static let expiryEvery = 64

    /// The bytes of all entries (bodies and key texts), from the running total: 16 rows read,
    /// whatever the number of entries.
    public func totalSize() async throws -> Int {
        try await usageTotals().bytes
    }

    /// The number of entries, from the running total.
    public func entryCount() async throws -> Int {
        try await usageTotals().entries
    }

    private func usageTotals() async throws -> (bytes: Int, entries: Int) {
        try await ensureSchema()
        let rows = try await client.query(
            "SELECT coalesce(sum(bytes), 0)::bigint, coalesce(sum(entries), 0)::bigint FROM \(unescaped: usage)",
            logger: Self.logger)
        var totals = (bytes: 0, entries: 0)
        for try await (bytes, entries) in rows.decode((Int64, Int64).self) { totals = (Int(bytes), Int(entries)) }
        return totals
    }

    /// Applies `maxAge` and `maxBytes` now, whatever the running total says, and deletes
    /// claims whose holders died without releasing them.
    public func trim() async throws {
        try await ensureSchema()
        try await deleteExpired()
        try await deleteExpiredLeases()
        try await applyLimits(totalBefore: try await totalSize())
    }

    /// After a write: every `expiryEvery` writes, deletes expired rows; when the total is over
    /// `maxBytes`, deletes least recently used rows (read by the `last_used` index, at most
    /// `evictionBatch` at a time) until it is under 90% of it, so the next write does not
    /// start over at once.
    func applyLimits(totalBefore total: Int) async throws {
        if maxAge != nil, writesSinceExpiry.wrappingAdd(1, ordering: .relaxed).newValue % Self.expiryEvery == 0 {
            try await deleteExpired()
        }
        guard let maxBytes, total > maxBytes else { return }
        let target = maxBytes / 10 * 9
        var remaining = total
        while remaining > target {
            // The least recently used rows, oldest first, and just as many as free enough;
            // another process evicting at the same time may pick some of the same rows, which
            // then are deleted once.
            let candidates = try await client.query(
                """
                SELECT digest, size FROM \(unescaped: entries) ORDER BY last_used, digest LIMIT \(Self.evictionBatch)
                """, logger: Self.logger)
            var victims: [String] = []
            var freeing = 0
            for try await (digest, size) in candidates.decode((String, Int64).self) where remaining - freeing > target {
                victims.append(digest)
                freeing += Int(size)
            }
            if victims.isEmpty { return }
            try await client.run("DELETE FROM \(unescaped: entries) WHERE digest = ANY(\(victims))", logger: Self.logger)
            // Re-read: other processes write and evict at the same time.
            remaining = try await totalSize()
        }
    }

    /// Deletes rows stored longer ago than `maxAge`, in batches, by the `stored_at` index.
    func deleteExpired() async throws {
        guard let maxAge else { return }
        let cutoff = now().timeIntervalSinceReferenceDate - maxAge
        while true {
            let rows = try await client.query(
                """
                WITH victims AS (
                    SELECT digest FROM \(unescaped: entries) WHERE stored_at < \(cutoff) ORDER BY stored_at
                    LIMIT \(Self.evictionBatch) FOR UPDATE SKIP LOCKED)
                DELETE FROM \(unescaped: entries) e USING victims v WHERE e.digest = v.digest
                RETURNING 1
                """, logger: Self.logger)
            var deleted = 0
            for try await _ in rows { deleted += 1 }
            if deleted < Self.evictionBatch { return }
        }
    }
}
