import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionTask {
    /// Cancels the task from a thread of its own and returns at once.
    ///
    /// Every cancellation the transport makes goes through here, because it is made inside a
    /// task cancellation handler (or an `AsyncThrowingStream`'s `onTermination`, which runs in
    /// one), while the Swift task's status lock is held. On Linux, `URLSessionTask.cancel()`
    /// waits for the session's work queue (`workQueue.sync`, before swift-corelibs-foundation
    /// PR #5417), and that queue may at the same moment be handing the task its answer:
    /// resuming the waiting continuation needs the status lock, so both threads would wait
    /// for each other forever (swift-corelibs-foundation issue #5412). Cancelling from another
    /// thread lets the handler return first, as the upstream fix does with `workQueue.async`.
    package func cancelWithoutWaiting() {
        DispatchQueue.global().async { self.cancel() }
    }
}
