import CachedClientHTTP
import CachedClientStore
@_spi(Generated) import CachedClientValues
import Foundation

/// The last stage of a call: what a call keeps. It stages an answer, holds its decoded value
/// in memory, tells the live queries, and lands it in the store behind the call
/// (`WriteBehind`); it writes back entries the reader found out of date (entities replaced
/// since they were stored), keeps a link-paged answer's `Link` field beside it, and removes an
/// entry the server said not to keep or that no longer decodes.
///
/// Every write is skipped when the partition changed while the answer was in flight or a
/// removal covered the key since the call started: a removal is never undone by a write.
package struct CallWriter: Sendable {
    package let store: any CacheStore
    package let memory: MemoryLayer
    package let writes: WriteBehind
    package let queries: QueryRegistry
    /// The client's partition now (a user-scoped answer of another one is not kept).
    package let partition: @Sendable () -> String?
    package let now: @Sendable () -> Date
    package let events: CallEvents

    /// Hands `entry` to the write-behind and holds it with its decoded `value` in memory, unless
    /// the partition changed while the answer was in flight or a removal covered the key since
    /// the call started. The write is reported as `.store` when it lands (if `reportingStore`),
    /// or as an `.error` when it fails.
    package func write<T: Sendable>(_ entry: CacheEntry, _ call: CachedClient.Call, value: T, reportingStore: Bool) {
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
    package func writeBack(_ entry: CacheEntry, _ call: CachedClient.Call) {
        stageAndLand(entry, call, reportingStore: false) {}
    }

    /// Stages `entry` for the call's key, runs `staged`, and lands it in the background; does
    /// nothing when the partition changed or a removal covered the key since the call started.
    private func stageAndLand(_ entry: CacheEntry, _ call: CachedClient.Call, reportingStore: Bool, staged: () -> Void) {
        if call.rule.scope == .user, call.partition != partition() { return }
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
    private func land(_ entry: CacheEntry, _ call: CachedClient.Call, id: UInt64, reportingStore: Bool) async {
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
            events.emit(.error, call, message: "write failed: \(events.safeDescription(of: error))")
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
        if reportingStore { events.emit(.store, call) }
    }

    /// Removes the key's entry (on disk and in memory) after a `no-store` answer, which must
    /// not be kept and makes any older copy outdated; reported as `.evict` when the call had
    /// read an entry.
    package func forget(_ call: CachedClient.Call, hadEntry: Bool) async {
        if await removeEverywhere(call), hadEntry {
            events.emit(.evict, call, message: "removed: the server answered no-store")
        }
    }

    /// Decodes a stored entry for an answer, or takes the value decoded from it before out of
    /// memory, and holds the value in memory; one that does not decode is removed and reported,
    /// then treated as a miss (`nil`).
    package func decodeStored<T: Decodable & Sendable>(
        _ entry: CacheEntry, _ call: CachedClient.Call, as type: T.Type
    ) async -> T? {
        if let value = call.held?.value(as: type, decodedFrom: entry) { return value }
        do {
            let value = try call.endpoint.value(type, from: entry.body)
            holdStored(entry, value: value, for: call.key, since: call.generation, removals: call.storeRemovals)
            return value
        } catch {
            events.emit(
                .error, call, age: entry.age(at: now()),
                message: "stored entry unreadable, removed: \(events.safeDescription(of: error))")
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

    // MARK: - Links (RFC 8288)

    /// Keeps the `Link` field of a link-paged endpoint's answer (empty when there is none: the
    /// last page), under the same conditions as the answer itself and with its date: links are
    /// only ever read beside a page of the same date, so a page and links of two different
    /// answers (one of the two writes failed or was evicted) make the links unknown, never wrong.
    package func keepLinks(of response: HTTPResponse, _ call: CachedClient.Call, responseTime: Date) {
        guard call.endpoint.nextLinkRelation != nil else { return }
        let field = response.header("Link") ?? ""
        write(CacheEntry(body: Data(field.utf8), date: responseTime), call.links(held: nil), value: field, reportingStore: false)
    }

    /// After a 304 that confirmed a stored page (and so re-dated it): its own `Link` field if it
    /// sent one, otherwise the links `kept` before (read by the reader), re-dated with the page.
    package func keepLinks(confirmedBy response: HTTPResponse, kept: CacheEntry?, _ call: CachedClient.Call, responseTime: Date) {
        guard call.endpoint.nextLinkRelation != nil else { return }
        if response.header("Link") != nil {
            keepLinks(of: response, call, responseTime: responseTime)
        } else if let kept {
            let field = String(decoding: kept.body, as: UTF8.self)
            write(CacheEntry(body: kept.body, date: responseTime), call.links(held: nil), value: field, reportingStore: false)
        }
    }

    // MARK: - Removals of one key

    /// Removes one key from memory, the pending writes and the store; whether the store
    /// removal succeeded (a failure is reported).
    ///
    /// Memory is cleared before and after, as housekeeping does: a value read while the store
    /// removes the file must not stay. A write of the key on its way is dropped, and one
    /// already under way is waited for, so it cannot land after the removal.
    @discardableResult
    private func removeEverywhere(_ call: CachedClient.Call) async -> Bool {
        memory.remove(call.key)
        writes.drop(call.key)
        defer { memory.remove(call.key) }
        await writes.wait { $0.text == call.key.text }
        return await removeStored(call)
    }

    @discardableResult
    private func removeStored(_ call: CachedClient.Call) async -> Bool {
        do {
            try await store.removeEntry(for: call.key)
            return true
        } catch {
            events.emit(.error, call, message: "remove failed: \(events.safeDescription(of: error))")
            return false
        }
    }

    // MARK: - Removals of many keys (housekeeping, invalidations)
    //
    // Each removal drops the values in memory and the writes on their way to the store, and
    // bumps the generation, before the store removes anything (so neither a fetch under way nor
    // a write waiting its turn can store afterwards); it waits for the writes of the keys it
    // covers that are already under way, so none lands after it; and it drops the values again
    // after (so a value read from the store while it was removing cannot stay in memory).
    // Writes of other keys go on meanwhile. Live queries showing a removed key are told last.

    /// Runs a mutation's invalidations after its 2xx answer; a removal that fails is an
    /// `.error` event, because the call itself succeeded and must not throw.
    package func apply(_ invalidations: [Invalidation], after endpoint: Endpoint) async {
        for invalidation in invalidations {
            do {
                try await remove(invalidation)
                report(invalidation, kind: .evict, message: "invalidated by \(endpoint.name)")
            } catch {
                report(
                    invalidation, kind: .error,
                    message: "invalidation by \(endpoint.name) failed: \(events.safeDescription(of: error))")
            }
        }
    }

    /// Removes the entries each invalidation names (the app's `CachedClient.invalidate(_:)`),
    /// each an `.evict` event; the first failure is thrown after all were tried.
    package func invalidate(_ invalidations: [Invalidation]) async throws {
        var firstError: (any Error)?
        for invalidation in invalidations {
            do {
                try await remove(invalidation)
                report(invalidation, kind: .evict, message: "invalidated")
            } catch {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
    }

    /// Removes the entries an optimistic change was on, after its mutation went through, so
    /// that the live queries showing them refetch the server's truth; a failure is an `.error`
    /// event.
    package func removeOptimisticEntries(_ keys: [CacheKey]) async {
        for key in keys {
            do {
                try await remove(.endpoint(key.endpoint), matching: { $0.text == key.text }) { try await $0.removeEntry(for: key) }
            } catch {
                events.handler(
                    CacheEvent(
                        kind: .error, endpoint: key.endpoint, key: key.description,
                        message: "remove after an optimistic update failed: \(events.safeDescription(of: error))"))
            }
        }
    }

    /// Removes the entries `invalidation` names (see `remove(_:matching:inStore:)`).
    package func remove(_ invalidation: Invalidation) async throws {
        try await remove(.endpoint(invalidation.endpoint), matching: invalidation.matches) { store in
            if let path = invalidation.path {
                try await store.removeAll(endpoint: invalidation.endpoint, path: path)
            } else {
                try await store.removeAll(endpoint: invalidation.endpoint)
            }
        }
    }

    /// The one way entries are removed: the removal recorded (pending writes dropped) and
    /// memory cleared, the writes under way waited for, the store, and the removal recorded and
    /// memory cleared again, so that nothing read while the store removed stays.
    package func remove(
        _ scope: WriteBehind.RemovalScope, matching matches: (CacheKey) -> Bool,
        inStore removeStored: (any CacheStore) async throws -> Void
    ) async throws {
        writes.recordRemoval(scope, dropping: matches)
        memory.removeAll(where: matches)
        defer {
            writes.recordRemoval(scope, dropping: matches)
            memory.removeAll(where: matches)
            queries.removed(matching: matches)
        }
        await writes.wait(for: matches)
        try await removeStored(store)
    }

    /// An event for a removal of many entries: the key is `*` for a whole endpoint, or the
    /// first 16 hex digits of the SHA-256 of the path (never the path, which holds
    /// parameter values).
    package func report(_ invalidation: Invalidation, kind: CacheEvent.Kind, message: String) {
        let key = invalidation.path.map { String(SHA256.hex(of: $0).prefix(16)) } ?? "*"
        events.handler(CacheEvent(kind: kind, endpoint: invalidation.endpoint, key: key, message: message))
    }
}
