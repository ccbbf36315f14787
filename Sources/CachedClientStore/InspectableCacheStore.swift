import Foundation

/// A store that can say what it holds, for an app's debug screen (`CachedClient.inspect`)
/// and `cachegen-cache inspect`; both built-in stores adopt it.
///
/// Rules every implementation keeps:
/// - It reads without blocking the store's users for long and changes nothing: no entry is
///   removed, refreshed or marked as used.
/// - A file or record it cannot read is listed in `CacheInspection.unreadable`, never thrown
///   and never a crash.
/// - It never lists a credential, and bodies only with `CacheInspection.Options.includeValues`.
public protocol InspectableCacheStore: CacheStore {
    /// What the store holds, judged at `options.now`.
    func inspect(_ options: CacheInspection.Options) async throws -> CacheInspection
}

/// Where an inspection reads the pins ("available offline", `CachePinning`) of a store: the
/// keys its prefetch plans name. Both built-in stores read theirs (`MemoryCacheStore`, and
/// `FileCacheStore.FolderReader` from a folder's `.prefetch` plans); a store that keeps none
/// has the default, no entry pinned, and the inspection's `PINNED` column says `none`.
package protocol CacheInspectionPins {
    /// The digests (`CacheKey.digest`) of the pinned entries, read without a lock that
    /// blocks the store's users.
    func inspectionPinnedDigests() throws -> Set<String>
}

extension CacheInspectionPins {
    /// No pins.
    package func inspectionPinnedDigests() throws -> Set<String> { [] }
}
