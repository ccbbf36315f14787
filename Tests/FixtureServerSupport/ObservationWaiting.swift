import Foundation
import Observation

// Waiting for observable state in tests, without sleeping; shared by the two test targets
// whose tests hold live queries.

/// Waits, without sleeping, until `condition` (which reads observable state) holds: it
/// re-checks after each change of what it read. Cancellation (the suite's time limit) ends
/// the wait, so a test that would wait forever fails instead of hanging the run.
@MainActor
public func waitUntil(_ condition: @escaping @MainActor () -> Bool) async {
    while !condition(), !Task.isCancelled {
        let wake = Wake()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                wake.set(continuation)
                withObservationTracking {
                    _ = condition()
                } onChange: {
                    wake.resume()
                }
            }
        } onCancel: {
            wake.resume()
        }
    }
}

/// A continuation resumed once, by whichever comes first (a change or a cancellation),
/// even if that comes before the continuation is set.
public final class Wake: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, Never>?
    private var resumed = false

    public init() {}

    public func set(_ continuation: CheckedContinuation<Void, Never>) {
        let resumeNow = lock.withLock {
            if resumed { return true }
            self.continuation = continuation
            return false
        }
        if resumeNow { continuation.resume() }
    }

    public func resume() {
        let continuation = lock.withLock {
            resumed = true
            defer { self.continuation = nil }
            return self.continuation
        }
        continuation?.resume()
    }
}
