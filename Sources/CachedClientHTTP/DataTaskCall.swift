import Dispatch
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
/// waits: `cancel()` only resumes the caller, and an answer that arrives after that is dropped.
/// The data task itself is left to finish (bounded by the transport's timeout) rather than
/// cancelled: on Linux, `URLSessionTask.cancel()` waits for the session's queue (the deadlock
/// of swift-corelibs-foundation #5412 when called in a cancellation handler), and made
/// anywhere else it races a task that is finishing: FoundationNetworking then reports the
/// cancellation of a task it has already dropped and traps ("Trying to access a behaviour for
/// a task that in not in the registry", seen under the cancellation stress whether the cancel
/// ran on a global queue or on the session's delegate queue).
final class DataTaskCall: Sendable {
    private enum State {
        /// Not started.
        case ready
        /// The caller waits; the data task is being made or runs.
        case running(CheckedContinuation<HTTPResponse, any Error>)
        /// The caller has its answer (or was cancelled, perhaps before the task was made).
        case finished
    }

    private let state = Locked(State.ready)

    /// Starts the data task for the caller waiting on `continuation`; a caller cancelled
    /// already gets `CancellationError`, and no request is made for it.
    ///
    /// The task is made and resumed on a global queue, never on the caller's thread: both
    /// wait for the session's queue, which every `URLSession` of a Linux process shares, and a
    /// caller's thread is one of Swift concurrency's few (as many as the cores). Waiting there,
    /// a busy queue (a large answer being handled, a test holding it on purpose) would stop
    /// every task of the app; on a global queue it stops one worker thread. A cancellation
    /// that comes first resumes the caller at once, and its task is then never made.
    func start(answering continuation: CheckedContinuation<HTTPResponse, any Error>, with makeTask: @escaping @Sendable () -> URLSessionDataTask) {
        let started = !Task.isCancelled && state.withLock { state -> Bool in
            guard case .ready = state else { return false }
            state = .running(continuation)
            return true
        }
        guard started else {
            continuation.resume(throwing: CancellationError())
            return
        }
        DispatchQueue.global().async {
            guard self.isRunning else { return }
            // Resumed even if the caller is cancelled meanwhile: a task made and never resumed
            // would stay in its session for good. Its answer is then dropped.
            makeTask().resume()
        }
    }

    /// Whether the caller still waits for the task's answer.
    private var isRunning: Bool {
        state.withLock { state in
            guard case .running = state else { return false }
            return true
        }
    }

    /// The data task's completion handler: answers the caller unless it was cancelled.
    func complete(data: Data?, response: URLResponse?, error: (any Error)?) {
        guard let continuation = take() else { return }
        continuation.resume(with: Result {
            if let error { throw URLError.reportingCutShort(error) }
            guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
            return HTTPResponse(statusCode: http.statusCode, headers: URLSessionTransport.headers(of: http), body: data ?? Data())
        })
    }

    /// The caller's task was cancelled: it throws `CancellationError` now.
    func cancel() {
        take()?.resume(throwing: CancellationError())
    }

    /// Moves to `finished`, returning who waits (nobody if it had not started or had finished).
    private func take() -> CheckedContinuation<HTTPResponse, any Error>? {
        state.withLock { state in
            defer { state = .finished }
            guard case .running(let continuation) = state else { return nil }
            return continuation
        }
    }
}
