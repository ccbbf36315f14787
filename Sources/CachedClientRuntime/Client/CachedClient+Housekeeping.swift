import Foundation

// Removing entries: sign-out, "clear cache" on a settings screen, and invalidations after
// mutations. These go through the client rather than `store`, because the client also
// holds decoded values in memory and fetches under way that must not store old answers
// after a removal.
//
// Each removal drops the values in memory and the writes on their way to the store, and
// bumps the generation, before the store removes anything (so neither a fetch under way nor
// a write waiting its turn can store afterwards); it waits for the writes of the keys it
// covers that are already under way, so none lands after it; and it drops the values and
// bumps the generation again after (so a value read from the store while it was removing
// cannot stay in memory). Writes of other keys go on meanwhile.

extension CachedClient {
    /// Removes every entry, on disk and in memory, and the writes still on their way to the
    /// store: "Clear cache" on a settings screen.
    public func removeAll() async throws {
        memory.removeAll()
        defer { memory.removeAll() }
        await writes.wait()
        try await store.removeAll()
    }

    /// Removes one user's entries, on disk and in memory, for sign-out; shared entries and
    /// other users' stay. Answers still in flight for that user, and their writes still on
    /// their way to the store, are not stored.
    public func removeAll(partition: String) async throws {
        memory.removeAll(partition: partition)
        defer { memory.removeAll(partition: partition) }
        await writes.wait { $0.partition == partition }
        try await store.removeAll(partition: partition)
    }

    /// Removes every entry of one endpoint (`Repository.method`), in every partition, with
    /// its writes still on their way to the store.
    public func removeAll(endpoint: String) async throws {
        memory.removeAll(endpoint: endpoint)
        defer { memory.removeAll(endpoint: endpoint) }
        await writes.wait { $0.endpoint == endpoint }
        try await store.removeAll(endpoint: endpoint)
    }

    /// Removes the entries the invalidations name, as a mutation's success does, for
    /// changes the app learns of another way (a push notification, another device).
    /// Each removal is reported as an `.evict` event; the first failure is thrown after
    /// all were tried.
    public func invalidate(_ invalidations: [Invalidation]) async throws {
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

    /// Runs a mutation's invalidations after its 2xx answer; a removal that fails is an
    /// `.error` event, because the call itself succeeded and must not throw.
    func apply(_ invalidations: [Invalidation], after endpoint: Endpoint) async {
        for invalidation in invalidations {
            do {
                try await remove(invalidation)
                report(invalidation, kind: .evict, message: "invalidated by \(endpoint.name)")
            } catch {
                report(
                    invalidation, kind: .error,
                    message: "invalidation by \(endpoint.name) failed: \(Self.safeDescription(of: error))")
            }
        }
    }

    private func remove(_ invalidation: Invalidation) async throws {
        memory.invalidate(invalidation)
        defer { memory.invalidate(invalidation) }
        await writes.wait { invalidation.matches($0) }
        if let path = invalidation.path {
            try await store.removeAll(endpoint: invalidation.endpoint, path: path)
        } else {
            try await store.removeAll(endpoint: invalidation.endpoint)
        }
    }

    /// An event for a removal of many entries: the key is `*` for a whole endpoint, or the
    /// first 16 hex digits of the SHA-256 of the path (never the path, which holds
    /// parameter values).
    private func report(_ invalidation: Invalidation, kind: CacheEvent.Kind, message: String) {
        let key = invalidation.path.map { String(SHA256.hex(of: $0).prefix(16)) } ?? "*"
        events(CacheEvent(kind: kind, endpoint: invalidation.endpoint, key: key, message: message))
    }
}
