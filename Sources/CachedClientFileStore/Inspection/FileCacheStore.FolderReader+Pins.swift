import CachedClientStore
@_spi(RuntimeLayers) import CachedClientValues
import Foundation

// The pins of a folder an inspection reads: the prefetch plans in each partition's `.prefetch`
// folder (`FileCacheStore.PrefetchPlans`), read as the store reads them, but read-only: a plan
// that does not read back is left where it is (the store removes it on its next read) and
// pins nothing.
extension FileCacheStore.FolderReader {
    /// The digests of the entries the folder's prefetch plans pin, done or not.
    package func inspectionPinnedDigests() throws -> Set<String> {
        let plans = FileCacheStore.PrefetchPlans.plans(in: folder)
        return Set(plans.flatMap { $0.pinnedKeys.map(\.digest) })
    }
}
