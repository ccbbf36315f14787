import Foundation

/// Which cached calls one fetch of a `CachedQuery` made, told by
/// `CachedClient.value(for:endpoint:policy:as:)` through a task-local value.
///
/// A query runs any async function (a generated repository method, a mock's handler, an
/// app's own wrapper around several calls); the calls that reach a client say which client,
/// key and rule they used and what they saw when they started. So a query over a live
/// repository knows which entries it shows without generated code telling it, and a query
/// over a mock simply records nothing. Outside a query the task-local is `nil` and a call
/// pays one task-local read.
final class QueryProbe: Sendable {
    /// The probe of the query fetch running in this task, if any.
    @TaskLocal static var current: QueryProbe?

    /// One cached call a fetch made, with the state it started under.
    struct Record: Sendable {
        let client: CachedClient
        let key: CacheKey
        let rule: CacheRule
        /// The client's removal generation when the call started.
        let generation: UInt64
        /// The client's partition switches when the call started.
        let partitionSwitches: UInt64
        /// The store's `removalCount` when the call started (or when the query last checked).
        var storeRemovals: UInt64
    }

    private let state = Locked<[Record]>([])

    /// Called by the client for each cached call made under this probe.
    func record(_ record: Record) {
        state.withLock { records in
            if !records.contains(where: { $0.client === record.client && $0.key == record.key }) { records.append(record) }
        }
    }

    /// The calls recorded so far, in the order they started.
    var records: [Record] {
        state.withLock { $0 }
    }
}
