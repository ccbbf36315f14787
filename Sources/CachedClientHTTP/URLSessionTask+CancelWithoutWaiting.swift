import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionTask {
    /// Cancels the task on `session`'s delegate queue and returns at once.
    ///
    /// The streaming path's cancellations go through here (`send` leaves its tasks to finish,
    /// `DataTaskCall` says why), because each is made inside a
    /// task cancellation handler (or an `AsyncThrowingStream`'s `onTermination`, which runs in
    /// one), while the Swift task's status lock is held. On Linux, `URLSessionTask.cancel()`
    /// waits for the session's work queue (`workQueue.sync`, before swift-corelibs-foundation
    /// PR #5417), and that queue may at the same moment be handing the task its answer:
    /// resuming the waiting continuation needs the status lock, so both threads would wait
    /// for each other forever (swift-corelibs-foundation issue #5412). Cancelling elsewhere
    /// lets the handler return first, as the upstream fix does with `workQueue.async`.
    ///
    /// The delegate queue, not any thread: a stream's delegate calls run there, so a cancel
    /// queued behind the stream's end finds the task completed and does nothing. With
    /// `invalidatingSession`, the session (the stream's own) is invalidated after the cancel,
    /// never before. FoundationNetworking's cancel can still race a data task that is finishing
    /// (it traps: "a task that in not in the registry"), which is why `send` never cancels; no
    /// stream has met it in the cancellation stress (480 streams a run, many runs).
    package func cancelWithoutWaiting(in session: URLSession, invalidatingSession: Bool = false) {
        session.delegateQueue.addOperation {
            self.cancel()
            if invalidatingSession { session.finishTasksAndInvalidate() }
        }
    }
}
