import CachedClientRuntime
import Foundation
import PostgresNIO

/// Fleet-wide request collapsing: claims in `<ns>_leases`, one row per key digest, with the
/// holder's token and an expiry by the store's clock (`now`, the system clock unless a test
/// injects one). Machines of a fleet therefore need clocks that agree to well within a lease's
/// duration (NTP keeps them within milliseconds; leases last seconds): a machine whose clock
/// runs ahead takes over claims early, costing one extra upstream request, never a wrong answer.
///
/// - A claim is one statement: insert the row, or take over a row whose claim has expired;
///   the primary key makes it atomic across every process, so of concurrent claims exactly
///   one gets a row back.
/// - A holder killed with `kill -9` never releases: its claim ends at its expiry, and the
///   next claim takes the row over.
/// - Release deletes the row only if it still holds this holder's token.
/// - Expired rows left by dead holders are deleted by `trim()`.
extension PostgresCacheStore: CacheStoreLeasing {
    /// Claims `key` for `duration` seconds by the store's clock; `nil` while another live claim holds it.
    public func claim(_ key: CacheKey, for duration: TimeInterval) async throws -> CacheLease? {
        try await ensureSchema()
        let token = UUID().uuidString
        let now = self.now().timeIntervalSinceReferenceDate
        let rows = try await client.query(
            """
            INSERT INTO \(unescaped: leases) AS l (digest, holder, expires_at)
            VALUES (\(key.digest), \(token), \(now + max(0, duration)))
            ON CONFLICT (digest) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
            WHERE l.expires_at <= \(now)
            RETURNING holder
            """, logger: Self.logger)
        var claimed = false
        for try await holder in rows.decode(String.self) { claimed = holder == token }
        return claimed ? CacheLease(key: key, token: token) : nil
    }

    /// Ends the claim, unless it expired and another holder took the key since.
    public func release(_ lease: CacheLease) async throws {
        try await ensureSchema()
        try await client.run(
            "DELETE FROM \(unescaped: leases) WHERE digest = \(lease.key.digest) AND holder = \(lease.token)",
            logger: Self.logger)
    }

    /// Deletes claims that expired without a release (their holders died).
    func deleteExpiredLeases() async throws {
        try await client.run(
            "DELETE FROM \(unescaped: leases) WHERE expires_at < \(now().timeIntervalSinceReferenceDate)", logger: Self.logger)
    }
}
