import Dispatch
import Foundation

@_spi(RuntimeLayers) import CachedClientValues

/// Runs `body` with a deadline, for calls that might block a thread forever (a read of a
/// FIFO): `nil` if it has not finished within `limit` by `clock`, else its result.
///
/// The body runs on a thread of its own (a task executor over a serial dispatch queue), not
/// on the cooperative pool, so a body stuck in a system call neither freezes the test run
/// nor keeps this function from returning; the stuck thread is left for the caller to
/// release (for a FIFO, by opening its other end). The clock is a deadline, never an
/// assertion: a body that finishes, however slowly, is not judged by its time.
package func finishing<T: Sendable>(
    within limit: Duration, clock: ContinuousClock = ContinuousClock(),
    _ body: @escaping @Sendable () async throws -> T
) async -> Result<T, any Error>? {
    let waiting = Locked<CheckedContinuation<Result<T, any Error>?, Never>?>(nil)
    let timer = Locked<Task<Void, Never>?>(nil)
    return await withCheckedContinuation { continuation in
        waiting.withLock { $0 = continuation }
        timer.withLock {
            $0 = Task {
                // Cancelled means the body finished (and answers): a timer that went on here could
                // take the continuation first and answer "did not finish" for a body that did.
                guard (try? await clock.sleep(for: limit)) != nil else { return }
                waiting.withLock { $0.take() }?.resume(returning: nil)
            }
        }
        Task(executorPreference: OwnThreadExecutor()) {
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            let waiter = waiting.withLock { $0.take() }
            timer.withLock { $0 }?.cancel()
            waiter?.resume(returning: result)
        }
    }
}

/// A task executor that runs its jobs on a serial dispatch queue, outside the cooperative pool.
package final class OwnThreadExecutor: TaskExecutor {
    package init() {}

    private let queue = DispatchQueue(label: "cachegen.tests.own-thread")

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
