import CachedClientStore
@_spi(Generated) import CachedClientValues
import Foundation

// Removing entries (sign-out, "clear cache" on a settings screen, a mutation's
// invalidations), waiting for writes, and usage figures.
//
// Each removal drops the values in memory and the writes on their way to the store, and
// bumps the generation, before the store removes anything (so neither a fetch under way nor
// a write waiting its turn can store afterwards); it waits for the writes of the keys it
// covers that are already under way, so none lands after it; and it drops the values again
// after (so a value read from the store while it was removing cannot stay in memory).
// Writes of other keys go on meanwhile. Live queries showing a removed key are told last.

extension CachedClient {
    /// What the store holds, for a settings screen ("Cached data: 12 MB").
    public struct Usage: Sendable, Equatable {
        /// The bytes used by all entries.
        public var bytes: Int
        /// The number of entries.
        public var entries: Int

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
        replacedEntities.forgetAll()
        entityReaders.dropAllUnread()
        try await remove(.all, matching: { _ in true }) { try await $0.removeAll() }
        await removeQueuedMutations(partition: nil)
    }

    /// Removes one user's entries, on disk and in memory, for sign-out, with the mutations
    /// queued under that user (never sent under the next one's token); shared entries and
    /// other users' stay. Answers still in flight for that user, and their writes still on
    /// their way to the store, are not stored. The entities that user's mutations replaced,
    /// remembered for entries read later, are forgotten.
    public func removeAll(partition: String) async throws {
        replacedEntities.forget(partition: partition)
        entityReaders.dropUnread(partition: partition)
        try await remove(.partition(partition), matching: { $0.partition == partition }) {
            try await $0.removeAll(partition: partition)
        }
        await removeQueuedMutations(partition: partition)
    }

    /// Removes every entry of one endpoint (`Repository.method`), in every partition, with
    /// its writes still on their way to the store.
    public func removeAll(endpoint: String) async throws {
        try await remove(.endpoint(endpoint), matching: { $0.endpoint == endpoint }) {
            try await $0.removeAll(endpoint: endpoint)
        }
    }

    /// Removes the entries the invalidations name. Each removal is reported as an `.evict`
    /// event; the first failure is thrown after all were tried.
    @_spi(Generated)
    public func invalidate(_ invalidations: [Invalidation]) async throws {
        var firstError: (any Error)?
        for invalidation in invalidations {
            do {
                try await remove(invalidation)
                report(invalidation, kind: .evict, message: "invalidated")
            } catch {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
    }

    /// Runs a mutation's invalidations after its 2xx answer; a removal that fails is an
    /// `.error` event, because the call itself succeeded and must not throw.
    package func apply(_ invalidations: [Invalidation], after endpoint: Endpoint) async {
        for invalidation in invalidations {
            do {
                try await remove(invalidation)
                report(invalidation, kind: .evict, message: "invalidated by \(endpoint.name)")
            } catch {
                report(
                    invalidation, kind: .error,
                    message: "invalidation by \(endpoint.name) failed: \(safeDescription(of: error))")
            }
        }
    }

    /// Removes the entries an optimistic change was on, after its mutation went through, so
    /// that the live queries showing them refetch the server's truth; a failure is an `.error`
    /// event.
    package func removeOptimisticEntries(_ keys: [CacheKey]) async {
        for key in keys {
            do {
                try await remove(.endpoint(key.endpoint), matching: { $0.text == key.text }) { try await $0.removeEntry(for: key) }
            } catch {
                events(
                    CacheEvent(
                        kind: .error, endpoint: key.endpoint, key: key.description,
                        message: "remove after an optimistic update failed: \(safeDescription(of: error))"))
            }
        }
    }

    private func remove(_ invalidation: Invalidation) async throws {
        try await remove(.endpoint(invalidation.endpoint), matching: invalidation.matches) { store in
            if let path = invalidation.path {
                try await store.removeAll(endpoint: invalidation.endpoint, path: path)
            } else {
                try await store.removeAll(endpoint: invalidation.endpoint)
            }
        }
    }

    /// The one way entries are removed: the removal recorded (pending writes dropped) and
    /// memory cleared, the writes under way waited for, the store, and the removal recorded and
    /// memory cleared again, so that nothing read while the store removed stays.
    private func remove(
        _ scope: WriteBehind.RemovalScope, matching matches: (CacheKey) -> Bool,
        inStore removeStored: (any CacheStore) async throws -> Void
    ) async throws {
        writes.recordRemoval(scope, dropping: matches)
        memory.removeAll(where: matches)
        defer {
            writes.recordRemoval(scope, dropping: matches)
            memory.removeAll(where: matches)
            queries.removed(matching: matches)
        }
        await writes.wait(for: matches)
        try await removeStored(store)
    }

    /// An event for a removal of many entries: the key is `*` for a whole endpoint, or the
    /// first 16 hex digits of the SHA-256 of the path (never the path, which holds
    /// parameter values).
    private func report(_ invalidation: Invalidation, kind: CacheEvent.Kind, message: String) {
        let key = invalidation.path.map { String(SHA256.hex(of: $0).prefix(16)) } ?? "*"
        events(CacheEvent(kind: kind, endpoint: invalidation.endpoint, key: key, message: message))
    }
}
