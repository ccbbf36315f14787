import Foundation

/// A value guarded by a lock, for the few places that share mutable state across tasks.
///
/// Inlinable, so that the layers (targets) above get it specialized for their values, as they
/// did when the runtime was one module.
// Not `Synchronization.Mutex`, which needs macOS 15 / iOS 18.
package final class Locked<Value>: @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    /// Exclusive by the lock, so the run-time exclusivity check (a measurable part of a
    /// cache hit in memory, which takes the lock once) is left out.
    @usableFromInline @exclusivity(unchecked) var value: Value

    @inlinable package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
