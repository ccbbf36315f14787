@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues
import Foundation

// What a `MemoryCacheStore` holds, counted like `FileCacheStore`'s inspection: bytes are the
// bodies' (there is no file), and nothing is ever unreadable.
extension MemoryCacheStore: InspectableCacheStore, CacheInspectionPins {
    /// Every entry and queued mutation, judged at `options.now`.
    public func inspect(_ options: CacheInspection.Options) -> CacheInspection {
        var builder = CacheInspection.Builder(options: options)
        builder.pinned = inspectionPinnedDigests()
        for (key, entry) in storedEntries() {
            builder.addEntry(
                keyText: key.text, folderPartition: key.partition, endpoint: key.endpoint, digest: key.digest,
                bytes: entry.body.count, date: entry.date, freshness: entry.freshness, body: entry.body)
        }
        for mutation in outbox.withLock({ $0.mutations.values.flatMap { $0 } }) {
            builder.addMutation(mutation)
        }
        return builder.finish()
    }

    /// The digests of the entries this store's prefetch plans pin, done or not.
    package func inspectionPinnedDigests() -> Set<String> {
        Set(prefetchPlans().flatMap { $0.pinnedKeys.map(\.digest) })
    }
}
