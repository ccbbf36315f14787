import CachedClientStore
@_spi(RuntimeLayers) import CachedClientValues
import Foundation

/// A client's running prefetch jobs, one per name and partition, and the plans it keeps
/// itself when its store does not adopt `CachePinning`.
package final class PrefetchRegistry: Sendable {
    private let jobs = Locked<[Slot: PrefetchJob]>([:])
    /// Plans of a client whose store keeps none: in memory, gone with the process.
    package let privatePlans = MemoryCacheStore()

    package init() {}

    /// Calls done between two saves of a running plan: a relaunch fetches at most these again.
    package static let saveEvery = 50

    /// A job's place: its name and partition.
    private struct Slot: Hashable {
        var name: String
        var partition: String?
    }

    /// The running job of `name` in `partition`, if any.
    package func job(named name: String, partition: String?) -> PrefetchJob? {
        jobs.withLock { $0[Slot(name: name, partition: partition)] }
    }

    /// Makes `job` the one of its name, returning the one it replaces.
    package func replace(with job: PrefetchJob, partition: String?) -> PrefetchJob? {
        jobs.withLock { jobs in
            let slot = Slot(name: job.name, partition: partition)
            defer { jobs[slot] = job }
            return jobs[slot]
        }
    }

    /// Forgets `job` once it ended, unless another replaced it.
    package func remove(_ job: PrefetchJob, partition: String?) {
        jobs.withLock { jobs in
            let slot = Slot(name: job.name, partition: partition)
            if jobs[slot] === job { jobs[slot] = nil }
        }
    }
}
