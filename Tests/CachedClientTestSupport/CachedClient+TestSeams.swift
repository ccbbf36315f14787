@_spi(Generated) @testable import CachedClientRuntime

// What tests wait on instead of sleeping: package seams of the client, kept here rather than
// in its source.
extension CachedClient {
    /// Waits for every background refresh started so far, and (with `flushing`) for every
    /// write started so far, theirs included; for tests, which must not sleep.
    package func waitForBackgroundRefreshes(flushing: Bool = true) async {
        await refreshes.wait()
        if flushing { await flush() }
    }

    /// The number of callers waiting for a merged fetch; lets tests wait for callers to join.
    package var waitingCallerCount: Int {
        fetcher.merger.waitingCount
    }
}
