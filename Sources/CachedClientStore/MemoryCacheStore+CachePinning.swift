@_spi(RuntimeLayers) import CachedClientValues
import Foundation

// The plans of a `MemoryCacheStore`: by partition and name, gone with the process. The store
// has no limits, so pinning changes nothing of what it keeps.
extension MemoryCacheStore: CachePinning {
    /// Keeps the plan, replacing the one with the same name and partition.
    public func savePrefetchPlan(_ plan: PrefetchPlan) {
        plans.withLock { $0[MemoryPlanKey(name: plan.name, partition: plan.partition)] = plan }
    }

    /// The plan named `name` of `partition`.
    public func prefetchPlan(named name: String, partition: String?) -> PrefetchPlan? {
        plans.withLock { $0[MemoryPlanKey(name: name, partition: partition)] }
    }

    /// Every plan, by partition then name.
    public func prefetchPlans() -> [PrefetchPlan] {
        plans.withLock { Array($0.values) }.sorted { ($0.partition ?? "", $0.name) < ($1.partition ?? "", $1.name) }
    }

    /// Forgets the plan.
    public func removePrefetchPlan(named name: String, partition: String?) {
        _ = plans.withLock { $0.removeValue(forKey: MemoryPlanKey(name: name, partition: partition)) }
    }
}

/// A plan's place in a `MemoryCacheStore`.
package struct MemoryPlanKey: Hashable, Sendable {
    package var name: String
    package var partition: String?
}
