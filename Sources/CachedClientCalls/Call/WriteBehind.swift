import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues
import Foundation

/// The client's writes on their way to the store, and the removals they must not undo.
///
/// A call returns as soon as its answer is decoded; the entry is handed here (`stage`) and
/// written by a background task, one chain per key, so a key's writes land in the order they
/// were handed over and different keys are written concurrently. Until it lands the entry is
/// the key's pending write, which every read of the client sees (`pendingEntry(for:)`).
///
/// Every removal through the client bumps a generation (`recordRemoval`). Work that started
/// before a removal covering its key may neither stage nor land an answer afterwards: each
/// staged write carries the generation its call started at and is checked before and after
/// it is written. Removals through the store (another client, another process) are seen
/// through its `removalCount`: a pending write staged under another count than the reader's
/// is hidden when the removals between the two cover its key (`removalLog`).
package final class WriteBehind: Sendable {
    private let state = Locked(State())
    /// What the store's removals since a count covered (its `removals(since:)`); `nil`: anything.
    private let removalLog: @Sendable (UInt64) -> [CachedClientStore.RemovalScope]?

    package init(removalLog: @escaping @Sendable (UInt64) -> [CachedClientStore.RemovalScope]? = { _ in nil }) {
        self.removalLog = removalLog
    }

    // MARK: - Removals

    /// The generation to check later work against, for work starting now.
    package var generation: UInt64 {
        state.withLock { $0.generation }
    }

    /// Whether no removal covered `key` since `generation`.
    package func isCurrent(_ key: CacheKey, since generation: UInt64) -> Bool {
        state.withLock { $0.isCurrent(key, since: generation) }
    }

    /// Records a removal of `scope`: work that started before it cannot store answers in it,
    /// and the pending writes `dropping` names are dropped (they will not land).
    package func recordRemoval(_ scope: RemovalScope, dropping shouldDrop: (CacheKey) -> Bool) {
        state.withLock { state in
            state.generation += 1
            switch scope {
            case .all: state.removedAll = state.generation
            case .partition(let partition): state.removedPartitions[partition] = state.generation
            case .endpoint(let endpoint): state.removedEndpoints[endpoint] = state.generation
            }
            if !state.pending.isEmpty { state.pending = state.pending.filter { !shouldDrop($0.value.key) } }
        }
    }

    // MARK: - Pending writes

    /// Makes `entry` the key's pending write, unless a removal since `generation` covers the
    /// key; `removals` is the store's `removalCount` when the answer's call started. Returns the write's number, increasing with every call, or `nil` when the answer
    /// must not be stored.
    package func stage(_ entry: CacheEntry, for key: CacheKey, since generation: UInt64, removals: UInt64) -> UInt64? {
        state.withLock { state in
            guard state.isCurrent(key, since: generation) else { return nil }
            state.lastWriteID += 1
            state.pending[key.text] = PendingWrite(id: state.lastWriteID, key: key, entry: entry, removals: removals)
            return state.lastWriteID
        }
    }

    /// The newest entry waiting to be written for `key`, if any, unless it was staged under
    /// other store `removals` than the reader's and a removal between the two may cover the
    /// key (such a removal makes it moot: it will not land).
    package func pendingEntry(for key: CacheKey, removals: UInt64) -> CacheEntry? {
        let found = state.withLock { state -> (CacheEntry, UInt64)? in
            guard !state.pending.isEmpty, let pending = state.pending[key.text] else { return nil }
            return (pending.entry, pending.removals)
        }
        guard let (entry, staged) = found else { return nil }
        if staged == removals { return entry }
        // The store's log from the older of the two counts covers every removal between them.
        guard let scopes = removalLog(min(staged, removals)), !scopes.contains(where: { $0.covers(key) }) else {
            return nil
        }
        return entry
    }

    /// Whether write `id` of `key` should go to the store now that its turn has come: it is
    /// still the key's pending write (not replaced by a newer answer, which lands instead,
    /// nor dropped), and no removal since `generation` covers the key.
    package func isWanted(_ key: CacheKey, id: UInt64, since generation: UInt64) -> Bool {
        state.withLock { state in
            guard let pending = state.pending[key.text], pending.id == id else { return false }
            guard state.isCurrent(key, since: generation) else {
                state.pending[key.text] = nil
                return false
            }
            return true
        }
    }

    /// Write `id` of `key` finished (landed or failed): its pending entry leaves, unless a
    /// newer write replaced it. Returns whether no removal covered the key meanwhile.
    @discardableResult
    package func finish(_ key: CacheKey, id: UInt64, since generation: UInt64) -> Bool {
        state.withLock { state in
            if state.pending[key.text]?.id == id { state.pending[key.text] = nil }
            return state.isCurrent(key, since: generation)
        }
    }

    /// Drops the key's pending write, before the client removes the key's entry.
    package func drop(_ key: CacheKey) {
        _ = state.withLock { $0.pending.removeValue(forKey: key.text) }
    }

    /// The number of writes on their way to the store; for tests.
    package var pendingCount: Int {
        state.withLock { $0.pending.count }
    }

    // MARK: - The tasks that write

    /// Runs `write` once every earlier write of `key` has finished, at `.utility` priority.
    ///
    /// At the caller's priority a write (a file write blocks its thread for 100–200 µs on
    /// ext4) was queued ahead of the caller's own continuation on the shared executor, which
    /// then waited for it. Awaiting a write (`wait`) raises its priority.
    package func enqueue(_ key: CacheKey, id: UInt64, _ write: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            let previous = state.tails[key.text]?.task
            let task = Task(priority: .utility) {
                await previous?.value
                await write()
                self.state.withLock { state in
                    if state.tails[key.text]?.id == id { state.tails[key.text] = nil }
                }
            }
            state.tails[key.text] = Tail(key: key, id: id, task: task)
        }
    }

    /// Runs `work` once every write of `key` handed over so far has finished, as a link of the
    /// key's chain, so `wait` (and so `CachedClient.flush()`) waits for it as for a write.
    package func then(_ key: CacheKey, _ work: @escaping @Sendable () async -> Void) {
        let id = state.withLock { state -> UInt64 in
            state.lastWriteID += 1
            return state.lastWriteID
        }
        enqueue(key, id: id, work)
    }

    /// Waits until every write handed over so far for a key `covers` names has finished;
    /// writes handed over meanwhile are not waited for.
    package func wait(for covers: (CacheKey) -> Bool = { _ in true }) async {
        let tasks = state.withLock { state in state.tails.values.filter { covers($0.key) }.map(\.task) }
        for task in tasks { await task.value }
    }

    /// Whether no write is under way or waiting; for tests.
    package var isIdle: Bool {
        state.withLock { $0.tails.isEmpty }
    }
}

// MARK: - State

extension WriteBehind {
    /// What a removal covers, for the generations.
    package enum RemovalScope: Sendable {
        case all
        case partition(String)
        case endpoint(String)
    }

    /// An entry handed over and not yet in the store.
    private struct PendingWrite {
        package var id: UInt64
        package var key: CacheKey
        package var entry: CacheEntry
        package var removals: UInt64
    }

    /// The last write handed over for one key; it waits for the one before it, so waiting
    /// for it waits for every write of the key handed over so far.
    private struct Tail {
        package let key: CacheKey
        package let id: UInt64
        package let task: Task<Void, Never>
    }

    private struct State {
        /// The newest pending write per key text.
        package var pending: [String: PendingWrite] = [:]
        package var lastWriteID: UInt64 = 0
        package var tails: [String: Tail] = [:]

        package var generation: UInt64 = 0
        package var removedAll: UInt64 = 0
        package var removedPartitions: [String: UInt64] = [:]
        package var removedEndpoints: [String: UInt64] = [:]

        package func isCurrent(_ key: CacheKey, since generation: UInt64) -> Bool {
            if removedAll > generation { return false }
            if let partition = key.partition, let removed = removedPartitions[partition], removed > generation {
                return false
            }
            if let removed = removedEndpoints[key.endpoint], removed > generation { return false }
            return true
        }
    }
}
