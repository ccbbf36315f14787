import CachedClientStore
import Foundation

// Store access that never fails a call: reads through memory and the pending writes, writes
// behind the call, and removals of single keys the server or the decoder asked for.
extension CachedClient {
    /// The stored entry, or `nil` when there is none or the store failed (reported): from
    /// the in-memory layer when it holds the key, then from this client's writes still on
    /// their way, then from the store; from those two with the entities that mutations'
    /// answers replaced since it was stored put in place.
    package func readEntry(_ call: Call) async -> CacheEntry? {
        let maxAge = store.maxAge
        if let held = call.held?.entry {
            guard let maxAge, now().timeIntervalSince(held.date) > maxAge else { return held }
            memory.remove(call.key)  // The store would drop it too (on its next read of the file).
        }
        if let pending = writes.pendingEntry(for: call.key, removals: call.storeRemovals) {
            guard let maxAge, now().timeIntervalSince(pending.date) > maxAge else {
                return withReplacedEntities(pending, call)
            }
            return nil  // Landing or not, the store would drop it on its next read.
        }
        do {
            // Entities replaced since the entry was stored are put in place (see `withReplacedEntities`).
            return try await store.entry(for: call.key).map { withReplacedEntities($0, call) }
        } catch {
            emit(.error, call, message: "read failed: \(safeDescription(of: error))")
            return nil
        }
    }

    /// Hands `entry` to the writer and holds it with its decoded `value` in memory, unless the
    /// partition changed while the answer was in flight or a removal covered the key since the
    /// call started. The write is reported as `.store` when it lands (if `reportingStore`), or
    /// as an `.error` when it fails.
    package func write<T: Sendable>(_ entry: CacheEntry, _ call: Call, value: T, reportingStore: Bool) {
        stageAndLand(entry, call, reportingStore: reportingStore) {
            memory.hold(entry, value: value, for: call.key, replacingNewer: true, removals: call.storeRemovals) {
                writes.isCurrent(call.key, since: call.generation) && !store.mayHaveRemoved(call.key, since: call.storeRemovals)
            }
            queries.stored(call.key, value: value, freshness: entry.freshness)
        }
    }

    /// Writes `entry` to the store behind the call as an answer is written, but without holding
    /// it in memory or telling the live queries (the read that changed it holds the value it
    /// decodes). Skipped when the partition changed or a removal covered the key since the call
    /// started.
    package func writeBack(_ entry: CacheEntry, _ call: Call) {
        stageAndLand(entry, call, reportingStore: false) {}
    }

    /// Stages `entry` for the call's key, runs `staged`, and lands it in the background; does
    /// nothing when the partition changed or a removal covered the key since the call started.
    private func stageAndLand(_ entry: CacheEntry, _ call: Call, reportingStore: Bool, staged: () -> Void) {
        if call.rule.scope == .user, call.partition != partition { return }
        guard let id = writes.stage(entry, for: call.key, since: call.generation, removals: call.storeRemovals) else {
            return
        }
        staged()
        writes.enqueue(call.key, id: id) {
            await self.land(entry, call, id: id, reportingStore: reportingStore)
        }
    }

    /// Writes one staged entry to the store, in the background, once the key's earlier writes
    /// have finished. Skipped when a newer answer for the key was staged meanwhile (that one
    /// lands instead, so a burst of answers for one key costs one or two writes, not one
    /// each) or a removal covered the key since the call started; taken back out when a
    /// removal ran while it was written. A failure drops the value from memory, so memory
    /// never gets ahead of the store.
    private func land(_ entry: CacheEntry, _ call: Call, id: UInt64, reportingStore: Bool) async {
        guard writes.isWanted(call.key, id: id, since: call.generation) else { return }
        // A removal through another client, the store or another process since the call
        // started may have covered the key: the answer is not written (a later read misses).
        // One that did not cover it (another partition's sign-out) changes nothing.
        guard !store.mayHaveRemoved(call.key, since: call.storeRemovals) else {
            writes.finish(call.key, id: id, since: call.generation)
            return
        }
        do {
            try await store.setEntry(entry, for: call.key)
        } catch {
            writes.finish(call.key, id: id, since: call.generation)
            memory.remove(call.key, ifHolding: entry)
            emit(.error, call, message: "write failed: \(safeDescription(of: error))")
            return
        }
        guard writes.finish(call.key, id: id, since: call.generation),
            !store.mayHaveRemoved(call.key, since: call.storeRemovals)
        else {
            // A removal covering the key ran while we wrote; take the entry back out, so that no
            // ordering of the two can leave it behind.
            await removeStored(call)
            return
        }
        if reportingStore { emit(.store, call) }
    }

    /// Removes the key's entry (on disk and in memory) after a `no-store` answer, which must
    /// not be kept and makes any older copy outdated; reported as `.evict` when the call had
    /// read an entry.
    package func forget(_ call: Call, hadEntry: Bool) async {
        if await removeEverywhere(call), hadEntry {
            emit(.evict, call, message: "removed: the server answered no-store")
        }
    }

    /// Decodes a stored entry, or takes the value decoded from it before out of memory;
    /// one that does not decode is removed and reported, then treated as a miss.
    package func decodeStored<T: Decodable & Sendable>(_ entry: CacheEntry, _ call: Call, as type: T.Type) async -> T? {
        if let value = call.held?.value(as: type, decodedFrom: entry) { return value }
        do {
            let value = try call.endpoint.value(type, from: entry.body)
            holdStored(entry, value: value, for: call.key, since: call.generation, removals: call.storeRemovals)
            return value
        } catch {
            emit(.error, call, age: entry.age(at: now()), message: "stored entry unreadable, removed: \(safeDescription(of: error))")
            await removeEverywhere(call)
            return nil
        }
    }

    /// Holds a value decoded from an entry read from the store, unless a removal since
    /// `generation` covers the key or a newer answer for it is still on its way to the store
    /// (the older entry must not stand in front of it).
    package func holdStored<T: Sendable>(
        _ entry: CacheEntry, value: T, for key: CacheKey, since generation: UInt64, removals: UInt64
    ) {
        memory.hold(entry, value: value, for: key, replacingNewer: false, removals: removals) {
            guard writes.isCurrent(key, since: generation), !store.mayHaveRemoved(key, since: removals) else { return false }
            return writes.pendingEntry(for: key, removals: removals).map { $0.isSameStoredEntry(as: entry) } ?? true
        }
    }

    /// Removes one key from memory, the pending writes and the store; whether the store
    /// removal succeeded (a failure is reported).
    ///
    /// Memory is cleared before and after, as housekeeping does: a value read while the store
    /// removes the file must not stay. A write of the key on its way is dropped, and one
    /// already under way is waited for, so it cannot land after the removal.
    @discardableResult
    private func removeEverywhere(_ call: Call) async -> Bool {
        memory.remove(call.key)
        writes.drop(call.key)
        defer { memory.remove(call.key) }
        await writes.wait { $0.text == call.key.text }
        return await removeStored(call)
    }

    @discardableResult
    private func removeStored(_ call: Call) async -> Bool {
        do {
            try await store.removeEntry(for: call.key)
            return true
        } catch {
            emit(.error, call, message: "remove failed: \(safeDescription(of: error))")
            return false
        }
    }
}
