import CachedClientStore
import Foundation

// What live queries (`CachedQuery`) need from the client: the app's lifecycle signals, and
// whether what a query shows is still current.
extension CachedClient {
    /// Tell the client the network is back (from `NWPathMonitor` or the like): every live
    /// query over it that is stale or failed refetches, and each checks that its entries
    /// were not removed elsewhere meanwhile; mutations waiting in the outbox are sent (see
    /// `replayPendingMutations()`). Cheap when no query is held and nothing waits.
    public func networkBecameAvailable() {
        queries.broadcast(.lifecycle)
        mutations.startReplay(on: self)
    }

    /// Tell the client the app became active (`scenePhase == .active`): as
    /// `networkBecameAvailable()`, stale or failed live queries refetch and removals made
    /// by other processes while the app was away are noticed.
    public func appBecameActive() {
        queries.broadcast(.lifecycle)
    }

    /// What a query's probe records about a call.
    package func queryRecord(_ call: Call) -> QueryProbe.Record {
        QueryProbe.Record(
            client: self, key: call.key, rule: call.rule, generation: call.generation,
            partitionSwitches: call.partitionSwitches, storeRemovals: call.storeRemovals)
    }

    /// Whether no removal through this client covered the record's key since its call
    /// started and, for a user-scoped endpoint, the partition did not change.
    package func isCurrent(_ record: QueryProbe.Record) -> Bool {
        guard writes.isCurrent(record.key, since: record.generation) else { return false }
        return record.rule.scope != .user || partitionState.switches == record.partitionSwitches
    }

    /// Whether an entry for `key` is held (see `CallReader.holdsEntry(for:)`).
    package func holdsEntry(for key: CacheKey) async -> Bool {
        await reader.holdsEntry(for: key)
    }
}
