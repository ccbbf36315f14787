import Foundation

/// A value guarded by a lock, for the few places that share mutable state across tasks.
///
/// Inlinable, so that the layers (targets) above get it specialized for their values, as they
/// did when the runtime was one module. SPI, not `package`: Swift inlines an `@inlinable`
/// declaration into another module only when it is public, and a call to the unspecialized
/// generic costs a cache hit about 400 instructions of metadata lookups.
// Not `Synchronization.Mutex`, which needs macOS 15 / iOS 18.
@_spi(RuntimeLayers)
public final class Locked<Value>: @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    /// Exclusive by the lock, so the run-time exclusivity check (a measurable part of a
    /// cache hit in memory, which takes the lock once) is left out.
    @usableFromInline @exclusivity(unchecked) var value: Value

    /// A lock around `value`.
    @_spi(RuntimeLayers) @inlinable public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    @_spi(RuntimeLayers) @inlinable public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
