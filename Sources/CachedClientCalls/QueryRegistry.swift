import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues
import Foundation

/// The live queries of one client: what the client pushes to them (removals through it,
/// partition switches, answers it stores, the app's lifecycle signals).
///
/// It holds handlers, never queries: a query's handler captures it weakly, and the query's
/// `QueryLifetime` unregisters it when the query goes, so a query nobody holds leaves no
/// registration behind. Handlers are called outside the lock, on the caller's thread; a
/// query hops to the main actor itself.
package final class QueryRegistry: Sendable {
    /// What a registered query is told.
    package enum Signal: Sendable {
        /// Entries of its key were removed through the client (an invalidation or a `removeAll…`).
        case removed
        /// The client's partition was set.
        case partitionChanged
        /// The app said the network is back or the app became active.
        case lifecycle
        /// The client stored an answer for its key, with what the server said of its
        /// freshness; `version` orders these per key.
        case stored(any Sendable, freshness: ServerFreshness?, version: UInt64)
        /// Optimistic changes on its key were made or taken out (`PendingChanges`).
        case optimistic
        /// Its key's stored entry changed under it (an entity replaced by its identity), or an
        /// entity's optimistic change came out: read it again from the cache.
        case reread
    }

    package typealias Handler = @Sendable (Signal) -> Void

    /// Set by a caller that knows it runs on the main actor where the main thread cannot
    /// tell (an executor that is not the main thread's), so that queries act at once.
    @TaskLocal package static var callerIsOnMainActor = false

    private struct Registration {
        package let key: CacheKey
        package let handler: Handler
    }

    private struct State {
        package var lastID: UInt64 = 0
        package var registrations: [UInt64: Registration] = [:]
        /// Registration ids per key text, and the number of answers stored for each.
        package var byKey: [String: (ids: Set<UInt64>, version: UInt64)] = [:]
    }

    private let state = Locked(State())

    /// Registers a handler for a query showing `key`; returns the id to unregister with.
    package func register(_ key: CacheKey, handler: @escaping Handler) -> UInt64 {
        state.withLock { state in
            state.lastID += 1
            state.registrations[state.lastID] = Registration(key: key, handler: handler)
            state.byKey[key.text, default: ([], 0)].ids.insert(state.lastID)
            return state.lastID
        }
    }

    /// Removes a registration; nothing of it stays.
    package func unregister(_ id: UInt64) {
        state.withLock { state in
            guard let registration = state.registrations.removeValue(forKey: id) else { return }
            let text = registration.key.text
            state.byKey[text]?.ids.remove(id)
            if state.byKey[text]?.ids.isEmpty == true { state.byKey[text] = nil }
        }
    }

    /// The number of answers stored so far for `key` while a query showed it.
    package func version(of key: CacheKey) -> UInt64 {
        state.withLock { $0.byKey[key.text]?.version ?? 0 }
    }

    /// The number of registrations; for tests ("a released query leaves nothing behind").
    package var count: Int {
        state.withLock { $0.registrations.count }
    }

    /// Tells the queries whose key `matches` covers that their entries were removed.
    package func removed(matching matches: (CacheKey) -> Bool) {
        let handlers = state.withLock { state in
            state.registrations.values.filter { matches($0.key) }.map(\.handler)
        }
        for handler in handlers { handler(.removed) }
    }

    /// Tells the queries showing any of `keys` (key texts) that their optimistic changes changed.
    package func optimisticChanged(_ keys: Set<String>) {
        tell(keys, .optimistic)
    }

    /// Tells the queries showing any of `keys` (key texts) that their stored entry changed.
    package func entitiesReplaced(_ keys: Set<String>) {
        tell(keys, .reread)
    }

    private func tell(_ keys: Set<String>, _ signal: Signal) {
        guard !keys.isEmpty else { return }
        let handlers = state.withLock { state in
            Set(keys.flatMap { state.byKey[$0]?.ids ?? [] }).compactMap { state.registrations[$0]?.handler }
        }
        for handler in handlers { handler(signal) }
    }

    /// The keys live queries show, each once.
    package var keys: [CacheKey] {
        state.withLock { state in
            state.byKey.values.compactMap { $0.ids.first.flatMap { state.registrations[$0]?.key } }
        }
    }

    /// Tells every query.
    package func broadcast(_ signal: Signal) {
        let handlers = state.withLock { state in state.registrations.values.map(\.handler) }
        for handler in handlers { handler(signal) }
    }

    /// Hands an answer just stored for `key` to the queries showing it; one lock when none does.
    package func stored(_ key: CacheKey, value: any Sendable, freshness: ServerFreshness?) {
        let delivery = state.withLock { state -> ([Handler], UInt64)? in
            guard !state.registrations.isEmpty, var entry = state.byKey[key.text] else { return nil }
            entry.version += 1
            state.byKey[key.text] = entry
            return (entry.ids.compactMap { state.registrations[$0]?.handler }, entry.version)
        }
        guard let (handlers, version) = delivery else { return }
        for handler in handlers { handler(.stored(value, freshness: freshness, version: version)) }
    }
}
