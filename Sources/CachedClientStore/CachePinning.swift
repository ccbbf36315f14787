import Foundation

/// Named plans of calls fetched ahead (`PrefetchPlan`), kept by a store beside its entries,
/// whose entries the store's eviction and age limits leave until the plan is removed.
///
/// A `CacheStore` adopts it so that "available offline" survives relaunches and limits;
/// both built-in stores do (`FileCacheStore` as one file per plan in the partition's folder,
/// `MemoryCacheStore` in memory, which has no limits). With a store that does not, the
/// client keeps its plans in memory only, and the store's limits apply to their entries.
///
/// Rules every implementation keeps:
/// - `savePrefetchPlan(_:)` replaces the plan of the same name and partition atomically: a
///   reader, or the next launch after the process was killed, finds the old plan or the new
///   one, never a mix. A record that cannot be read back is left out (and may be removed),
///   never thrown and never a crash.
/// - An entry whose key a plan pins (`PrefetchPlan.pinnedKeys`) is never evicted for size
///   or age, nor refused on a read for age, while the plan exists. Removals
///   (`removeAll…`, invalidations) still remove it.
/// - `removeAll()` removes every plan, `removeAll(partition:)` the partition's plans (sign-out
///   takes the pins with the entries); other removals leave plans.
/// - Methods may be called concurrently from any task.
public protocol CachePinning: Sendable {
    /// Stores `plan`, replacing the plan with the same name and partition.
    func savePrefetchPlan(_ plan: PrefetchPlan) async throws
    /// The plan named `name` of `partition` (`nil`: signed out), or `nil`.
    func prefetchPlan(named name: String, partition: String?) async throws -> PrefetchPlan?
    /// Every plan of every partition, each with its name, partition and pinned keys: what a
    /// cache inspector lists as pins.
    func prefetchPlans() async throws -> [PrefetchPlan]
    /// Removes the plan; its entries are no longer pinned (they stay, as any entry).
    func removePrefetchPlan(named name: String, partition: String?) async throws
}
