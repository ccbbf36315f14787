import CachedClientStore
@_spi(Generated) import CachedClientValues
import Foundation

// Optimistic updates: changes of cached values made before a mutation's answer, shown at
// once, taken out when it went through (the server's answer and the mutation's invalidations
// replace them) or rolled back exactly when it failed for good. `OptimisticLayer` holds them
// per key; `OptimisticGroup` is one call's changes.
extension CachedClient {
    /// Applies `updates` at once, runs `mutation`, and keeps the updates pending until the
    /// mutation's outcome is known: every read of the changed entries through this client and
    /// every live query showing them show the changed value (queries with `hasPendingChanges`).
    ///
    /// - The first mutation queued inside `mutation` (an endpoint marked `"offline": "queue"`
    ///   that returned `.queued`) carries the updates until it is sent or fails for good,
    ///   across replays; otherwise the call's own outcome decides.
    /// - When it goes through, the updates come out and the changed entries are refetched
    ///   (those the mutation's invalidations removed already, and the others), each query
    ///   keeping the changed value on screen until the server's answer replaces it.
    /// - When it fails for good (a 4xx, an error thrown here, `discardMutation(id:)`, its
    ///   partition removed), exactly these updates are rolled back; others pending stay.
    ///
    /// Updates live in this process: after a relaunch a mutation still queued shows none.
    public func withOptimisticUpdates<Result>(
        _ updates: [OptimisticUpdate], isolation: isolated (any Actor)? = #isolation,
        _ mutation: () async throws -> Result
    ) async throws -> Result {
        // On the main actor, the queries show the change before this returns to the caller.
        let onMainActor = isolation.map { $0 === MainActor.shared } ?? false
        let group = QueryRegistry.$callerIsOnMainActor.withValue(onMainActor) { OptimisticGroup(updates, client: self) }
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
        if let group = optimistic.takeGroup(mutation: id) {
            await group.settle(invalidating: invalidations, invalidate)
        } else {
            await invalidate()
        }
    }

    /// The queued mutation `id` failed for good, was discarded or removed: its updates go.
    package func rollBackOptimistic(mutation id: String) {
        optimistic.takeGroup(mutation: id)?.rollBack()
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

    /// `answer` with the pending changes of `key` applied, for a read outside a live query
    /// (a query applies them itself, to the value it shows).
    package func withPendingChanges<T: Sendable>(_ answer: CachedValue<T>, key: CacheKey) -> CachedValue<T> {
        let (value, pending) = optimistic.apply(to: answer.value, keys: [key])
        guard pending else { return answer }
        switch answer {
        case .fresh: return .fresh(value: value)
        case .cached(_, let date): return .cached(value: value, date: date)
        }
    }
}
