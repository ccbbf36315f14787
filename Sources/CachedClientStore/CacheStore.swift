import Foundation

/// Where `CachedClient` keeps entries.
///
/// Rules every implementation keeps:
/// - `entry(for:)` returns an entry only if it was stored under exactly `key.text`;
///   anything unreadable (corrupt, truncated, foreign, older format) is a miss and is
///   removed, never a crash.
/// - `setEntry(_:for:)` is atomic: a reader sees the old entry, the new one, or none,
///   never a mix, even if the process dies halfway.
/// - Only what is passed in is stored: never request headers or cookies.
/// - Methods may be called concurrently from any task.
/// - Errors are for the caller to report; `CachedClient` never fails a call the network
///   can serve because a store threw.
public protocol CacheStore: Sendable {
    /// The entry stored under `key`, or `nil`.
    func entry(for key: CacheKey) async throws -> CacheEntry?
    /// Stores `entry` under `key`, replacing any earlier one.
    func setEntry(_ entry: CacheEntry, for key: CacheKey) async throws
    /// Removes the entry under `key`, if any.
    func removeEntry(for key: CacheKey) async throws
    /// Removes every entry.
    func removeAll() async throws
    /// Removes every entry of one partition (for sign-out); shared entries stay.
    func removeAll(partition: String) async throws
    /// Removes every entry of one endpoint (`Repository.method`), in all partitions.
    func removeAll(endpoint: String) async throws
    /// Removes every entry of one endpoint whose `CacheKey.path` is exactly `path`, in all
    /// partitions and whatever its query, headers or body (all pages of `/accounts/42`);
    /// what an `Invalidation` with a path asks for after a mutation.
    ///
    /// A store may remove more than asked, never less: a mutation's invalidation must not
    /// leave an entry it names behind, while removing another path's entry only costs a
    /// request. The default implementation removes the whole endpoint; a store that groups
    /// entries by path should keep the other paths' entries.
    func removeAll(endpoint: String, path: String) async throws
    /// The bytes used by all entries, for a settings screen.
    func totalSize() async throws -> Int
    /// The number of entries, for a settings screen.
    func entryCount() async throws -> Int
    /// The age past which the store drops an entry (`nil`: no limit); the client's in-memory
    /// layer applies it too, so memory never answers with what the store would have dropped.
    var maxAge: TimeInterval? { get }
    /// A number that grows with every `removeAll…` through this store, made by any client or,
    /// for a store shared between processes, any process; clients compare it with the value they
    /// saw when they took a value into memory or started a write, so that nothing removed is
    /// served from memory or written back. (`removeEntry`, the store's and the client's own
    /// housekeeping of one key, need not count.) Read on every hit in memory: no system call,
    /// no lock if possible.
    ///
    /// No default implementation: a store that could not say would silently break that rule.
    /// A removal may move it more than once (before it starts and after it ends), and it
    /// may move without a removal; it never goes back.
    var removalCount: UInt64 { get }
    /// What the removals that moved `removalCount` past `count` covered, so that clients keep
    /// what none of them covered; `nil` when the store cannot say (it keeps no such record,
    /// or no longer holds the one for `count`), which clients take as "everything".
    ///
    /// Read only after `removalCount` moved, never on a hit in memory. The list may say more
    /// than what was removed (removals past the current count, a scope wider than the
    /// removal, the same removal twice), never less: every removal that moved the count past
    /// `count` must be covered by a scope in it, including one that has moved the count
    /// but not ended. A move of the count without a removal needs no scope. The default
    /// implementation returns `nil`: a client then treats every removal as covering everything.
    func removals(since count: UInt64) -> [RemovalScope]?
    /// A description of an error this store threw that holds no user data (no path, key or
    /// value), for events; `nil` lets the client describe it by domain and code.
    func eventDescription(of error: any Error) -> String?
}

extension CacheStore {
    /// No age limit.
    public var maxAge: TimeInterval? { nil }

    /// No record of what was removed: every removal counts as a removal of everything.
    public func removals(since count: UInt64) -> [RemovalScope]? { nil }

    /// No description of its own: events show the error's domain and code.
    public func eventDescription(of error: any Error) -> String? { nil }

    /// Removes every entry of the endpoint, which includes those of `path`: correct for any
    /// store; stores that group entries by path (both built-in ones do) remove only the
    /// path's entries.
    public func removeAll(endpoint: String, path: String) async throws {
        try await removeAll(endpoint: endpoint)
    }
}

extension CacheStore {
    /// Whether a removal since `count` (the store's `removalCount` when a call started or a
    /// value was taken) may have covered `key`: never when the count has not moved (one load,
    /// as before), otherwise as `removals(since:)` says, and always when it cannot say.
    package func mayHaveRemoved(_ key: CacheKey, since count: UInt64) -> Bool {
        guard removalCount != count else { return false }
        guard let scopes = removals(since: count) else { return true }
        return scopes.contains { $0.covers(key) }
    }
}
