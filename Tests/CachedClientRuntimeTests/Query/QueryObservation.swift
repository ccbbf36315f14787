import Foundation
import Observation

/// Waits, without sleeping, until `condition` (which reads observable state) holds: it
/// re-checks after each change of what it read. Cancellation (the suite's time limit) ends
/// the wait, so a test that would wait forever fails instead of hanging the run.
@MainActor
func waitUntil(_ condition: @escaping @MainActor () -> Bool) async {
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

/// Returns after the main actor's jobs enqueued before it have run (its queue is first in,
/// first out): what a signal delivered off the main thread started has begun by then.
@MainActor
func mainActorJobsEnqueuedSoFar() async {
    await Task { @MainActor in }.value
}

/// A continuation resumed once, by whichever comes first (a change or a cancellation),
/// even if that comes before the continuation is set.
final class Wake: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, Never>?
    private var resumed = false

    func set(_ continuation: CheckedContinuation<Void, Never>) {
        let resumeNow = lock.withLock {
            if resumed { return true }
            self.continuation = continuation
            return false
        }
        if resumeNow { continuation.resume() }
    }

    func resume() {
        let continuation = lock.withLock {
            resumed = true
            defer { self.continuation = nil }
            return self.continuation
        }
        continuation?.resume()
    }
}

/// Counts the change notifications of each tracked property, counted as they are sent
/// (observers are told before each change); tracking is renewed after each one.
@MainActor
final class ChangeCounter {
    private(set) var counts: [String: Int] = [:]

    func track(_ name: String, _ read: @escaping @MainActor () -> Void) {
        withObservationTracking {
            read()
        } onChange: { [weak self] in
            MainActor.assumeIsolated { self?.counts[name, default: 0] += 1 }
            Task { @MainActor [weak self] in self?.track(name, read) }
        }
    }

    /// Every tracked property's count, zero included, for one comparison.
    func snapshot(_ names: [String]) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: names.map { ($0, counts[$0] ?? 0) })
    }
}

/// The values a property took, read after each change (changes within one job of the main
/// actor show as one).
@MainActor
final class ValueRecorder<Value> {
    private(set) var values: [Value] = []
    private let read: @MainActor () -> Value

    init(_ read: @escaping @MainActor () -> Value) {
        self.read = read
        values = [read()]
        track()
    }

    private func track() {
        withObservationTracking {
            _ = read()
        } onChange: { [weak self] in
            Task { @MainActor [weak self] in
                guard let self else { return }
                self.values.append(self.read())
                self.track()
            }
        }
    }
}
