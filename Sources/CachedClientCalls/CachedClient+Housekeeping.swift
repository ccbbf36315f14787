import CachedClientStore
@_spi(Generated) import CachedClientValues
import Foundation

// Removing entries (sign-out, "clear cache" on a settings screen, a mutation's invalidations),
// waiting for writes, usage figures. How a removal keeps every write on its way from undoing it
// is the writer's (`CallWriter.remove(_:matching:inStore:)`). Then the app's lifecycle signals,
// which live queries hear of; a look inside (`inspect`); entries fetched ahead and pinned (`Prefetcher`).

extension CachedClient {
    /// What the store holds, for a settings screen ("Cached data: 12 MB", `12 entries, 1.4 MB`).
    public struct Usage: Sendable, Equatable, CustomStringConvertible {
        /// The bytes used by all entries.
        public var bytes: Int
        /// The number of entries.
        public var entries: Int

        /// The entry count and the size in bytes, KB or MB (powers of 1,000, one decimal), as
        /// `CacheInspection`'s table prints sizes.
        public var description: String {
            let count = entries == 1 ? "1 entry" : "\(entries) entries"
            return "\(count), \(ByteCountText.format(bytes))"
        }

        /// The memberwise initializer, for the package's other modules.
        package init(bytes: Int, entries: Int) {
            self.bytes = bytes
            self.entries = entries
        }
    }

    /// What the store holds, this client's writes on their way included (it waits for them).
    public func usage() async throws -> Usage {
        await flush()
        return Usage(bytes: try await store.totalSize(), entries: try await store.entryCount())
    }

    /// Waits until every write this client started so far has reached its store (or
    /// failed, which is reported as an `.error` event as always), and every claim it holds
    /// for fleet-wide request collapsing (`CacheStoreLeasing`) is released.
    ///
    /// This client sees its answers at once; another client or process reading the same
    /// store sees them when they land. Call `flush()` before handing the store to someone
    /// else (an app extension), before the app is suspended, and before a server process
    /// shuts its store down. Removals need no flush: they wait for the writes they cover.
    public func flush() async {
        await writes.wait()
    }

    /// Removes every entry, on disk and in memory, and the writes still on their way to the
    /// store: "Clear cache" on a settings screen. Queued mutations of every user go too, and
    /// the entities mutations replaced, remembered for entries read later.
    public func removeAll() async throws {
        mutations.forget(partition: nil)
        try await writer.remove(.all, matching: { _ in true }) { try await $0.removeAll() }
        await mutations.removeQueuedMutations(partition: nil, on: self)
    }

    /// Removes one user's entries, on disk and in memory, for sign-out, with the mutations
    /// queued under that user (never sent under the next one's token); shared entries and
    /// other users' stay. Answers still in flight for that user, and their writes still on
    /// their way to the store, are not stored. The entities that user's mutations replaced,
    /// remembered for entries read later, are forgotten.
    public func removeAll(partition: String) async throws {
        mutations.forget(partition: partition)
        try await writer.remove(.partition(partition), matching: { $0.partition == partition }) {
            try await $0.removeAll(partition: partition)
        }
        await mutations.removeQueuedMutations(partition: partition, on: self)
    }

    /// Removes every entry of one endpoint (`Repository.method`), in every partition, with
    /// its writes still on their way to the store.
    public func removeAll(endpoint: String) async throws {
        try await writer.remove(.endpoint(endpoint), matching: { $0.endpoint == endpoint }) {
            try await $0.removeAll(endpoint: endpoint)
        }
    }

    /// Removes the entries the invalidations name. Each removal is reported as an `.evict`
    /// event; the first failure is thrown after all were tried.
    @_spi(Generated)
    public func invalidate(_ invalidations: [Invalidation]) async throws {
        try await writer.invalidate(invalidations)
    }

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

    /// What the store holds, per partition and endpoint, the mutations waiting and the files
    /// that could not be read, after this client's writes landed; `nil` when the store cannot
    /// say (see `CacheInspection` and `InspectableCacheStore.inspect(_:)`).
    public func inspect(includingValues: Bool = false, ttls: [String: TimeInterval] = [:]) async throws -> CacheInspection? {
        guard let store = store as? any InspectableCacheStore else { return nil }
        await flush()
        return try await store.inspect(CacheInspection.Options(now: now(), includeValues: includingValues, ttls: ttls))
    }

    /// Fetches `calls` ahead and pins their entries until `unpin(named:)`, with progress, cancel
    /// and resume (see `Prefetcher.prefetch(named:_:maxConcurrentCalls:)`).
    @discardableResult
    public func prefetch(named name: String, _ calls: [PrefetchCall], maxConcurrentCalls: Int = 4) -> PrefetchJob {
        Prefetcher(client: self).prefetch(named: name, calls, maxConcurrentCalls: maxConcurrentCalls)
    }

    /// Resumes the signed-in user's stored plan `name`; `nil` when there is none (see `Prefetcher`).
    public func resumePrefetch(named name: String, maxConcurrentCalls: Int = 4) async throws -> PrefetchJob? {
        try await Prefetcher(client: self).resumePrefetch(named: name, maxConcurrentCalls: maxConcurrentCalls)
    }

    /// The signed-in user's prefetch plans, with how far each got (see `Prefetcher`).
    public func prefetchPlans() async throws -> [PrefetchProgress] {
        try await Prefetcher(client: self).prefetchPlans()
    }

    /// Lets the entries of the plan `name` go: its job stops and the plan is removed (see `Prefetcher`).
    public func unpin(named name: String) async throws {
        try await Prefetcher(client: self).unpin(named: name)
    }
}
