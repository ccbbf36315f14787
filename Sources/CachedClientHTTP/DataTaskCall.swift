import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(RuntimeLayers) import CachedClientValues

/// One `URLSessionTransport.send`: hands the caller the data task's answer exactly once,
/// from the task's completion handler or, if the caller's task is cancelled first, at once
/// with `CancellationError`.
///
/// This is the path `URLSession.data(for:)` would take, written so that cancellation never
/// waits: `cancel()` resumes the caller and cancels the data task from another thread
/// (`cancelWithoutWaiting()`), so the caller ends at once even while the session is busy
/// handing the task its response, and an answer that arrives after that is dropped.
final class DataTaskCall: Sendable {
    private enum State {
        /// Not started; nothing to cancel yet.
        case ready
        /// The data task runs and the caller waits.
        case running(URLSessionDataTask, CheckedContinuation<HTTPResponse, any Error>)
        /// The caller has its answer (or was cancelled before the task started).
        case finished
    }

    private let state = Locked(State.ready)

    /// Makes the data task and starts it for the caller waiting on `continuation`; a caller
    /// cancelled already gets `CancellationError`, and a task made by then is cancelled unstarted.
    ///
    /// The task is made outside the lock: making one waits for the session's queue, which a
    /// cancellation handler (which takes this lock) must never be made to wait for.
    func start(answering continuation: CheckedContinuation<HTTPResponse, any Error>, with makeTask: () -> URLSessionDataTask) {
        guard !Task.isCancelled else {
            continuation.resume(throwing: CancellationError())
            return
        }
        let task = makeTask()
        let started = state.withLock { state -> Bool in
            guard case .ready = state else { return false }
            state = .running(task, continuation)
            return true
        }
        if started {
            task.resume()
        } else {
            continuation.resume(throwing: CancellationError())
            task.cancelWithoutWaiting()
        }
    }

    /// The data task's completion handler: answers the caller unless it was cancelled.
    func complete(data: Data?, response: URLResponse?, error: (any Error)?) {
        guard let continuation = take()?.continuation else { return }
        continuation.resume(with: Result {
            if let error { throw URLError.reportingCutShort(error) }
            guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
            return HTTPResponse(statusCode: http.statusCode, headers: URLSessionTransport.headers(of: http), body: data ?? Data())
        })
    }

    /// The caller's task was cancelled: it throws `CancellationError` now, and the data task
    /// (which closes its connection) is cancelled without waiting for the session.
    func cancel() {
        let running = take()
        running?.continuation.resume(throwing: CancellationError())
        running?.task.cancelWithoutWaiting()
    }

    /// Moves to `finished`, returning what was running (nothing if it had not started or had finished).
    private func take() -> (task: URLSessionDataTask, continuation: CheckedContinuation<HTTPResponse, any Error>)? {
        state.withLock { state in
            defer { state = .finished }
            guard case .running(let task, let continuation) = state else { return nil }
            return (task, continuation)
        }
    }
}
