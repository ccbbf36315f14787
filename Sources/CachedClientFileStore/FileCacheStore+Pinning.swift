import CachedClientStore
@_spi(RuntimeLayers) import CachedClientValues
import Foundation

// The prefetch plans of a `FileCacheStore` and the entries they pin: one durable file per plan
// in the partition's `.prefetch` folder, kept by `PrefetchPlans` (see there for the layout, what
// survives a crash, and how sweeps and reads past `maxAge` skip pinned entries).
extension FileCacheStore: CachePinning {
    /// Writes the plan's file over the one of the same name and partition; durable when it returns.
    public func savePrefetchPlan(_ plan: PrefetchPlan) async throws {
        try plans.save(plan)
    }

    /// Reads the plan's one file; `nil` when there is none or it does not read back.
    public func prefetchPlan(named name: String, partition: String?) async throws -> PrefetchPlan? {
        plans.plan(named: name, partition: partition)
    }

    /// Reads every partition's plans; damaged files are removed and left out.
    public func prefetchPlans() async throws -> [PrefetchPlan] {
        plans.all()
    }

    /// Deletes the plan's file; its entries are no longer pinned.
    public func removePrefetchPlan(named name: String, partition: String?) async throws {
        try plans.remove(named: name, partition: partition)
    }
}
