import Foundation

/// How a mutation changes cached values before the server answers (TanStack Query's
/// `onMutate`): a change of the typed value of a live query, applied at once to every read of
/// the query's entries and every live query showing them, marked pending
/// (`CachedQuery.hasPendingChanges`), and taken out exactly when the mutation fails for good.
///
/// Made by a loaded query (`query.optimisticUpdate { $0.append(draft) }`) and passed to
/// `CachedClient.withOptimisticUpdates(_:_:)` with the mutation:
///
/// ```swift
/// let result = try await client.withOptimisticUpdates([notes.optimisticUpdate { $0.append(draft) }]) {
///     try await repository.createNote(body: draft)
/// }
/// ```
///
/// A query that has not loaded (or whose function makes no cached call) names no entries, and
/// its update changes nothing.
public struct OptimisticUpdate: Sendable {
    /// One client's entries the change is on.
    struct Target: Sendable {
        let client: CachedClient
        let keys: [CacheKey]
    }

    let targets: [Target]
    let transform: @Sendable (any Sendable) -> (any Sendable)?

    /// A change of values of type `Value` on the entries `keys` of `client`; values of other
    /// types are left as they are.
    init<Value: Sendable>(targets: [Target], change: @escaping @Sendable (inout Value) -> Void) {
        self.targets = targets
        transform = { value in
            guard var typed = value as? Value else { return nil }
            change(&typed)
            return typed
        }
    }
}
