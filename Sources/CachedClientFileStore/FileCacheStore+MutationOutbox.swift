import CachedClientStore
@_spi(RuntimeLayers) import CachedClientValues
import Foundation

// The outbox of a `FileCacheStore`: one durable file per queued mutation in the partition's
// `.outbox` folder, kept by `Outbox` (see there for the layout and what survives a crash).
extension FileCacheStore: MutationOutbox {
    /// Writes the mutation's file after every mutation of its partition; durable when it returns.
    public func enqueueMutation(_ mutation: QueuedMutation) async throws -> QueuedMutation {
        try outbox.enqueue(mutation)
    }

    /// Reads the partition's outbox in order; damaged files come back as failed placeholders,
    /// and a folder or file that cannot be read throws.
    public func queuedMutations(partition: String?) async throws -> [QueuedMutation] {
        try outbox.mutations(partition: partition)
    }

    /// Reads the mutation's one file; `nil` when it is gone.
    public func queuedMutation(_ mutation: QueuedMutation) async throws -> QueuedMutation? {
        try outbox.mutation(mutation)
    }

    /// Rewrites the mutation's file, unless it is gone (sent, discarded or signed out).
    public func updateMutation(_ mutation: QueuedMutation) async throws {
        try outbox.update(mutation)
    }

    /// Deletes the mutation's file.
    public func removeMutation(_ mutation: QueuedMutation) async throws {
        try outbox.remove(mutation)
    }

    /// The outbox folder of a partition (`nil`: signed out, in `shared`); for tests.
    package func outboxPath(partition: String?) -> String {
        folder.outboxPath(partition: partition)
    }

    /// The name of a queued mutation's file; for tests.
    package static func outboxName(_ mutation: QueuedMutation) -> String {
        Outbox.fileName(of: mutation)
    }
}
