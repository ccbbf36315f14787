import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// `CachedClient`'s first layer: recently used entries with their decoded values, in
/// memory, so that a repeated hit costs neither a disk read nor a decode.
///
/// It never answers what the store would not:
/// - It holds only entries the store has: values go in after a successful store write or
///   after a store read, and a failed write drops the key.
/// - Entries are keyed by the full key text, which holds the partition; the client judges
///   ttl and maxStale on the entry's stored date exactly as for a store entry.
/// - Removals made through the client (`removeAll…`, invalidations) drop values here and
///   bump a generation under the same lock, so a fetch that started before a removal can
///   put its answer neither here nor, since the client re-checks after writing, in the store.
///
/// Bounded by a number of entries and by approximate bytes (the raw bodies), least
/// recently used first out. A limit of 0 keeps no values but still tracks generations.
final class DecodedValueCache: Sendable {
    /// The most entries kept.
    let limit: Int
    /// The most body bytes kept, an approximation of the decoded values' size.
    let byteLimit: Int
    private let state = Locked(Storage())

    init(limit: Int, byteLimit: Int) {
        self.limit = max(0, limit)
        self.byteLimit = max(0, byteLimit)
    }

    // MARK: - Lookups

    /// What the layer holds for one key text, taken in a single lookup when a call starts
    /// (and marked most recently used), so that a hit hashes the key text once.
    ///
    /// A reference to an unchanging snapshot: handing it out under the lock costs one retain,
    /// not a copy of the key, the entry and the values.
    struct Held: Sendable {
        fileprivate let snapshot: Snapshot

        /// The key built earlier for this text, with its digest, so a hit computes no SHA-256.
        var key: CacheKey { snapshot.key }
        /// The entry, as the store holds it.
        var entry: CacheEntry { snapshot.entry }

        /// The value of type `T` decoded from exactly `entry`, if it was decoded before.
        func value<T>(as type: T.Type, decodedFrom entry: CacheEntry) -> T? {
            guard DecodedValueCache.isSame(snapshot.entry, entry) else { return nil }
            let wanted = ObjectIdentifier(type)
            for typed in snapshot.values where typed.type == wanted { return typed.value as? T }
            return nil
        }
    }

    /// What is held for the key text, or `nil`.
    func held(forText text: String) -> Held? {
        lookup(text).held
    }

    /// The generation to pass to `insert` and `isCurrent` for work starting now, and what is
    /// held for the key text, under one lock: every call that uses the cache starts with this.
    func lookup(_ text: String) -> (generation: UInt64, held: Held?) {
        let limit = self.limit
        return state.withLock { storage in
            guard limit > 0, let index = storage.index[text], let snapshot = storage.nodes[index].snapshot else {
                return (storage.generation, nil)
            }
            storage.touch(index)
            return (storage.generation, Held(snapshot: snapshot))
        }
    }

    // MARK: - Changes

    /// The generation to pass to `insert` and `isCurrent` for work starting now.
    var generation: UInt64 {
        state.withLock { $0.generation }
    }

    /// Whether nothing removed `key`'s entries since `generation`.
    func isCurrent(_ key: CacheKey, since generation: UInt64) -> Bool {
        state.withLock { $0.isCurrent(key, since: generation) }
    }

    /// Holds `entry` and its decoded `value` for `key`, unless a removal since `generation`
    /// covers the key; `false` then, and nothing is held.
    ///
    /// - Parameter replacingNewer: `false` for an entry read from the store, which must not
    ///   replace a newer one a concurrent fetch just stored.
    @discardableResult
    func insert<T: Sendable>(
        _ entry: CacheEntry, value: T, for key: CacheKey, since generation: UInt64, replacingNewer: Bool
    ) -> Bool {
        let cost = key.text.utf8.count + entry.body.count + 128
        let limit = self.limit
        let byteLimit = self.byteLimit
        return state.withLock { storage in
            guard storage.isCurrent(key, since: generation) else { return false }
            guard limit > 0 else { return true }
            let typed = TypedValue(type: ObjectIdentifier(T.self), value: value)
            if let index = storage.index[key.text], let held = storage.nodes[index].snapshot {
                let snapshot: Snapshot
                if Self.isSame(held.entry, entry) {
                    var values = held.values.filter { $0.type != typed.type }
                    values.append(typed)
                    snapshot = Snapshot(key: held.key, entry: held.entry, values: values)
                } else if replacingNewer || held.entry.date <= entry.date {
                    snapshot = Snapshot(key: held.key, entry: entry, values: [typed])
                } else {
                    return true
                }
                storage.bytes += cost - storage.nodes[index].cost
                storage.nodes[index].cost = cost
                storage.nodes[index].snapshot = snapshot
                storage.touch(index)
            } else {
                guard cost <= byteLimit / 4 else { return true }  // one huge list would push out everything
                storage.add(Snapshot(key: key, entry: entry, values: [typed]), cost: cost)
            }
            while storage.count > limit || storage.bytes > byteLimit, storage.count > 0 {
                storage.removeLeastRecentlyUsed()
            }
            return true
        }
    }

    /// Drops the key's entry, such as after a failed store write or an undecodable body.
    func remove(_ key: CacheKey) {
        state.withLock { storage in
            if let index = storage.index[key.text] { storage.remove(index) }
        }
    }

    /// Drops the entries an invalidation names and makes fetches under way for the
    /// endpoint unable to store their answers.
    func invalidate(_ invalidation: Invalidation) {
        state.withLock { storage in
            storage.generation += 1
            storage.removedEndpoints[invalidation.endpoint] = storage.generation
            storage.removeAll { invalidation.matches($0) }
        }
    }

    /// Drops every entry of `endpoint`, as `removeAll(endpoint:)` of the store does.
    func removeAll(endpoint: String) {
        state.withLock { storage in
            storage.generation += 1
            storage.removedEndpoints[endpoint] = storage.generation
            storage.removeAll { $0.endpoint == endpoint }
        }
    }

    /// Drops one partition's entries (sign-out).
    func removeAll(partition: String) {
        state.withLock { storage in
            storage.generation += 1
            storage.removedPartitions[partition] = storage.generation
            storage.removeAll { $0.partition == partition }
        }
    }

    /// Drops everything.
    func removeAll() {
        state.withLock { storage in
            storage.generation += 1
            storage.removedAll = storage.generation
            storage.removeAll { _ in true }
        }
    }

    /// Drops other users' entries when the partition changes: their keys could never match
    /// again, and their decoded data has no business staying in memory. No generation bump.
    func keepOnlyPartition(_ partition: String?) {
        state.withLock { storage in
            storage.removeAll { key in key.partition != nil && key.partition != (partition ?? "") }
        }
    }

    /// The number of entries held; for tests.
    var count: Int {
        state.withLock { $0.count }
    }

    /// Whether two entries are the same stored entry. Cheap: the bodies of one entry share
    /// storage, so comparing their addresses avoids comparing their bytes; small bodies,
    /// which `Data` keeps inline, are compared byte for byte.
    fileprivate static func isSame(_ a: CacheEntry, _ b: CacheEntry) -> Bool {
        guard a.date == b.date, a.body.count == b.body.count, a.etag == b.etag, a.lastModified == b.lastModified else {
            return false
        }
        return a.body.withUnsafeBytes { x in
            b.body.withUnsafeBytes { y in
                guard let xBase = x.baseAddress, let yBase = y.baseAddress else { return x.count == y.count }
                if xBase == yBase { return true }
                return x.count <= 256 && memcmp(xBase, yBase, x.count) == 0
            }
        }
    }
}

// MARK: - Storage

extension DecodedValueCache {
    /// A decoded value and the type it was decoded as.
    fileprivate struct TypedValue: Sendable {
        var type: ObjectIdentifier
        var value: any Sendable
    }

    /// One key's entry and the values decoded from it; replaced, never changed, so a `Held`
    /// handed out earlier stays as it was.
    fileprivate final class Snapshot: Sendable {
        let key: CacheKey
        let entry: CacheEntry
        let values: [TypedValue]

        init(key: CacheKey, entry: CacheEntry, values: [TypedValue]) {
            self.key = key
            self.entry = entry
            self.values = values
        }
    }

    /// A node of the recency list, linked by index so that a hit moves it without allocating.
    private struct Node {
        var snapshot: Snapshot?
        /// The bytes `snapshot` counts for against `byteLimit`.
        var cost = 0
        var newer = -1
        var older = -1
    }

    /// Entries by key text, in a doubly linked recency list, plus the generations of removals.
    private struct Storage {
        var index: [String: Int] = [:]
        var nodes: [Node] = []
        var free: [Int] = []
        var newest = -1
        var oldest = -1
        var bytes = 0
        var count: Int { index.count }

        var generation: UInt64 = 0
        var removedAll: UInt64 = 0
        var removedPartitions: [String: UInt64] = [:]
        var removedEndpoints: [String: UInt64] = [:]

        func isCurrent(_ key: CacheKey, since generation: UInt64) -> Bool {
            if removedAll > generation { return false }
            if let partition = key.partition, let removed = removedPartitions[partition], removed > generation {
                return false
            }
            if let removed = removedEndpoints[key.endpoint], removed > generation { return false }
            return true
        }

        mutating func add(_ snapshot: Snapshot, cost: Int) {
            let index: Int
            if let reused = free.popLast() {
                index = reused
                nodes[index] = Node(snapshot: snapshot, cost: cost)
            } else {
                index = nodes.count
                nodes.append(Node(snapshot: snapshot, cost: cost))
            }
            self.index[snapshot.key.text] = index
            bytes += cost
            linkAsNewest(index)
        }

        mutating func touch(_ index: Int) {
            guard newest != index else { return }
            unlink(index)
            linkAsNewest(index)
        }

        mutating func remove(_ index: Int) {
            guard let snapshot = nodes[index].snapshot else { return }
            unlink(index)
            self.index[snapshot.key.text] = nil
            bytes -= nodes[index].cost
            nodes[index] = Node()
            free.append(index)
        }

        mutating func removeLeastRecentlyUsed() {
            if oldest >= 0 { remove(oldest) }
        }

        mutating func removeAll(where shouldRemove: (CacheKey) -> Bool) {
            for index in Array(self.index.values) {
                if let key = nodes[index].snapshot?.key, shouldRemove(key) { remove(index) }
            }
        }

        private mutating func linkAsNewest(_ index: Int) {
            nodes[index].older = newest
            nodes[index].newer = -1
            if newest >= 0 { nodes[newest].newer = index }
            newest = index
            if oldest < 0 { oldest = index }
        }

        private mutating func unlink(_ index: Int) {
            let newer = nodes[index].newer
            let older = nodes[index].older
            if newer >= 0 { nodes[newer].older = older } else { newest = older }
            if older >= 0 { nodes[older].newer = newer } else { oldest = newer }
            nodes[index].newer = -1
            nodes[index].older = -1
        }
    }
}
