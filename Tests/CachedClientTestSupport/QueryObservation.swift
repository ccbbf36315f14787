import Foundation
import FixtureServerSupport
import Observation

/// Returns after the main actor's jobs enqueued before it have run (its queue is first in,
/// first out): what a signal delivered off the main thread started has begun by then.
@MainActor
package func mainActorJobsEnqueuedSoFar() async {
    await Task { @MainActor in }.value
}

/// Counts the change notifications of each tracked property, counted as they are sent
/// (observers are told before each change); tracking is renewed after each one.
@MainActor
package final class ChangeCounter {
    package init() {}

    private(set) var counts: [String: Int] = [:]

    package func track(_ name: String, _ read: @escaping @MainActor () -> Void) {
        withObservationTracking {
            read()
        } onChange: { [weak self] in
            MainActor.assumeIsolated { self?.counts[name, default: 0] += 1 }
            Task { @MainActor [weak self] in self?.track(name, read) }
        }
    }

    /// Every tracked property's count, zero included, for one comparison.
    package func snapshot(_ names: [String]) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: names.map { ($0, counts[$0] ?? 0) })
    }
}

/// The values a property took, read after each change (changes within one job of the main
/// actor show as one).
@MainActor
package final class ValueRecorder<Value> {
    package private(set) var values: [Value] = []
    private let read: @MainActor () -> Value

    package init(_ read: @escaping @MainActor () -> Value) {
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
