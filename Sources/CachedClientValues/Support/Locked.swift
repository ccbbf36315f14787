import Foundation

/// A value guarded by a lock, for the few places that share mutable state across tasks.
// Not `Synchronization.Mutex`, which needs macOS 15 / iOS 18.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    /// Exclusive by the lock, so the run-time exclusivity check (a measurable part of a
    /// cache hit in memory, which takes the lock once) is left out.
    @exclusivity(unchecked) private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
