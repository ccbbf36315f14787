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
    /// The delegate queue, not any thread: it is where the task's completion (handler or
    /// delegate) runs and marks the task completed, so a cancel queued behind a completion
    /// finds the task completed and does nothing. Cancelled from elsewhere in that gap,
    /// FoundationNetworking reports the cancellation of a task it has already dropped from its
    /// registry and traps ("Trying to access a behaviour for a task that in not in the
    /// registry"). With `invalidatingSession`, the session (one of the task's own) is
    /// invalidated after the cancel, never before: invalidated first, it drops the task the
    /// cancel then reports on, and traps the same way (seen under the cancellation stress).
    package func cancelWithoutWaiting(in session: URLSession, invalidatingSession: Bool = false) {
        session.delegateQueue.addOperation {
            self.cancel()
            if invalidatingSession { session.finishTasksAndInvalidate() }
        }
    }
}
