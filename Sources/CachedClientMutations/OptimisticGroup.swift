@_spi(Generated) import CachedClientCalls
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues
import Foundation

/// The changes of one `CachedClient.withOptimisticUpdates(_:_:)`: applied together, and
/// taken out together when their mutation went through (then the server's answer replaces
/// them) or failed for good (then they are rolled back, and only they).
///
/// The first mutation queued inside the call adopts the group (it is carried through the
/// task-local `current`): the group then stays until that mutation is sent or fails, however
/// long it waits. Without one, the call's own outcome settles it.
package final class OptimisticGroup: Sendable {
    /// The group of the `withOptimisticUpdates` running in this task, if any.
    @TaskLocal package static var current: OptimisticGroup?

    /// A change as applied on one client: on `keys`, or on its whole partition. It holds the
    /// client's layer and registry, and the client weakly: a group that a client's layer keeps
    /// while its mutation waits must not keep the client alive.
    private struct Applied: Sendable {
        package let layer: PendingChanges
        package let queries: QueryRegistry
        package let client: WeakClient
        package let keys: [CacheKey]
        package let isEverywhere: Bool
        package let number: UInt64

        package init(_ client: CachedClient, keys: [CacheKey], isEverywhere: Bool, number: UInt64) {
            layer = client.optimistic
            queries = client.queries
            self.client = WeakClient(client)
            self.keys = keys
            self.isEverywhere = isEverywhere
            self.number = number
        }
    }

    /// A client held weakly. Set once, when made; the runtime reads and clears a weak reference
    /// atomically, so it is safe to share.
    private final class WeakClient: @unchecked Sendable {
        package weak var client: CachedClient?

        package init(_ client: CachedClient) {
            self.client = client
        }
    }

    private struct State {
        package var applied: [Applied] = []
        package var mutationID: String?
        package var isResolved = false
    }

    private let state = Locked(State())

    /// Applies `updates` on their clients (an entity's on `client`, which runs them) and tells
    /// the live queries showing their entries.
    package init(_ updates: [OptimisticUpdate], client: CachedClient) {
        var applied: [Applied] = []
        for update in updates {
            if update.isEntity {
                let number = client.optimistic.add(.partition(client.partition), transform: update.transform)
                applied.append(Applied(client, keys: [], isEverywhere: true, number: number))
            }
            for target in update.targets where !target.keys.isEmpty {
                let number = target.client.optimistic.add(.keys(target.keys.map(\.text)), transform: update.transform)
                applied.append(Applied(target.client, keys: target.keys, isEverywhere: false, number: number))
            }
        }
        state.withLock { $0.applied = applied }
        for change in applied {
            if change.isEverywhere {
                change.queries.broadcast(.optimistic)
            } else {
                change.queries.optimisticChanged(Set(change.keys.map(\.text)))
            }
        }
    }

    /// Makes the queued mutation `id` the one whose outcome settles the group; `false` when
    /// another one already did.
    package func adopt(mutation id: String) -> Bool {
        state.withLock { state in
            guard state.mutationID == nil, !state.isResolved else { return false }
            state.mutationID = id
            return true
        }
    }

    /// Whether a queued mutation adopted the group.
    package var isAdopted: Bool {
        state.withLock { $0.mutationID != nil }
    }

    /// The mutation failed for good (or was discarded): the changes come out and the queries
    /// showing their entries show what they showed before, with the other pending changes.
    package func rollBack() {
        for change in resolve() {
            let removed = change.layer.remove([change.number])
            if removed.everywhere {
                change.queries.broadcast(.optimistic)
            } else {
                change.queries.optimisticChanged(removed.keys)
            }
        }
    }

    /// The mutation went through: the changes come out without a word to the live queries,
    /// `invalidate` runs the mutation's invalidations (and puts the entities of its answer in
    /// place), and the changed entries those did not remove are removed, so that every query
    /// showing one refetches the server's truth and keeps the changed value on screen until
    /// its refetch ends. The queries an entity's change reached read their entries again.
    package func settle(invalidating invalidations: [Invalidation], _ invalidate: () async -> Void) async {
        let applied = resolve()
        for change in applied { change.layer.remove([change.number]) }
        await invalidate()
        for change in applied {
            if change.isEverywhere {
                change.queries.broadcast(.reread)
                continue
            }
            let left = change.keys.filter { key in !invalidations.contains { $0.matches(key) } }
            if !left.isEmpty { await change.client.client?.writer.removeOptimisticEntries(left) }
        }
    }

    /// The changes, once: the group is resolved.
    private func resolve() -> [Applied] {
        state.withLock { state in
            guard !state.isResolved else { return [] }
            state.isResolved = true
            return state.applied
        }
    }
}
