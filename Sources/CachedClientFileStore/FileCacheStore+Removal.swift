import CachedClientStore
import Foundation

// Bulk removal and the removal count: each `removeAll…` is one folder rename per partition at
// most (`BulkRemoval`), counted in the removal counter every store on the folder shares, in
// every process (`RemovalCounter`, with the scopes in `RemovalLog`).
extension FileCacheStore {
    /// Grows with every `removeAll…` through any store on this folder, in this process or
    /// another: each adds one before it starts and one after it ends. One aligned
    /// load from a shared mapping, no system call and no lock (see `RemovalCounter`).
    public var removalCount: UInt64 { removals.value }

    /// The scopes of the removals since `count` through any store on this folder, in this
    /// process or another, from the log beside the count (`RemovalLog`: the last 63 removals
    /// or so); `nil` when the log does not know them all. One shared `flock` and one read.
    public func removals(since count: UInt64) -> [RemovalScope]? {
        removals.scopes(since: count)
    }

    /// Moves the whole entry tree aside in one rename, then deletes it.
    public func removeAll() async throws {
        try bulkRemoval.remove(.everything)
    }

    /// Deletes the partition's folder (for sign-out); shared entries live elsewhere and stay.
    public func removeAll(partition: String) async throws {
        try bulkRemoval.remove(.partition(partition))
    }

    /// Deletes the endpoint's folder in every partition; lists partitions, not entries.
    public func removeAll(endpoint: String) async throws {
        try bulkRemoval.remove(.endpoint(endpoint))
    }

    /// Deletes the folder of one endpoint's path in every partition (an invalidation after a
    /// mutation); lists partitions, not entries, and leaves the endpoint's other paths.
    public func removeAll(endpoint: String, path: String) async throws {
        try bulkRemoval.remove(.path(path, endpoint: endpoint))
    }
}
