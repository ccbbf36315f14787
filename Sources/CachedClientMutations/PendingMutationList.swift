import Foundation

#if canImport(Observation)
import Observation
#endif
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// The mutations in a client's outbox for the signed-in user, in the order they are sent
/// (`CachedClient.pendingMutations`): what a "3 changes waiting" banner shows.
///
/// Observable (`Observation`, macOS 14 / iOS 17 and Linux) and safe to read from any thread:
/// SwiftUI views reading `items` update when a mutation is queued, sent, fails or is
/// discarded. It lists the current partition's mutations only; after `setPartition(_:)` it
/// lists the new one's once they are read from the store.
public final class PendingMutationList: Sendable {
    /// The mutations, oldest first; sent ones have left.
    public var items: [PendingMutation] {
        access()
        return storage.withLock { $0 }
    }

    /// The number of mutations that have not failed: queued or being sent.
    public var waitingCount: Int {
        items.count { !$0.isFailed }
    }

    private let storage = Locked<[PendingMutation]>([])
    /// Waiters of `wait(until:)`, told after each change.
    private let waiters = Locked<[(condition: @Sendable ([PendingMutation]) -> Bool, continuation: CheckedContinuation<Void, Never>)]>([])
    /// An `ObservationRegistrar` where the platform has one; `Any` so that the list exists
    /// on systems before it.
    private let registrar: (any Sendable)?

    package init() {
        #if canImport(Observation)
        if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
            registrar = ObservationRegistrar()
        } else {
            registrar = nil
        }
        #else
        registrar = nil
        #endif
    }

    /// Replaces the items, telling observers if they changed.
    package func set(_ items: [PendingMutation]) {
        guard storage.withLock({ $0 != items }) else { return }
        defer { wakeWaiters(items) }
        #if canImport(Observation)
        if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *), let registrar = registrar as? ObservationRegistrar {
            registrar.withMutation(of: self, keyPath: \.items) { storage.withLock { $0 = items } }
            return
        }
        #endif
        storage.withLock { $0 = items }
    }

    /// Returns once `condition` holds for the items, checked now and after each change (not
    /// before it, as observation's `onChange` is); for tests, which must not sleep.
    package func wait(until condition: @escaping @Sendable ([PendingMutation]) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = storage.withLock { items -> Bool in
                if condition(items) { return true }
                waiters.withLock { $0.append((condition, continuation)) }
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private func wakeWaiters(_ items: [PendingMutation]) {
        let ready = storage.withLock { current in
            waiters.withLock { waiters -> [CheckedContinuation<Void, Never>] in
                let ready = waiters.filter { $0.condition(current) }.map(\.continuation)
                waiters.removeAll { $0.condition(current) }
                return ready
            }
        }
        ready.forEach { $0.resume() }
    }

    private func access() {
        #if canImport(Observation)
        if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *), let registrar = registrar as? ObservationRegistrar {
            registrar.access(self, keyPath: \.items)
        }
        #endif
    }
}

#if canImport(Observation)
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PendingMutationList: Observable {}
#endif
