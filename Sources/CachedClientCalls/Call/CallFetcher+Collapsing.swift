import CachedClientStore
import Foundation

// Fleet-wide request collapsing: the step between "this process needs the network for a key"
// and the request, for stores that adopt `CacheStoreLeasing`. `RequestCollapsing` states what
// a caller sees; this file is how. Within the process, `RequestMerger` has already made the
// callers of one key into one fetch, so this runs once per key per process.
extension CallFetcher {
    /// The answer for `call` from the network: fetched by this process when it holds the
    /// key's claim (or the store cannot lease, or collapsing is off), else taken from the
    /// store once the holder in another process has stored it.
    package func collapsed<T: Decodable & Sendable>(
        _ call: CachedClient.Call, validating entry: CacheEntry?, as type: T.Type
    ) async throws -> Fetched<T> {
        guard collapsing.isEnabled, let leasing = store as? any CacheStoreLeasing else {
            return try await fetch(call, validating: entry, as: type)
        }
        // What the store holds before the claim: the holder's answer is an entry that differs.
        // Read before claiming, so that an answer stored between the two is not taken for old.
        let before: CacheEntry?
        do {
            before = try await store.entry(for: call.key)
        } catch {
            events.emit(.error, call, message: "read before claim failed: \(events.safeDescription(of: error))")
            return try await fetch(call, validating: entry, as: type)
        }
        let deadline = now().addingTimeInterval(collapsing.maxWait)
        while true {
            switch await claim(call, in: leasing) {
            case .claimed(let lease):
                // The previous holder may have stored its answer and released its claim between
                // our last read and this claim (seen with four processes on a busy machine):
                // look once more before asking the upstream.
                if !store.mayHaveRemoved(call.key, since: call.storeRemovals), let current = try? await store.entry(for: call.key),
                    current != before, let value = try? call.endpoint.decode(type, from: current.body)
                {
                    release(lease, in: leasing, call)
                    writer.holdStored(current, value: value, for: call.key, since: call.generation, removals: call.storeRemovals)
                    events.emit(.collapsed, call, age: current.age(at: now()))
                    return Fetched(value: value, freshness: current.freshness)
                }
                return try await fetchHolding(lease, in: leasing, call, validating: entry, as: type)
            case .failed:
                return try await fetch(call, validating: entry, as: type)
            case .heldElsewhere:
                break
            }
            guard now() < deadline else {
                events.emit(.collapseTimeout, call, message: "waited \(Self.seconds(collapsing.maxWait)) for another process's request")
                return try await fetch(call, validating: entry, as: type)
            }
            try await collapsing.sleep(collapsing.pollInterval)
            // A removal while we waited may cover the holder's answer (read-your-writes).
            guard !store.mayHaveRemoved(call.key, since: call.storeRemovals) else {
                return try await fetch(call, validating: entry, as: type)
            }
            let current: CacheEntry?
            do {
                current = try await store.entry(for: call.key)
            } catch {
                events.emit(.error, call, message: "read while waiting failed: \(events.safeDescription(of: error))")
                return try await fetch(call, validating: entry, as: type)
            }
            if let current, current != before {
                guard let value = try? call.endpoint.decode(type, from: current.body) else {
                    // Not an answer this call can use (another model's bytes): ask the server.
                    return try await fetch(call, validating: entry, as: type)
                }
                writer.holdStored(current, value: value, for: call.key, since: call.generation, removals: call.storeRemovals)
                events.emit(.collapsed, call, age: current.age(at: now()))
                return Fetched(value: value, freshness: current.freshness)
            }
        }
    }

    /// What a claim came to.
    private enum ClaimOutcome {
        case claimed(CacheLease)
        case heldElsewhere
        /// The store threw (reported): the caller fetches by itself.
        case failed
    }

    private func claim(_ call: CachedClient.Call, in leasing: any CacheStoreLeasing) async -> ClaimOutcome {
        do {
            guard let lease = try await leasing.claim(call.key, for: collapsing.leaseDuration) else { return .heldElsewhere }
            return .claimed(lease)
        } catch {
            events.emit(.error, call, message: "claim failed: \(events.safeDescription(of: error))")
            return .failed
        }
    }

    /// Fetches as the key's holder, then releases the claim (see `release`).
    private func fetchHolding<T: Decodable & Sendable>(
        _ lease: CacheLease, in leasing: any CacheStoreLeasing, _ call: CachedClient.Call, validating entry: CacheEntry?,
        as type: T.Type
    ) async throws -> Fetched<T> {
        defer { release(lease, in: leasing, call) }
        return try await fetch(call, validating: entry, as: type)
    }

    /// Releases a claim in the background, after the key's writes handed over so far (so
    /// waiters find the answer before they could claim the key themselves), as a link of the
    /// key's write chain: `flush()` waits for it, and a process that flushes before it ends
    /// leaves no claim behind for others to wait out.
    private func release(_ lease: CacheLease, in leasing: any CacheStoreLeasing, _ call: CachedClient.Call) {
        writer.writes.then(call.key) {
            do {
                try await leasing.release(lease)
            } catch {
                events.emit(.error, call, message: "release failed: \(events.safeDescription(of: error))")
            }
        }
    }

    /// `10s`, `0.5s`: a duration for an event message.
    private static func seconds(_ interval: TimeInterval) -> String {
        interval == interval.rounded() ? "\(Int(interval))s" : "\(interval)s"
    }
}
