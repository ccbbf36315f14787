import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues
import Foundation

/// Recently used entries with the values decoded from them, so that a repeated hit costs
/// neither a disk read nor a decode: a least-recently-used list bounded by a number of
/// entries and by body bytes.
///
/// It decides nothing about whether a value may be held: callers pass that as a condition,
/// checked under the layer's lock (`hold(_:value:for:replacingNewer:removals:when:)`), so that
/// a check and the insertion it allows cannot be split by a removal. It does know the store's
/// `removalCount` its values belong to: when a lookup brings a newer one (a removal through
/// another client, the store itself or another process), it drops the values of every key the
/// removals since cover (`CacheStore.removals(since:)`), or every value when the store cannot
/// say what they covered.
package final class MemoryLayer: Sendable {
    /// The most entries kept; 0 keeps none.
    package let limit: Int
    /// The most body bytes kept, an approximation of the decoded values' size.
    package let byteLimit: Int
    /// What the removals since a count covered (the store's `removals(since:)`); `nil`: anything.
    private let removalLog: @Sendable (UInt64) -> [RemovalScope]?
    private let state = Locked(Storage())

    package init(limit: Int, byteLimit: Int, removalLog: @escaping @Sendable (UInt64) -> [RemovalScope]? = { _ in nil }) {
        self.limit = max(0, limit)
        self.byteLimit = max(0, byteLimit)
        self.removalLog = removalLog
    }

    /// What the layer holds for one key: a reference to an unchanging snapshot, so handing it
    /// out under the lock costs one retain, not a copy of the key, the entry and the values.
    package struct Held: Sendable {
        fileprivate let snapshot: Snapshot

        /// The key built earlier for this text, with its digest, so a hit computes no SHA-256.
        package var key: CacheKey { snapshot.key }
        /// The entry, as the store holds it (or will, once the client's write of it lands).
        package var entry: CacheEntry { snapshot.entry }

        /// The value of type `T` decoded from exactly `entry`, if it was decoded before.
        package func value<T>(as type: T.Type, decodedFrom entry: CacheEntry) -> T? {
            guard snapshot.entry.isSameStoredEntry(as: entry) else { return nil }
            let wanted = ObjectIdentifier(type)
            for typed in snapshot.values where typed.type == wanted { return typed.value as? T }
            return nil
        }
    }

    /// What is held for the key text, marked most recently used; `nil` when nothing is. When
    /// the store's `removals` moved since the values were taken, the values the removals since
    /// cover go first (all of them when the store cannot say); a reader whose `removals` is
    /// older than the values' gets nothing (it reads the store).
    package func lookup(_ text: String, removals: UInt64) -> Held? {
        guard limit > 0 else { return nil }
        let removalLog = self.removalLog
        return state.withLock { storage in
            if storage.removals != removals {
                guard storage.removals < removals else { return nil }
                storage.catchUp(to: removals, removalLog: removalLog)
            }
            guard let index = storage.index[text], let snapshot = storage.nodes[index].snapshot else { return nil }
            storage.touch(index)
            return Held(snapshot: snapshot)
        }
    }

    /// Holds `entry` and its decoded `value` for `key` if `condition` allows it at that
    /// moment (checked under the lock) and no removal the layer knows of since the store's
    /// `removals` the value was read or fetched under covers the key; returns whether it was
    /// allowed.
    ///
    /// A value decoded from the entry already held joins the values held for it (one per
    /// type). A different entry replaces the held one when `replacingNewer` (an answer just
    /// given) or when it is not older (an entry read from the store). An entry whose body
    /// alone would take a quarter of `byteLimit` is not held, so one huge list cannot push out
    /// everything else.
    @discardableResult
    package func hold<T: Sendable>(
        _ entry: CacheEntry, value: T, for key: CacheKey, replacingNewer: Bool, removals: UInt64,
        when condition: () -> Bool = { true }
    ) -> Bool {
        let limit = self.limit
        let byteLimit = self.byteLimit
        let removalLog = self.removalLog
        return state.withLock { storage in
            if storage.removals < removals {
                storage.catchUp(to: removals, removalLog: removalLog)
            } else if storage.removals > removals {
                // Taken before removals the layer has seen: held only if none of them covers it.
                guard let scopes = removalLog(removals), !scopes.contains(where: { $0.covers(key) }) else { return false }
            }
            guard condition() else { return false }
            guard limit > 0 else { return true }
            storage.hold(entry, value: value, for: key, replacingNewer: replacingNewer, byteLimit: byteLimit)
            while storage.count > limit || storage.bytes > byteLimit, storage.count > 0 {
                storage.removeLeastRecentlyUsed()
            }
            return true
        }
    }

    /// Drops the key's value; with `entry`, only if it was decoded from that entry (a newer
    /// answer held for the key stays).
    package func remove(_ key: CacheKey, ifHolding entry: CacheEntry? = nil) {
        state.withLock { storage in
            guard let index = storage.index[key.text], let held = storage.nodes[index].snapshot else { return }
            if let entry, !held.entry.isSameStoredEntry(as: entry) { return }
            storage.remove(index)
        }
    }

    /// Drops the values of every key `shouldRemove` names.
    package func removeAll(where shouldRemove: (CacheKey) -> Bool) {
        state.withLock { $0.removeAll(where: shouldRemove) }
    }

    /// The keys held that `include` names, with their entries (an entity replaced by its
    /// identity looks through them).
    package func entries(where include: (CacheKey) -> Bool) -> [(key: CacheKey, entry: CacheEntry)] {
        state.withLock { storage in
            storage.index.values.compactMap { index in
                guard let snapshot = storage.nodes[index].snapshot, include(snapshot.key) else { return nil }
                return (snapshot.key, snapshot.entry)
            }
        }
    }

    /// The number of entries held; for tests.
    package var count: Int {
        state.withLock { $0.count }
    }
}

// MARK: - Storage

extension MemoryLayer {
    /// A decoded value and the type it was decoded as.
    fileprivate struct TypedValue: Sendable {
        package var type: ObjectIdentifier
        package var value: any Sendable
    }

    /// One key's entry and the values decoded from it; replaced, never changed, so a `Held`
    /// handed out earlier stays as it was.
    fileprivate final class Snapshot: Sendable {
        package let key: CacheKey
        package let entry: CacheEntry
        package let values: [TypedValue]

        package init(key: CacheKey, entry: CacheEntry, values: [TypedValue]) {
            self.key = key
            self.entry = entry
            self.values = values
        }
    }

    /// A node of the recency list, linked by index so that a hit moves it without allocating.
    private struct Node {
        package var snapshot: Snapshot?
        /// The bytes `snapshot` counts for against `byteLimit`.
        package var cost = 0
        package var newer = -1
        package var older = -1
    }

    /// Entries by key text, in a doubly linked recency list.
    private struct Storage {
        package var index: [String: Int] = [:]
        package var nodes: [Node] = []
        package var free: [Int] = []
        package var newest = -1
        package var oldest = -1
        package var bytes = 0
        package var count: Int { index.count }
        /// The store's `removalCount` the values were taken under.
        package var removals: UInt64 = 0

        /// Drops the values of the keys the removals since `removals` cover (every value when
        /// `removalLog` cannot say), and takes `count` as the values' count.
        package mutating func catchUp(to count: UInt64, removalLog: (UInt64) -> [RemovalScope]?) {
            if index.isEmpty {
                // Nothing to drop: no need to ask what was removed.
            } else if let scopes = removalLog(removals) {
                if !scopes.isEmpty { removeAll { key in scopes.contains { $0.covers(key) } } }
            } else {
                removeAll { _ in true }
            }
            removals = count
        }

        /// Holds `entry` and `value` for `key` as a new snapshot (see `MemoryLayer.hold`).
        package mutating func hold<T: Sendable>(
            _ entry: CacheEntry, value: T, for key: CacheKey, replacingNewer: Bool, byteLimit: Int
        ) {
            let cost = key.text.utf8.count + entry.body.count + 128
            let typed = TypedValue(type: ObjectIdentifier(T.self), value: value)
            if let index = index[key.text], let held = nodes[index].snapshot {
                let snapshot: Snapshot
                if held.entry.isSameStoredEntry(as: entry) {
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
                guard cost <= byteLimit / 4 else { return }
                add(Snapshot(key: key, entry: entry, values: [typed]), cost: cost)
            }
        }

        package mutating func add(_ snapshot: Snapshot, cost: Int) {
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

        package mutating func touch(_ index: Int) {
            guard newest != index else { return }
            unlink(index)
            linkAsNewest(index)
        }

        package mutating func remove(_ index: Int) {
            guard let snapshot = nodes[index].snapshot else { return }
            unlink(index)
            self.index[snapshot.key.text] = nil
            bytes -= nodes[index].cost
            nodes[index] = Node()
            free.append(index)
        }

        package mutating func removeLeastRecentlyUsed() {
            if oldest >= 0 { remove(oldest) }
        }

        package mutating func removeAll(where shouldRemove: (CacheKey) -> Bool) {
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
