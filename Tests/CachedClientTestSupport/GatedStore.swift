import FixtureServerSupport
import Foundation

@_spi(Generated) import CachedClientRuntime
@_spi(RuntimeLayers) import CachedClientValues

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A store whose next writes wait at gates a test opens (and may then fail), so that a
/// write can be held under way for as long as a test needs; counts reads and writes.
package final class GatedStore: ForwardingStore {
    /// One held write: `started` fires when it reaches the store, `gate` lets it go on.
    package struct HeldWrite: Sendable {
        package let gate = Gate()
        package let started = Signal()
        package let failing: Bool
    }

    package let inner: any CacheStore
    private let state = Locked((held: [HeldWrite](), reads: 0, writes: 0))

    package init(wrapping inner: any CacheStore = MemoryCacheStore()) {
        self.inner = inner
    }

    /// Holds the next write that reaches the store (after those held before) at a gate;
    /// with `failing`, it throws `StoreFailure` once let go.
    package func holdNextWrite(failing: Bool = false) -> HeldWrite {
        let held = HeldWrite(failing: failing)
        state.withLock { $0.held.append(held) }
        return held
    }

    package var reads: Int { state.withLock { $0.reads } }
    package var writes: Int { state.withLock { $0.writes } }

    package func entry(for key: CacheKey) async throws -> CacheEntry? {
        state.withLock { $0.reads += 1 }
        return try await inner.entry(for: key)
    }

    package func setEntry(_ entry: CacheEntry, for key: CacheKey) async throws {
        let held = state.withLock { state -> HeldWrite? in
            state.writes += 1
            return state.held.isEmpty ? nil : state.held.removeFirst()
        }
        if let held {
            held.started.fire()
            try await held.gate.pass()
            if held.failing { throw StoreFailure() }
        }
        try await inner.setEntry(entry, for: key)
    }
}

extension GatedStore {
    /// The wrapped store's entry, asked directly (no count, no gate).
    package func innerEntry(for key: CacheKey) async throws -> CacheEntry? { try await inner.entry(for: key) }
}
