import Foundation

/// A durable queue of mutations per partition, kept by a store beside its entries, that
/// `CachedClient` uses for endpoints marked `"offline": "queue"` (see "Offline writes").
///
/// A `CacheStore` adopts it to keep queued mutations across relaunches; both built-in
/// stores do (`FileCacheStore` as one file per mutation in the partition's folder,
/// `MemoryCacheStore` in memory). With a store that does not, the client keeps its outbox
/// in memory only, gone with the process.
///
/// Rules every implementation keeps:
/// - `enqueueMutation(_:)` returns only once the mutation is stored so that it survives
///   the process being killed at any later moment; it gives it a `sequence` greater than
///   that of every mutation of its partition stored before.
/// - `queuedMutations(partition:)` lists one partition's mutations in `sequence` order. A
///   record that cannot be read back is listed as `QueuedMutation.unreadable(…)` (failed,
///   with its id) rather than thrown or dropped, and never crashes.
/// - `removeAll()` and `removeAll(partition:)` of the store remove the mutations they
///   cover, so that nothing queued by a signed-out user is sent under the next one's token.
///   `removeAll(endpoint:)` and `removeAll(endpoint:path:)` (invalidations) leave them.
/// - Records are stored with the same protection as entries; they hold no credentials.
/// - Methods may be called concurrently from any task.
public protocol MutationOutbox: Sendable {
    /// Stores `mutation` after every mutation of its partition, and returns it with the
    /// sequence number it was given.
    func enqueueMutation(_ mutation: QueuedMutation) async throws -> QueuedMutation
    /// One partition's mutations (`nil`: those made signed out), in `sequence` order.
    func queuedMutations(partition: String?) async throws -> [QueuedMutation]
    /// The stored record of `mutation` (the same partition, sequence and id), body included;
    /// `nil` when it is gone. The client keeps only what the list shows in memory and reads
    /// a body when it sends it, so its memory does not grow with the bodies waiting.
    func queuedMutation(_ mutation: QueuedMutation) async throws -> QueuedMutation?
    /// Replaces the stored mutation with the same partition and id (its attempts or its
    /// failure changed); nothing when it is gone.
    func updateMutation(_ mutation: QueuedMutation) async throws
    /// Removes the mutation with the same partition and id; nothing when it is gone.
    func removeMutation(_ mutation: QueuedMutation) async throws
}

extension MutationOutbox {
    /// Finds the record in `queuedMutations(partition:)`: correct for any outbox; both
    /// built-in stores read the one record.
    public func queuedMutation(_ mutation: QueuedMutation) async throws -> QueuedMutation? {
        try await queuedMutations(partition: mutation.partition).first { $0.id == mutation.id }
    }
}
