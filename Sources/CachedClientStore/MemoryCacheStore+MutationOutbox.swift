@_spi(RuntimeLayers) import CachedClientValues
import Foundation

// The outbox of a `MemoryCacheStore`: per partition, in order, gone with the process.
extension MemoryCacheStore: MutationOutbox {
    /// Appends the mutation to its partition's list with the next sequence number.
    public func enqueueMutation(_ mutation: QueuedMutation) -> QueuedMutation {
        outbox.withLock { outbox in
            outbox.lastSequence += 1
            var stored = mutation
            stored.sequence = outbox.lastSequence
            outbox.mutations[stored.partition, default: []].append(stored)
            return stored
        }
    }

    /// The partition's mutations in order.
    public func queuedMutations(partition: String?) -> [QueuedMutation] {
        outbox.withLock { $0.mutations[partition] ?? [] }
    }

    /// The stored mutation with the same partition and id.
    public func queuedMutation(_ mutation: QueuedMutation) -> QueuedMutation? {
        outbox.withLock { $0.mutations[mutation.partition]?.first { $0.id == mutation.id } }
    }

    /// Replaces the mutation with the same partition and id, if it is still there.
    public func updateMutation(_ mutation: QueuedMutation) {
        outbox.withLock { outbox in
            guard let index = outbox.mutations[mutation.partition]?.firstIndex(where: { $0.id == mutation.id }) else { return }
            outbox.mutations[mutation.partition]?[index] = mutation
        }
    }

    /// Removes the mutation with the same partition and id.
    public func removeMutation(_ mutation: QueuedMutation) {
        outbox.withLock { outbox in
            outbox.mutations[mutation.partition]?.removeAll { $0.id == mutation.id }
            if outbox.mutations[mutation.partition]?.isEmpty == true { outbox.mutations[mutation.partition] = nil }
        }
    }
}

/// The queued mutations of a `MemoryCacheStore`, by partition, and the last sequence given.
package struct MemoryOutbox {
    package var mutations: [String?: [QueuedMutation]] = [:]
    package var lastSequence: UInt64 = 0
}
