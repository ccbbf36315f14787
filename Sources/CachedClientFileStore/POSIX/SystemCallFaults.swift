@_spi(RuntimeLayers) import CachedClientValues
import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// Faults for the system calls of `POSIX`, for tests: what a full disk, an I/O error, a
/// folder that turned read-only, an interrupted call, a write cut short or a kill between two
/// calls does to the store.
///
/// Bound around a workload with `POSIX.$faults.withValue(faults) { … }`, it numbers every
/// system call that workload makes through the wrapper, from 1, and makes call `at` (and,
/// when `persistent`, every later one) go wrong as `fault` says. It is a task-local, so it
/// covers the workload's task and the tasks it starts (which inherit it), never another
/// test's: tests run in parallel in one process. Detached tasks (background sweeps, the
/// deletion of old trash) inherit nothing and are never counted.
///
/// In production, where none is ever made, the wrapper pays one load of a byte and a branch
/// per system call (`POSIX.activeFaults`); once a test made one, a task-local read.
package final class SystemCallFaults: Sendable {
    /// What goes wrong at the chosen call.
    package enum Fault: Sendable, Equatable, CustomStringConvertible {
        /// The call is not made and fails with this `errno` (`EINTR`: the wrapper must retry).
        case error(Int32)
        /// A write writes half of what it was given (rounded down), as a write to a nearly
        /// full disk or one interrupted by a signal can; other calls are not touched.
        case shortWrite
        /// The process is killed (`SIGKILL`) before the call: a crash between two calls.
        case kill
        /// A write writes half of what it was given, then the process is killed: a crash in
        /// the middle of a write. Other calls are killed before, as with `kill`.
        case shortWriteThenKill

        /// `ENOSPC`, `EIO`, …, `short write`, `kill`.
        package var description: String {
            switch self {
            case .error(let code): Self.errnoNames[code] ?? "errno \(code)"
            case .shortWrite: "short write"
            case .kill: "kill"
            case .shortWriteThenKill: "short write, then kill"
            }
        }

        private static let errnoNames: [Int32: String] = [
            ENOSPC: "ENOSPC", EIO: "EIO", EACCES: "EACCES", EROFS: "EROFS", EINTR: "EINTR",
        ]
    }

    /// What the wrapper does with one call.
    package enum Injection: Equatable {
        /// Makes the call as asked.
        case proceed
        /// Does not make the call; it failed with this `errno`.
        case fail(Int32)
        /// Makes a write with half the bytes.
        case shorten
        /// Makes a write with half the bytes, then kills the process.
        case shortenThenKill
    }

    /// The call that goes wrong; `nil` to only count and record.
    package let at: Int?
    /// The operation whose first call goes wrong (`flush`, `rename`, …), when `at` is `nil`.
    package let operation: String?
    /// What goes wrong there.
    package let fault: Fault
    /// Whether every call after `at` goes wrong too (a disk that stays full); writes only
    /// for `shortWrite`. Never for `EINTR`, which would retry forever.
    package let persistent: Bool
    private let seen = Locked(Seen())

    private struct Seen {
        var count = 0
        var operations: [StaticString] = []
        var writes: [Int] = []
        var injected = 0
    }

    /// Counts calls, failing none: a first run that learns a workload's calls.
    package convenience init() {
        self.init(at: nil, fault: .error(EIO))
    }

    /// Makes call number `at` (from 1) go wrong as `fault` says, and every later one too
    /// when `persistent`.
    package init(at: Int?, fault: Fault, persistent: Bool = false) {
        precondition(!(persistent && fault == .error(EINTR)), "a persistent EINTR retries forever")
        POSIX.arm()
        self.at = at
        operation = nil
        self.fault = fault
        self.persistent = persistent
    }

    /// Makes the first call of `operation` (the wrapper's name for it, such as `flush`) go
    /// wrong as `fault` says.
    package init(operation: String, fault: Fault) {
        POSIX.arm()
        at = nil
        self.operation = operation
        self.fault = fault
        persistent = false
    }

    /// The calls numbered so far.
    package var count: Int { seen.withLock { $0.count } }
    /// Each call's operation, in order (the first is call 1).
    package var operations: [String] { seen.withLock { $0.operations.map(\.description) } }
    /// The numbers of the calls that were writes.
    package var writes: [Int] { seen.withLock { $0.writes } }
    /// How many calls went wrong.
    package var injected: Int { seen.withLock { $0.injected } }

    /// Numbers the next call and says what to do with it; kills the process when told to
    /// before the call.
    package func next(_ operation: StaticString, isWrite: Bool) -> Injection {
        let (injection, killsFirst) = seen.withLock { seen -> (Injection, Bool) in
            seen.count += 1
            seen.operations.append(operation)
            if isWrite { seen.writes.append(seen.count) }
            let hit =
                if let at { seen.count == at || (persistent && seen.count > at) } else {
                    seen.injected == 0 && self.operation == operation.description
                }
            guard hit else { return (.proceed, false) }
            let decided: (Injection, Bool)
            switch fault {
            case .error(let code): decided = (.fail(code), false)
            case .shortWrite: decided = (isWrite ? .shorten : .proceed, false)
            case .kill: decided = (.proceed, true)
            case .shortWriteThenKill: decided = isWrite ? (.shortenThenKill, false) : (.proceed, true)
            }
            if decided != (.proceed, false) { seen.injected += 1 }
            return decided
        }
        if killsFirst { Self.killProcess() }
        return injection
    }

    /// Ends the process at once, as `kill -9` from outside would.
    package static func killProcess() -> Never {
        kill(getpid(), SIGKILL)
        _exit(137)
    }
}
