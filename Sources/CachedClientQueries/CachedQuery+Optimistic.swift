#if canImport(Observation)
import Foundation
@_spi(Generated) import CachedClientCalls
import CachedClientMutations

// Optimistic changes on what a query shows (`PendingChanges` of its clients), and entities
// replaced in its entries by their identity.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension CachedQuery {
    /// A change of this query's value for `CachedClient.withOptimisticUpdates(_:_:)`, on the
    /// entries the query's last load read: applied to every query showing them (of the same
    /// value type) and every read of them through the client until the mutation's outcome
    /// is known.
    ///
    /// ```swift
    /// notes.optimisticUpdate { $0.append(Note(id: "draft", text: text)) }
    /// ```
    ///
    /// `change` runs on a copy of the value each time the value is worked out (a new answer
    /// arrives, another change is made or taken out), so it should only change the value.
    /// A query that has not loaded names no entries, and its update changes nothing.
    public func optimisticUpdate(_ change: @escaping @Sendable (inout Value) -> Void) -> OptimisticUpdate {
        var targets: [OptimisticUpdate.Target] = []
        for record in sources {
            if let index = targets.firstIndex(where: { $0.client === record.client }) {
                targets[index] = OptimisticUpdate.Target(client: record.client, keys: targets[index].keys + [record.key])
            } else {
                targets.append(OptimisticUpdate.Target(client: record.client, keys: [record.key]))
            }
        }
        return OptimisticUpdate(targets: targets, change: change)
    }

    /// Shows the loaded value with the pending changes of the query's entries applied; with
    /// `newValue` false (nothing new was loaded), only when changes are or were applied, so
    /// observers hear of no change that did not happen.
    package func applyPendingChanges(newValue: Bool = false) {
        guard var shown = loadedValue else { return }
        var pending = false
        var clients: [CachedClient] = []
        for record in sources where !clients.contains(where: { $0 === record.client }) {
            clients.append(record.client)
            guard !record.client.optimistic.isEmpty else { continue }
            let keys = sources.filter { $0.client === record.client }.map(\.key)
            let applied = record.client.optimistic.apply(to: shown, keys: keys)
            shown = applied.value
            pending = pending || applied.pending
        }
        guard newValue || pending || hasPendingChanges else { return }
        setValue(shown)
        if hasPendingChanges != pending { hasPendingChanges = pending }
    }

    /// After its stored entries changed under it: reads them again from the cache (no
    /// network) and shows them with the pending changes; when that fails, shows the value it
    /// holds with them. A fetch running now shows its own answer instead.
    package func rereadFromCache() {
        guard !isLoading else { return }
        let fetch = self.fetch
        let number = latestFetch
        lifetime.run { @MainActor [weak self] in
            let answer = try? await fetch(.cacheOnly)
            guard let self, self.latestFetch == number, !self.isLoading else { return }
            if let answer { self.loadedValue = answer.value }
            self.applyPendingChanges(newValue: answer != nil)
        }
    }
}
#endif
