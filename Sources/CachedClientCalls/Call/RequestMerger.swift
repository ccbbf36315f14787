@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues
import Foundation

/// Runs one operation per key for any number of concurrent callers (single flight): the
/// first caller starts it, later ones with the same key wait for its result.
///
/// The operation runs in an unstructured task, so one caller's cancellation does not cancel
/// the others: a cancelled caller stops waiting at once and throws `CancellationError`, and
/// when the last caller stops waiting the operation is cancelled.
package final class RequestMerger<Key: Hashable & Sendable>: Sendable {
    private let state = Locked(State())

    /// The result of `operation`, run once for all concurrent callers of `key`.
    package func run(
        _ key: Key, _ operation: @escaping @Sendable () async throws -> any Sendable
    ) async throws -> any Sendable {
        try Task.checkCancellation()
        let waiterID = state.withLock { state -> UInt64 in
            let waiterID = state.makeID()
            if var flight = state.flights[key] {
                flight.waiters.insert(waiterID)
                state.flights[key] = flight
                state.waiters[waiterID] = Waiter(key: key, flightID: flight.id, phase: .pending)
            } else {
                let flightID = state.makeID()
                let task = Task {
                    let result: Result<any Sendable, any Error>
                    do {
                        result = .success(try await operation())
                    } catch {
                        result = .failure(error)
                    }
                    self.finish(key, flightID: flightID, with: result)
                }
                state.flights[key] = Flight(id: flightID, task: task, waiters: [waiterID])
                state.waiters[waiterID] = Waiter(key: key, flightID: flightID, phase: .pending)
            }
            return waiterID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<any Sendable, any Error>) in
                let ready = state.withLock { state -> Result<any Sendable, any Error>? in
                    guard var waiter = state.waiters[waiterID] else { return .failure(CancellationError()) }
                    switch waiter.phase {
                    case .pending:
                        waiter.phase = .suspended(continuation)
                        state.waiters[waiterID] = waiter
                        return nil
                    case .finished(let result):
                        state.waiters[waiterID] = nil
                        return result
                    case .cancelled, .suspended:
                        state.waiters[waiterID] = nil
                        return .failure(CancellationError())
                    }
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            self.stopWaiting(waiterID)
        }
    }

    /// The number of callers waiting; lets tests wait for callers to join.
    package var waitingCount: Int {
        state.withLock { $0.flights.values.reduce(0) { $0 + $1.waiters.count } }
    }

    /// A waiter's task was cancelled: release it now, and cancel the operation if nobody is left.
    private func stopWaiting(_ waiterID: UInt64) {
        let (continuation, orphan) = state.withLock { state -> (CheckedContinuation<any Sendable, any Error>?, Task<Void, Never>?) in
            guard var waiter = state.waiters[waiterID] else { return (nil, nil) }
            var continuation: CheckedContinuation<any Sendable, any Error>?
            switch waiter.phase {
            case .pending:
                waiter.phase = .cancelled
                state.waiters[waiterID] = waiter
            case .suspended(let suspended):
                state.waiters[waiterID] = nil
                continuation = suspended
            case .finished, .cancelled:
                return (nil, nil)
            }
            guard var flight = state.flights[waiter.key], flight.id == waiter.flightID else {
                return (continuation, nil)
            }
            flight.waiters.remove(waiterID)
            if flight.waiters.isEmpty {
                state.flights[waiter.key] = nil
                return (continuation, flight.task)
            }
            state.flights[waiter.key] = flight
            return (continuation, nil)
        }
        continuation?.resume(throwing: CancellationError())
        orphan?.cancel()
    }

    /// Hands an operation's result to everyone still waiting for it.
    private func finish(_ key: Key, flightID: UInt64, with result: Result<any Sendable, any Error>) {
        let continuations = state.withLock { state -> [CheckedContinuation<any Sendable, any Error>] in
            guard let flight = state.flights[key], flight.id == flightID else { return [] }
            state.flights[key] = nil
            var continuations: [CheckedContinuation<any Sendable, any Error>] = []
            for waiterID in flight.waiters {
                guard var waiter = state.waiters[waiterID] else { continue }
                switch waiter.phase {
                case .suspended(let continuation):
                    state.waiters[waiterID] = nil
                    continuations.append(continuation)
                case .pending:
                    waiter.phase = .finished(result)
                    state.waiters[waiterID] = waiter
                case .cancelled, .finished:
                    break
                }
            }
            return continuations
        }
        for continuation in continuations { continuation.resume(with: result) }
    }
}

// MARK: - State

extension RequestMerger {
    /// One running operation and the callers waiting for it.
    private struct Flight {
        package let id: UInt64
        package let task: Task<Void, Never>
        package var waiters: Set<UInt64>
    }

    /// One caller; `pending` until it suspends, so that neither an early result nor an early
    /// cancellation is lost.
    private struct Waiter {
        package enum Phase {
            case pending
            case suspended(CheckedContinuation<any Sendable, any Error>)
            case finished(Result<any Sendable, any Error>)
            case cancelled
        }

        package let key: Key
        package let flightID: UInt64
        package var phase: Phase
    }

    private struct State {
        package var nextID: UInt64 = 0
        package var flights: [Key: Flight] = [:]
        package var waiters: [UInt64: Waiter] = [:]

        package mutating func makeID() -> UInt64 {
            nextID += 1
            return nextID
        }
    }
}
