import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(RuntimeLayers) import CachedClientValues

/// The data task of one stream, made, resumed and cancelled on its session's delegate queue,
/// never on the caller's thread.
///
/// Making, resuming and cancelling a task all wait for the session's work queue, which every
/// `URLSession` of a Linux process shares:
/// - Made or resumed on the caller's thread (one of Swift concurrency's few, as many as the
///   cores), a busy queue would stop every task of the app, not one worker thread.
/// - Cancelled inside a task cancellation handler (or an `AsyncThrowingStream`'s
///   `onTermination`, which runs in one), while the Swift task's status lock is held, it
///   deadlocks when that queue is at the same moment handing the task its answer: resuming
///   the waiting continuation needs the status lock (swift-corelibs-foundation issue #5412,
///   fixed upstream by PR #5417 with `workQueue.async`).
///
/// The delegate queue is serial and the stream's delegate calls run there, so the order is
/// kept: a cancel that comes before the task is made means it is never made, a cancel queued
/// behind the stream's end finds the task completed and does nothing, and the session (the
/// stream's own) is invalidated after the cancel, never before. FoundationNetworking's cancel
/// can race a data task that is finishing (it traps: "a task that in not in the registry"),
/// which is why `send` never cancels; no stream has met it in the cancellation stress (480
/// streams a run, many runs).
final class StreamDataTask: Sendable {
    private enum State {
        case notMade
        case made(URLSessionDataTask)
        case cancelled
    }

    private let state = Locked(State.notMade)
    private let session: URLSession

    /// A task of `session`, not made yet.
    init(session: URLSession) {
        self.session = session
    }

    /// Makes the task for `request` and resumes it, unless it was cancelled first.
    func start(_ request: URLRequest) {
        let session = self.session
        session.delegateQueue.addOperation {
            guard self.state.withLock({ if case .notMade = $0 { true } else { false } }) else { return }
            let task = session.dataTask(with: request)
            self.state.withLock { $0 = .made(task) }
            task.resume()
        }
    }

    /// Cancels the task (or keeps it from being made) and returns at once; with
    /// `invalidatingSession`, the session is invalidated after it.
    func cancel(invalidatingSession: Bool = false) {
        let session = self.session
        session.delegateQueue.addOperation {
            let task = self.state.withLock { state -> URLSessionDataTask? in
                switch state {
                case .made(let task): return task
                case .notMade, .cancelled:
                    state = .cancelled
                    return nil
                }
            }
            task?.cancel()
            if invalidatingSession { session.finishTasksAndInvalidate() }
        }
    }
}
