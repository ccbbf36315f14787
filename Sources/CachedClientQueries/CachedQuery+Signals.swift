#if canImport(Observation)
import Foundation
@_spi(Generated) import CachedClientCalls

// What a query does when its client tells it something. Pushed by the client: removals
// through it, partition switches, answers it stores, the app's lifecycle signals. Checked
// by the query on a lifecycle signal: removals anywhere else, through the store's
// `removalCount` and, when it moved, what the removals covered (`removals(since:)`).
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension CachedQuery {
    package func receive(_ signal: QueryRegistry.Signal) {
        switch signal {
        case .removed:
            // The old value stays on screen while the refetch runs; dropped if it fails.
            showsRemovedValue = true
            startFetch(policy: nil)

        case .partitionChanged:
            let switched = sources.contains { record in
                record.rule.scope == .user && record.client.partitionState.switches != record.partitionSwitches
            }
            guard switched else { return }
            clear()
            setSources([])
            startFetch(policy: nil)

        case .lifecycle:
            guard !isLoading else { return }
            if isStale || error != nil {
                startFetch(policy: nil)
            } else if removalsCoverSources() {
                startRemovalCheck()
            }

        case .optimistic:
            applyPendingChanges()

        case .reread:
            rereadFromCache()

        case .stored(let stored, let freshness, let version):
            guard !isLoading, sources.count == 1, version > seenVersion, let value = stored as? Value else { return }
            seenVersion = version
            sources[0].freshness = freshness
            show(.fresh(value: value))
        }
    }

    /// Whether a removal elsewhere since a source's call may have covered its key; the sources
    /// whose count moved by removals that covered none of them take the new count as seen,
    /// with no read.
    private func removalsCoverSources() -> Bool {
        var covered = false
        for index in sources.indices {
            let store = sources[index].client.store
            let removals = store.removalCount
            guard removals != sources[index].storeRemovals else { continue }
            if store.mayHaveRemoved(sources[index].key, since: sources[index].storeRemovals) {
                covered = true
            } else {
                sources[index].storeRemovals = removals
            }
        }
        return covered
    }

    /// After a removal somewhere else: one read per source (no network); refetches if an
    /// entry is gone, otherwise notes the store's count as seen.
    private func startRemovalCheck() {
        let records = sources
        lifetime.run { @MainActor [weak self] in
            var gone = false
            var checked: [UInt64] = []
            for record in records {
                let removals = record.client.store.removalCount
                if await !record.client.reader.holdsEntry(for: record.key) { gone = true }
                checked.append(removals)
            }
            guard let self, !self.isLoading, self.sources.map(\.key) == records.map(\.key) else { return }
            if gone {
                self.showsRemovedValue = true
                self.startFetch(policy: nil)
            } else {
                for index in self.sources.indices { self.sources[index].storeRemovals = checked[index] }
            }
        }
    }
}
#endif
