@_spi(Generated) import CachedClientCalls
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues
import Foundation

/// What a `CachedQuery` leaves running (refetch tasks, the polling timer) and where it is
/// registered; held by the query alone, so that when the query goes this goes too and its
/// `deinit` cancels the tasks and removes the registrations.
///
/// Kept apart from the query because a `@MainActor` class's `deinit` may not touch its
/// isolated state; this one is `Sendable` and may be released on any thread.
package final class QueryLifetime: Sendable {
    private struct State {
        package var lastTaskID: UInt64 = 0
        package var tasks: [UInt64: Task<Void, Never>] = [:]
        package var poller: Task<Void, Never>?
        package var registrations: [(registry: QueryRegistry, id: UInt64)] = []
    }

    private let state = Locked(State())

    deinit {
        let state = state.withLock { $0 }
        for task in state.tasks.values { task.cancel() }
        state.poller?.cancel()
        for registration in state.registrations { registration.registry.unregister(registration.id) }
    }

    /// Starts `operation` as a task cancelled if the query goes first; it leaves the list when done.
    @discardableResult
    package func run(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        state.withLock { state in
            state.lastTaskID += 1
            let id = state.lastTaskID
            let task = Task { [weak self] in
                await operation()
                _ = self?.state.withLock { $0.tasks.removeValue(forKey: id) }
            }
            state.tasks[id] = task
            return task
        }
    }

    /// Cancels every task started so far (a fetch `CachedQuery.update(_:)` superseded, and
    /// what it started); the polling timer goes on. Each leaves the list when it ends.
    package func cancelTasks() {
        for task in state.withLock({ Array($0.tasks.values) }) { task.cancel() }
    }

    /// Replaces the polling task (cancelling the old one); `nil` stops polling.
    package func setPoller(_ task: Task<Void, Never>?) {
        let old = state.withLock { state in
            defer { state.poller = task }
            return state.poller
        }
        old?.cancel()
    }

    /// Replaces the registrations, removing the old ones.
    package func setRegistrations(_ registrations: [(registry: QueryRegistry, id: UInt64)]) {
        let old = state.withLock { state in
            defer { state.registrations = registrations }
            return state.registrations
        }
        for registration in old { registration.registry.unregister(registration.id) }
    }

    /// Returns once every task started so far (and any they start) has ended; for tests,
    /// which must not sleep.
    package func waitForTasks() async {
        while let task = state.withLock({ $0.tasks.values.first }) {
            await task.value
        }
    }

    /// The tasks still running; for tests.
    package var runningTaskCount: Int {
        state.withLock { $0.tasks.count + ($0.poller == nil ? 0 : 1) }
    }
}
