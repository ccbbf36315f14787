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
/// memory, so that a repeated hit costs neither a disk read nor a decode; and the entries
/// on their way to the store (write-behind), so that every later read of the client sees
/// them before they land.
///
/// It never answers what the store would not, once the client's writes have landed:
/// - It holds only entries the store has or is about to have: values go in when the client
///   hands an answer to its writer (`stage`) or after a store read, and a failed write
///   drops the key.
/// - Entries are keyed by the full key text, which holds the partition; the client judges
///   ttl and maxStale on the entry's stored date exactly as for a store entry.
/// - Removals made through the client (`removeAll…`, invalidations) drop values and pending
///   writes here and bump a generation under the same lock, so a fetch that started before
///   a removal can put its answer neither here nor, since the writer checks the generation
///   before and after it writes, in the store.
///
/// Values are bounded by a number of entries and by approximate bytes (the raw bodies),
/// least recently used first out. A limit of 0 keeps no values but still tracks generations
/// and pending writes, which are never pushed out: each leaves when its write finished.
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
        /// The entry, as the store holds it (or will, once the client's write of it lands).
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
    ///   replace a newer one a concurrent fetch just stored, nor stand in front of a write
    ///   still on its way to the store.
    @discardableResult
    func insert<T: Sendable>(
        _ entry: CacheEntry, value: T, for key: CacheKey, since generation: UInt64, replacingNewer: Bool
    ) -> Bool {
        let limit = self.limit
        let byteLimit = self.byteLimit
        return state.withLock { storage in
            guard storage.isCurrent(key, since: generation) else { return false }
            if !replacingNewer, let pending = storage.pending[key.text], !Self.isSame(pending.entry, entry) {
                return true  // read from the store while a newer answer waits to be written
            }
            storage.hold(entry, value: value, for: key, replacingNewer: replacingNewer, limit: limit, byteLimit: byteLimit)
            return true
        }
    }

    // MARK: - Writes on their way to the store

    /// Takes an answer the client is about to write, unless a removal since `generation`
    /// covers the key: holds its value like `insert(replacingNewer: true)`, and keeps the
    /// entry as the key's pending write, which `pendingEntry(for:)` answers with until
    /// `finishWrite` (whatever the limit). Returns the write's number, increasing with every
    /// call, or `nil` when the answer must not be stored.
    func stage<T: Sendable>(_ entry: CacheEntry, value: T, for key: CacheKey, since generation: UInt64) -> UInt64? {
        let limit = self.limit
        let byteLimit = self.byteLimit
        return state.withLock { storage in
            guard storage.isCurrent(key, since: generation) else { return nil }
            storage.hold(entry, value: value, for: key, replacingNewer: true, limit: limit, byteLimit: byteLimit)
            storage.lastWriteID += 1
            storage.pending[key.text] = PendingWrite(id: storage.lastWriteID, key: key, entry: entry)
            return storage.lastWriteID
        }
    }

    /// The newest entry waiting to be written for `key`, if any.
    func pendingEntry(for key: CacheKey) -> CacheEntry? {
        state.withLock { storage in
            storage.pending.isEmpty ? nil : storage.pending[key.text]?.entry
        }
    }

    /// Whether write `id` of `key` should go to the store now that its turn has come: it is
    /// still the key's pending write (not replaced by a newer answer, which will land
    /// instead, nor dropped by `forget` or a removal), and no removal since `generation`
    /// covers the key.
    func isWanted(_ key: CacheKey, id: UInt64, since generation: UInt64) -> Bool {
        state.withLock { storage in
            guard let pending = storage.pending[key.text], pending.id == id else { return false }
            guard storage.isCurrent(key, since: generation) else {
                if pending.id == id { storage.pending[key.text] = nil }
                return false
            }
            return true
        }
    }

    /// Write `id` of `key` finished: its pending entry leaves, unless a newer write of the
    /// key replaced it. After a failure (`failed` is the entry that could not be written)
    /// the value decoded from it leaves memory too, so memory never gets ahead of the store;
    /// a newer answer held for the key stays. Returns whether the key is still current
    /// since `generation`, that is, whether no removal ran while the write was under way.
    @discardableResult
    func finishWrite(_ key: CacheKey, id: UInt64, since generation: UInt64, failed: CacheEntry? = nil) -> Bool {
        state.withLock { storage in
            if storage.pending[key.text]?.id == id { storage.pending[key.text] = nil }
            if let failed, let index = storage.index[key.text], let held = storage.nodes[index].snapshot,
                Self.isSame(held.entry, failed)
            {
                storage.remove(index)
            }
            return storage.isCurrent(key, since: generation)
        }
    }

    /// The number of writes on their way to the store; for tests.
    var pendingCount: Int {
        state.withLock { $0.pending.count }
    }

    /// Drops the key's value, such as when the store's age limit has passed; a write on its
    /// way to the store stays.
    func remove(_ key: CacheKey) {
        state.withLock { storage in
            if let index = storage.index[key.text] { storage.remove(index) }
        }
    }

    /// Drops the key's value and its pending write, before the client removes the key's
    /// entry from the store (a `no-store` answer, an undecodable body).
    func forget(_ key: CacheKey) {
        state.withLock { storage in
            if let index = storage.index[key.text] { storage.remove(index) }
            storage.pending[key.text] = nil
        }
    }

    /// Drops the entries and pending writes an invalidation names and makes fetches under
    /// way for the endpoint unable to store their answers.
    func invalidate(_ invalidation: Invalidation) {
        state.withLock { storage in
            storage.generation += 1
            storage.removedEndpoints[invalidation.endpoint] = storage.generation
            storage.drop { invalidation.matches($0) }
        }
    }

    /// Drops every entry and pending write of `endpoint`, as `removeAll(endpoint:)` of the
    /// store does.
    func removeAll(endpoint: String) {
        state.withLock { storage in
            storage.generation += 1
            storage.removedEndpoints[endpoint] = storage.generation
            storage.drop { $0.endpoint == endpoint }
        }
    }

    /// Drops one partition's entries and pending writes (sign-out).
    func removeAll(partition: String) {
        state.withLock { storage in
            storage.generation += 1
            storage.removedPartitions[partition] = storage.generation
            storage.drop { $0.partition == partition }
        }
    }

    /// Drops every entry and pending write.
    func removeAll() {
        state.withLock { storage in
            storage.generation += 1
            storage.removedAll = storage.generation
            storage.drop { _ in true }
        }
    }

    /// Drops other users' entries when the partition changes: their keys could never match
    /// again, and their decoded data has no business staying in memory. No generation bump,
    /// and their pending writes stay: those answers were given before the switch and are
    /// stored, as they would have been had the write been quicker.
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

    /// An entry handed to the client's writer and not yet in the store.
    fileprivate struct PendingWrite {
        var id: UInt64
        var key: CacheKey
        var entry: CacheEntry
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

        /// Writes on their way to the store, the newest per key text.
        var pending: [String: PendingWrite] = [:]
        var lastWriteID: UInt64 = 0

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

        /// Holds `entry` and `value` for `key` within the limits (see `insert`), as a new
        /// snapshot: one handed out earlier is never changed.
        mutating func hold<T: Sendable>(
            _ entry: CacheEntry, value: T, for key: CacheKey, replacingNewer: Bool, limit: Int, byteLimit: Int
        ) {
            guard limit > 0 else { return }
            let cost = key.text.utf8.count + entry.body.count + 128
            let typed = TypedValue(type: ObjectIdentifier(T.self), value: value)
            if let index = index[key.text], let held = nodes[index].snapshot {
                let snapshot: Snapshot
                if DecodedValueCache.isSame(held.entry, entry) {
                    var values = held.values.filter { $0.type != typed.type }
                    values.append(typed)
                    snapshot = Snapshot(key: held.key, entry: held.entry, values: values)
                } else if replacingNewer || held.entry.date <= entry.date {
                    snapshot = Snapshot(key: held.key, entry: entry, values: [typed])
                } else {
                    return
                }
                bytes += cost - nodes[index].cost
                nodes[index].cost = cost
                nodes[index].snapshot = snapshot
                touch(index)
            } else {
                guard cost <= byteLimit / 4 else { return }  // one huge list would push out everything
                add(Snapshot(key: key, entry: entry, values: [typed]), cost: cost)
            }
            while count > limit || bytes > byteLimit, count > 0 {
                removeLeastRecentlyUsed()
            }
        }

        /// Drops the values and the pending writes of the keys `shouldDrop` names.
        mutating func drop(where shouldDrop: (CacheKey) -> Bool) {
            removeAll(where: shouldDrop)
            if !pending.isEmpty { pending = pending.filter { !shouldDrop($0.value.key) } }
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
