import FixtureServerSupport
import Foundation

@testable import CachedClientRuntime
@_spi(RuntimeLayers) import CachedClientValues

/// A `Clock` whose time moves only when a test advances it: sleepers wake then, and a
/// cancelled sleeper leaves at once. Polling tests use it instead of sleeping.
package final class ManualClock: Clock, Sendable {
    package init() {}

    package struct Instant: InstantProtocol {
        package var offset: Duration

        package func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        package func duration(to other: Instant) -> Duration { other.offset - offset }
        package static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private struct Sleeper {
        package let deadline: Instant
        package let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        package var now = Instant(offset: .zero)
        package var lastID: UInt64 = 0
        package var sleepers: [UInt64: Sleeper] = [:]
        package var cancelled: Set<UInt64> = []
        package var watchers: [(count: Int, wake: @Sendable () -> Void)] = []

        /// Watchers whose count of sleepers is reached, taken out.
        package mutating func satisfiedWatchers() -> [@Sendable () -> Void] {
            let count = sleepers.count
            let ready = watchers.filter { $0.count == count }.map(\.wake)
            watchers.removeAll { $0.count == count }
            return ready
        }
    }

    private let state = Locked(State())

    package var now: Instant { state.withLock { $0.now } }
    package var minimumResolution: Duration { .zero }

    package func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = state.withLock { state -> UInt64 in
            state.lastID += 1
            return state.lastID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (outcome, watchers) = state.withLock { state -> (Result<Void, any Error>?, [@Sendable () -> Void]) in
                    if state.cancelled.remove(id) != nil { return (.failure(CancellationError()), []) }
                    if deadline <= state.now { return (.success(()), []) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return (nil, state.satisfiedWatchers())
                }
                watchers.forEach { $0() }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let (sleeper, watchers) = state.withLock { state -> (Sleeper?, [@Sendable () -> Void]) in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return (nil, [])
                }
                return (sleeper, state.satisfiedWatchers())
            }
            sleeper?.continuation.resume(throwing: CancellationError())
            watchers.forEach { $0() }
        }
    }

    /// Moves time on and wakes the sleepers whose deadline it reached.
    package func advance(by duration: Duration) {
        let (woken, watchers) = state.withLock { state -> ([Sleeper], [@Sendable () -> Void]) in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let woken = state.sleepers.filter { $0.value.deadline <= now }
            for id in woken.keys { state.sleepers[id] = nil }
            return (Array(woken.values), state.satisfiedWatchers())
        }
        woken.forEach { $0.continuation.resume() }
        watchers.forEach { $0() }
    }

    /// Returns once exactly `count` tasks sleep on this clock, or when cancelled (the
    /// suite's time limit), so a test that would wait forever fails instead of hanging.
    package func waitForSleepers(_ count: Int) async {
        let wake = Wake()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                wake.set(continuation)
                let ready = state.withLock { state -> Bool in
                    if state.sleepers.count == count { return true }
                    state.watchers.append((count, { wake.resume() }))
                    return false
                }
                if ready { wake.resume() }
            }
        } onCancel: {
            wake.resume()
        }
    }
}
