import Foundation

/// The optimistic changes pending on one client's cached values, by key: every read of a key
/// through the client, and every live query showing it, sees the stored value with the
/// changes on its key applied in the order they were made. The stored entries never change,
/// so taking a change out (its mutation failed for good) leaves exactly the others applied.
final class OptimisticLayer: Sendable {
    /// One change: how it transforms a value of its key, and which keys it is on.
    struct Change: Sendable {
        /// Its place in the order of changes; later changes apply after earlier ones.
        let number: UInt64
        let keys: [String]
        /// The changed value, or `nil` when the value is not of the type the change is for.
        let transform: @Sendable (any Sendable) -> (any Sendable)?
    }

    private struct State {
        var lastNumber: UInt64 = 0
        var changes: [UInt64: Change] = [:]
        var byKey: [String: [UInt64]] = [:]
        /// The group each queued mutation carries, by mutation id.
        var groups: [String: OptimisticGroup] = [:]
    }

    private let state = Locked(State())

    /// Whether any change is pending; one lock, for the read path.
    var isEmpty: Bool {
        state.withLock { $0.changes.isEmpty }
    }

    /// Adds a change on `keys` (key texts); returns its number.
    func add(keys: [String], transform: @escaping @Sendable (any Sendable) -> (any Sendable)?) -> UInt64 {
        state.withLock { state in
            state.lastNumber += 1
            let number = state.lastNumber
            state.changes[number] = Change(number: number, keys: keys, transform: transform)
            for key in keys { state.byKey[key, default: []].append(number) }
            return number
        }
    }

    /// Takes changes out; returns the keys they were on.
    @discardableResult
    func remove(_ numbers: [UInt64]) -> Set<String> {
        state.withLock { state in
            var keys: Set<String> = []
            for number in numbers {
                guard let change = state.changes.removeValue(forKey: number) else { continue }
                for key in change.keys {
                    state.byKey[key]?.removeAll { $0 == number }
                    if state.byKey[key]?.isEmpty == true { state.byKey[key] = nil }
                    keys.insert(key)
                }
            }
            return keys
        }
    }

    /// `value` with the changes on any of `keys` applied in order (each once), and whether
    /// any was pending there. A change for another type leaves the value as it is.
    func apply<T: Sendable>(to value: T, keys: [String]) -> (value: T, pending: Bool) {
        let changes = state.withLock { state -> [Change] in
            var numbers: Set<UInt64> = []
            for key in keys { numbers.formUnion(state.byKey[key] ?? []) }
            return numbers.sorted().compactMap { state.changes[$0] }
        }
        guard !changes.isEmpty else { return (value, false) }
        var current = value
        for change in changes {
            if let changed = change.transform(current) as? T { current = changed }
        }
        return (current, true)
    }

    /// Holds the group of the queued mutation `id` until it is sent or fails for good.
    func track(_ group: OptimisticGroup, mutation id: String) {
        state.withLock { $0.groups[id] = group }
    }

    /// The group of mutation `id`, no longer held.
    func takeGroup(mutation id: String) -> OptimisticGroup? {
        state.withLock { $0.groups.removeValue(forKey: id) }
    }
}
