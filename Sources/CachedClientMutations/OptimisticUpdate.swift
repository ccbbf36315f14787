@_spi(Generated) import CachedClientCalls
import CachedClientStore
@_spi(Generated) import CachedClientValues
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
/// For a model with an identity (`CachedEntity`), ``replacing(_:)`` puts the entity as it will
/// be in every cached value of the signed-in user that holds it, whichever query shows it.
///
/// A query that has not loaded (or whose function makes no cached call) names no entries, and
/// its update changes nothing.
public struct OptimisticUpdate: Sendable {
    /// One client's entries the change is on.
    package struct Target: Sendable {
        package let client: CachedClient
        package let keys: [CacheKey]

        /// The memberwise initializer, for the package's other modules.
        package init(client: CachedClient, keys: [CacheKey]) {
            self.client = client
            self.keys = keys
        }
    }

    package let targets: [Target]
    /// For an entity: applied on every entry of the partition of the client that runs it.
    package let isEntity: Bool
    package let transform: @Sendable (any Sendable) -> Any?

    /// The entity as the mutation will make it, shown at once in every cached value of the
    /// signed-in user's partition (and shared ones) that holds it, read through the client
    /// running `withOptimisticUpdates(_:isolation:_:)` or shown by its live queries: found by
    /// its identity, where the JSON object with that id decodes as `E`.
    public static func replacing<E: CachedEntity>(_ entity: E) -> OptimisticUpdate {
        let replacement = EntityReplacement(entity, coding: JSONCoding())
        return OptimisticUpdate(isEntity: true) { value in replacement?.replaced(in: value) }
    }

    private init(isEntity: Bool, transform: @escaping @Sendable (any Sendable) -> Any?) {
        targets = []
        self.isEntity = isEntity
        self.transform = transform
    }

    /// A change of values of type `Value` on the entries `keys` of `client`; values of other
    /// types are left as they are.
    package init<Value: Sendable>(targets: [Target], change: @escaping @Sendable (inout Value) -> Void) {
        self.targets = targets
        isEntity = false
        transform = { value in
            guard var typed = value as? Value else { return nil }
            change(&typed)
            return typed
        }
    }
}
