import CachedClientStore
import Foundation

/// The first stage of a call: what is stored for its key, from the in-memory layer, then this
/// client's writes still on their way (`WriteBehind`), then the store, with the entities that
/// mutations' answers replaced since it was stored put in place. It never writes: an entry
/// that replaced entities made out of date is returned as `Read.outdated`, and the writer
/// writes it back.
package struct CallReader: Sendable {
    package let store: any CacheStore
    package let memory: MemoryLayer
    package let writes: WriteBehind
    /// The entities mutations' answers replaced, per partition (the mutation layer's).
    package let replacedEntities: any EntityReplacing
    package let now: @Sendable () -> Date
    package let events: CallEvents

    /// An entry read for a call.
    package struct Read: Sendable {
        package let entry: CacheEntry
        /// Entities replaced since it was stored were put in place: what the store (or the
        /// write on its way) holds is out of date, and the entry is to be written back.
        package let outdated: Bool
    }

    /// The stored entry, or `nil` when there is none or the store failed (reported).
    package func read(_ call: CachedClient.Call) async -> Read? {
        let maxAge = store.maxAge
        if let held = call.held?.entry {
            guard let maxAge, now().timeIntervalSince(held.date) > maxAge else { return Read(entry: held, outdated: false) }
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
            events.emit(.error, call, message: "read failed: \(events.safeDescription(of: error))")
            return nil
        }
    }

    /// The stored entry for `call`, as `read` finds it, with an out-of-date one handed to
    /// `writer` to write back (with its date, so that a removal since the call started wins over
    /// it as over any answer, and the store holds the new version for other clients).
    package func entry(_ call: CachedClient.Call, writingBackWith writer: CallWriter) async -> CacheEntry? {
        guard let read = await read(call) else { return nil }
        if read.outdated { writer.writeBack(read.entry, call) }
        return read.entry
    }

    /// The entries a replacement of entities may change: those the in-memory layer holds that
    /// `matches` accepts, and for the `keys` it accepts that memory does not hold (the live
    /// queries'), this client's write on its way or else the store's entry; by key text.
    package func heldEntries(
        where matches: (CacheKey) -> Bool, andOf keys: [CacheKey], removals: UInt64
    ) async -> [String: (key: CacheKey, entry: CacheEntry)] {
        var entries: [String: (key: CacheKey, entry: CacheEntry)] = [:]
        for held in memory.entries(where: matches) { entries[held.key.text] = held }
        for key in keys where matches(key) && entries[key.text] == nil {
            var entry = writes.pendingEntry(for: key, removals: removals)
            if entry == nil { entry = try? await store.entry(for: key) }
            if let entry { entries[key.text] = (key, entry) }
        }
        return entries
    }

    /// Whether an entry for `key` is held (memory, a write on its way, or the store); a store
    /// that fails to answer counts as holding it, so a failing disk causes no refetch storm.
    package func holdsEntry(for key: CacheKey) async -> Bool {
        let removals = store.removalCount
        if memory.lookup(key.text, removals: removals) != nil { return true }
        if writes.pendingEntry(for: key, removals: removals) != nil { return true }
        do {
            return try await store.entry(for: key) != nil
        } catch {
            return true
        }
    }

    /// The call that reads the links kept beside `call`'s answer (see `CallWriter.keepLinks`).
    package func linksCall(_ call: CachedClient.Call) -> CachedClient.Call {
        call.links(held: memory.lookup(LinkFollower.linksKey(of: call.key).text, removals: call.storeRemovals))
    }

    /// `entry`, read from the store or this client's writes on their way for `call`, with the
    /// entities replaced in the call's partition since it was stored put in place (see
    /// `EntityReplacing`): identity on the read path, since the store is never listed or
    /// scanned for them. An entry that holds none of the entities, or that is not JSON (it
    /// stays unreadable, a miss as before), is returned as it is.
    private func withReplacedEntities(_ entry: CacheEntry, _ call: CachedClient.Call) -> Read {
        guard let replaced = replacedEntities.replacingEntities(in: entry, partition: call.partition) else {
            return Read(entry: entry, outdated: false)
        }
        return Read(entry: replaced, outdated: true)
    }
}
