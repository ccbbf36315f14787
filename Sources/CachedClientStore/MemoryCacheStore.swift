@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues
import Foundation

/// A `CacheStore` in memory, for tests and SwiftUI previews: the same rules as
/// `FileCacheStore` (exact key text, partitions, endpoints, sizes) without touching disk,
/// and gone when the process ends.
public final class MemoryCacheStore: CacheStore {
    private let entries = Locked<[String: Stored]>([:])
    /// Bumped under the entries' lock by every `removeAll…`, so it moves together with what it
    /// counts, with the scopes of the latest removals.
    private let removals = Locked(Removals())
    /// Queued mutations by partition (see `MemoryCacheStore+MutationOutbox.swift`), removed
    /// with their partition.
    package let outbox = Locked(MemoryOutbox())
    /// Plans of calls fetched ahead (see `MemoryCacheStore+CachePinning.swift`), removed with
    /// their partition.
    package let plans = Locked<[MemoryPlanKey: PrefetchPlan]>([:])

    /// Creates an empty store.
    public init() {}

    /// The entry stored under exactly `key.text`.
    public func entry(for key: CacheKey) -> CacheEntry? {
        entries.withLock { $0[key.text]?.entry }
    }

    /// Stores the entry, replacing any earlier one under the same key text.
    public func setEntry(_ entry: CacheEntry, for key: CacheKey) {
        entries.withLock { $0[key.text] = Stored(key: key, entry: entry) }
    }

    /// Forgets the entry under `key`; not counted in `removalCount` (see `CacheStore.removalCount`).
    public func removeEntry(for key: CacheKey) {
        entries.withLock { _ = $0.removeValue(forKey: key.text) }
    }

    /// Forgets every entry, every queued mutation and every plan of calls fetched ahead.
    public func removeAll() {
        removing(.everything) { $0.removeAll() }
        outbox.withLock { $0.mutations.removeAll() }
        plans.withLock { $0.removeAll() }
    }

    /// Forgets one partition's entries, queued mutations and plans of calls fetched ahead, as
    /// sign-out does; shared entries stay.
    public func removeAll(partition: String) {
        removing(.partition(partition)) { entries in entries = entries.filter { $0.value.key.partition != partition } }
        outbox.withLock { _ = $0.mutations.removeValue(forKey: partition) }
        plans.withLock { plans in plans = plans.filter { $0.key.partition != partition } }
    }

    /// Forgets one endpoint's entries in every partition.
    public func removeAll(endpoint: String) {
        removing(.endpoint(endpoint)) { entries in entries = entries.filter { $0.value.key.endpoint != endpoint } }
    }

    /// Forgets one endpoint's entries of one resolved path, in every partition and for
    /// every query, as an `Invalidation` with a path asks.
    public func removeAll(endpoint: String, path: String) {
        removing(.path(path, endpoint: endpoint)) { entries in
            entries = entries.filter { $0.value.key.endpoint != endpoint || $0.value.key.path != path }
        }
    }

    /// Grows with every `removeAll…`; one lock, no system call.
    public var removalCount: UInt64 {
        removals.withLock { $0.count }
    }

    /// The scopes of the removals since `count`, from the last `Removals.kept`; `nil` past those.
    public func removals(since count: UInt64) -> [RemovalScope]? {
        removals.withLock { removals in
            guard count < removals.count else { return [] }
            guard removals.count - count <= UInt64(removals.recent.count) else { return nil }
            return Array(removals.recent.suffix(Int(removals.count - count)))
        }
    }

    /// Runs a removal and bumps the count, both under the entries' lock, so a reader never
    /// sees the entries gone with the old count.
    private func removing(_ scope: RemovalScope, _ body: (inout [String: Stored]) -> Void) {
        entries.withLock { entries in
            body(&entries)
            removals.withLock { removals in
                removals.count &+= 1
                if removals.recent.count == Removals.kept { removals.recent.removeFirst() }
                removals.recent.append(scope)
            }
        }
    }

    /// The bytes of all bodies; unlike `FileCacheStore` no header is counted, since there is no file.
    public func totalSize() -> Int {
        entries.withLock { $0.values.reduce(0) { $0 + $1.entry.body.count } }
    }

    /// The number of entries.
    public func entryCount() -> Int {
        entries.withLock { $0.count }
    }

    /// The keys of all entries, sorted by text, so tests can check what was (and was not) stored.
    public func keys() -> [CacheKey] {
        entries.withLock { $0.values.map(\.key) }.sorted { $0.text < $1.text }
    }

    /// Every entry with its key, for an inspection (`MemoryCacheStore+Inspection.swift`).
    package func storedEntries() -> [(key: CacheKey, entry: CacheEntry)] {
        entries.withLock { $0.values.map { ($0.key, $0.entry) } }
    }

    /// The removal count and the scopes of the latest removals, the last for `count`.
    private struct Removals {
        /// How many scopes are kept; `removals(since:)` says `nil` for older counts.
        package static let kept = 64
        package var count: UInt64 = 0
        package var recent: [RemovalScope] = []
    }

    /// One entry with the key it was stored under, so partition and endpoint removal need no parsing.
    private struct Stored {
        package var key: CacheKey
        package var entry: CacheEntry
    }
}
