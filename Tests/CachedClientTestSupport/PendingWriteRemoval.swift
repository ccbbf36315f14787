import Foundation
import StoreTestSupport
import Testing

@_spi(Generated) import CachedClientRuntime

/// The check of `aRemovalWhileWritesArePendingLeavesNothingBehind`, written once for the call
/// path's removals (`CachedClientWriteBehindTests`) and a mutation's invalidation
/// (`MutationCallTests`): one write of the key is under way (held at the gate) and a second
/// waits behind it when `remove` starts; neither may be left in the store afterwards.
package enum PendingWriteRemoval {
    /// Runs `remove` on a harness whose store holds its first write at a gate, with a second
    /// write of the same key pending, and checks that nothing of either is left.
    package static func check(
        sourceLocation: SourceLocation = #_sourceLocation, _ remove: @escaping @Sendable (Harness) async throws -> Void
    ) async throws {
        let store = GatedStore()
        let harness = Harness(store: store, memoryCacheLimit: 0)
        let first = store.holdNextWrite()
        _ = try await harness.value(policy: nil, flushing: false)
        await first.started.wait()
        harness.transport.respond(status: 200, body: Fixtures.body(Fixtures.aliceLater))
        _ = try await harness.value(policy: nil, flushing: false)
        #expect(harness.client.writes.pendingCount == 1, sourceLocation: sourceLocation)

        let removing = Task { try await remove(harness) }
        // The removal drops the pending writes at once, then waits for the one under way.
        while harness.client.writes.pendingCount > 0 { await Task.yield() }
        first.gate.open()
        try await removing.value
        await harness.client.flush()

        #expect(try await store.innerEntry(for: harness.key()) == nil, sourceLocation: sourceLocation)
        #expect(try await store.inner.entryCount() == 0, sourceLocation: sourceLocation)
        #expect(store.writes == 1, sourceLocation: sourceLocation)  // the second never went; the first was taken back out
        #expect(!harness.events.kinds.contains(.store), sourceLocation: sourceLocation)
        await #expect(throws: CachedClientError.notCached(endpoint: "AccountRepository.getAccount"), sourceLocation: sourceLocation) {
            try await harness.value(policy: .cacheOnly)
        }
    }
}
