@_spi(RuntimeLayers) import CachedClientValues
import Foundation

/// A prefetch running (`CachedClient.prefetch(named:_:)`): its progress, as a value and as a
/// sequence of changes, and a way to cancel it.
///
/// What was done before a cancellation or a relaunch stays stored and pinned; a later
/// `prefetch(named:_:)` with the same name and calls, or `resumePrefetch(named:)`, fetches
/// only the rest.
public final class PrefetchJob: Sendable {
    /// The plan's name.
    public let name: String
    private let state: Locked<State>

    private struct State {
        var progress: PrefetchProgress
        var observers: [Int: AsyncStream<PrefetchProgress>.Continuation] = [:]
        var nextObserver = 0
        var task: Task<Void, Never>?
        var isCancelled = false
    }

    package init(name: String, total: Int) {
        self.name = name
        state = Locked(State(progress: PrefetchProgress(name: name, completed: 0, total: total, state: .running)))
    }

    /// The progress now.
    public var progress: PrefetchProgress {
        state.withLock { $0.progress }
    }

    /// The progress now, then every change (one per call done or failed) until the job ends,
    /// its last element the final progress. Each call makes a new sequence; any number may be
    /// iterated at once.
    public func updates() -> AsyncStream<PrefetchProgress> {
        let (stream, continuation) = AsyncStream.makeStream(of: PrefetchProgress.self, bufferingPolicy: .unbounded)
        state.withLock { state in
            continuation.yield(state.progress)
            guard state.progress.state == .running else {
                continuation.finish()
                return
            }
            let id = state.nextObserver
            state.nextObserver += 1
            state.observers[id] = continuation
            continuation.onTermination = { [weak self] _ in
                _ = self?.state.withLock { $0.observers.removeValue(forKey: id) }
            }
        }
        return stream
    }

    /// Stops fetching: calls in flight end at once, what was done stays pinned, and the plan
    /// is kept so that a later resume fetches the rest.
    public func cancel() {
        let task = state.withLock { state in
            state.isCancelled = true
            return state.task
        }
        task?.cancel()
    }

    /// Waits until the job ends (finished, cancelled or interrupted) and returns its final progress.
    @discardableResult
    public func result() async -> PrefetchProgress {
        if let task = state.withLock({ $0.task }) { await task.value }
        return progress
    }

    /// Whether `cancel()` was called.
    package var isCancelled: Bool {
        state.withLock { $0.isCancelled }
    }

    /// Starts the task that runs the job; cancelled at once when `cancel()` came first.
    package func start(_ task: Task<Void, Never>) {
        let cancelled = state.withLock { state in
            state.task = task
            return state.isCancelled
        }
        if cancelled { task.cancel() }
    }

    /// Changes the progress and tells the observers; the last change (a state other than
    /// `.running`) ends their sequences.
    package func update(_ change: (inout PrefetchProgress) -> Void) {
        let ended = state.withLock { state -> [AsyncStream<PrefetchProgress>.Continuation] in
            change(&state.progress)
            for observer in state.observers.values { observer.yield(state.progress) }
            guard state.progress.state != .running else { return [] }
            defer { state.observers = [:] }
            return Array(state.observers.values)
        }
        // Outside the lock: finishing runs `onTermination`, which takes it.
        for observer in ended { observer.finish() }
    }
}
