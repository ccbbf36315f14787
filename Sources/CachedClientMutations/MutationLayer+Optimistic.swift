@_spi(Generated) import CachedClientCalls
import CachedClientStore
@_spi(Generated) import CachedClientValues
import Foundation

// Optimistic updates: changes of cached values made before a mutation's answer, shown at
// once, taken out when it went through (the server's answer and the mutation's invalidations
// replace them) or rolled back exactly when it failed for good. The client's `PendingChanges`
// holds them per key; `OptimisticGroup` is one call's changes; the layer holds the groups queued
// mutations carry.
extension MutationLayer {
    /// Applies `updates` on `client`, runs `mutation`, and keeps the updates pending until the
    /// mutation's outcome is known (see `CachedClient.withOptimisticUpdates(_:isolation:_:)`).
    package func withOptimisticUpdates<Result>(
        _ updates: [OptimisticUpdate], on client: CachedClient, isolation: isolated (any Actor)? = #isolation,
        _ mutation: () async throws -> Result
    ) async throws -> Result {
        // On the main actor, the queries show the change before this returns to the caller.
        let onMainActor = isolation.map { $0 === MainActor.shared } ?? false
        let group = QueryRegistry.$callerIsOnMainActor.withValue(onMainActor) { OptimisticGroup(updates, client: client) }
        let result: Result
        do {
            result = try await OptimisticGroup.$current.withValue(group) { try await mutation() }
        } catch {
            if !group.isAdopted { QueryRegistry.$callerIsOnMainActor.withValue(onMainActor) { group.rollBack() } }
            throw error
        }
        if !group.isAdopted { await group.settle(invalidating: []) {} }
        return result
    }

    /// The queued mutation `id` went through: its updates, if any, come out around
    /// `invalidate` (its invalidations).
    package func settleOptimistic(mutation id: String, invalidations: [Invalidation], _ invalidate: () async -> Void) async {
        if let group = takeGroup(mutation: id) {
            await group.settle(invalidating: invalidations, invalidate)
        } else {
            await invalidate()
        }
    }

    /// The queued mutation `id` failed for good, was discarded or removed: its updates go.
    package func rollBackOptimistic(mutation id: String) {
        takeGroup(mutation: id)?.rollBack()
    }

    /// A call's own mutation went through (not queued): the updates of the call running it, if
    /// no queued mutation carries them, come out around `invalidate`.
    package func settleOptimisticOfCall(invalidations: [Invalidation], _ invalidate: () async -> Void) async {
        if let group = OptimisticGroup.current, !group.isAdopted {
            await group.settle(invalidating: invalidations, invalidate)
        } else {
            await invalidate()
        }
    }
}
