import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues
import Foundation

/// The optimistic changes pending on one client's cached values: every read of a key through
/// the client, and every live query showing it, sees the stored value with the changes on
/// that key applied in the order they were made. The stored entries never change, so taking a
/// change out (its mutation failed for good) leaves exactly the others applied.
///
/// A change is on a list of keys (a query's change of its value) or on every key of a
/// partition and the shared ones (an entity replaced by its identity).
///
/// The seam between the policy switch and the mutation layer (`CachedClientMutations`), which
/// adds and takes out the changes (`OptimisticGroup`): concrete, so that a read pays one lock
/// when none is pending, as before the layer had a target of its own.
package final class PendingChanges: Sendable {
    /// Where a change applies.
    package enum Reach: Sendable {
        /// The entries with these key texts.
        case keys([String])
        /// Every entry of this partition (`nil`: signed out) and every shared one.
        case partition(String?)
    }

    /// One change: how it transforms a value, and where.
    package struct Change: Sendable {
        /// Its place in the order of changes; later changes apply after earlier ones.
        package let number: UInt64
        package let reach: Reach
        /// The changed value, or `nil` when it does not apply to this value (another type, or
        /// nothing in it to change).
        package let transform: @Sendable (any Sendable) -> Any?
    }

    /// What taking changes out touched, for the queries to be told.
    package struct Removed: Sendable {
        package var keys: Set<String> = []
        /// Whether a change on a whole partition was among them.
        package var everywhere = false
    }

    private struct State {
        package var lastNumber: UInt64 = 0
        package var changes: [UInt64: Change] = [:]
        package var byKey: [String: [UInt64]] = [:]
        /// Changes on whole partitions.
        package var wide: [UInt64] = []
    }

    private let state = Locked(State())

    /// Whether any change is pending; one lock, for the read path.
    package var isEmpty: Bool {
        state.withLock { $0.changes.isEmpty }
    }

    /// Adds a change; returns its number.
    package func add(_ reach: Reach, transform: @escaping @Sendable (any Sendable) -> Any?) -> UInt64 {
        state.withLock { state in
            state.lastNumber += 1
            let number = state.lastNumber
            state.changes[number] = Change(number: number, reach: reach, transform: transform)
            switch reach {
            case .keys(let keys): for key in keys { state.byKey[key, default: []].append(number) }
            case .partition: state.wide.append(number)
            }
            return number
        }
    }

    /// Takes changes out; returns what they were on.
    @discardableResult
    package func remove(_ numbers: [UInt64]) -> Removed {
        state.withLock { state in
            var removed = Removed()
            for number in numbers {
                guard let change = state.changes.removeValue(forKey: number) else { continue }
                switch change.reach {
                case .keys(let keys):
                    for key in keys {
                        state.byKey[key]?.removeAll { $0 == number }
                        if state.byKey[key]?.isEmpty == true { state.byKey[key] = nil }
                        removed.keys.insert(key)
                    }
                case .partition:
                    state.wide.removeAll { $0 == number }
                    removed.everywhere = true
                }
            }
            return removed
        }
    }

    /// `value` with the changes on any of `keys` applied in order (each once), and whether
    /// any of them applied.
    package func apply<T: Sendable>(to value: T, keys: [CacheKey]) -> (value: T, pending: Bool) {
        let changes = state.withLock { state -> [Change] in
            var numbers: Set<UInt64> = []
            for key in keys { numbers.formUnion(state.byKey[key.text] ?? []) }
            for number in state.wide {
                guard case .partition(let partition)? = state.changes[number]?.reach else { continue }
                if keys.contains(where: { $0.partition == nil || $0.partition == partition }) { numbers.insert(number) }
            }
            return numbers.sorted().compactMap { state.changes[$0] }
        }
        var current = value
        var pending = false
        for change in changes {
            guard let changed = change.transform(current) as? T else { continue }
            current = changed
            pending = true
        }
        return (current, pending)
    }

    /// `answer` with the pending changes of `key` applied, for a read outside a live query
    /// (a query applies them itself, to the value it shows).
    package func applied<T: Sendable>(to answer: CachedValue<T>, key: CacheKey) -> CachedValue<T> {
        let (value, pending) = apply(to: answer.value, keys: [key])
        guard pending else { return answer }
        switch answer {
        case .fresh: return .fresh(value: value)
        case .cached(_, let date): return .cached(value: value, date: date)
        }
    }
}
