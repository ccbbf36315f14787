import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues
import Foundation

/// The `staleWhileRevalidate` refreshes a client runs in the background (and the server's
/// stale-while-revalidate window's), one per key and type: a stale answer was returned, and
/// the fetcher brings the entry up to date behind it.
package final class BackgroundRefreshes: Sendable {
    private let running = Locked<[CallFetcher.FlightKey: Task<Void, Never>]>([:])

    package init() {}

    /// Starts the refresh of `call` through `fetcher`, unless one for the key runs that started
    /// after the same removals and under the same user. A failure other than being offline (a
    /// 4xx, a changed model) is an `.error` event; offline is normal here, and the entry stays.
    package func start<T: Decodable & Sendable>(
        _ call: Call, entry: CacheEntry, as type: T.Type, fetcher: CallFetcher, events: CallEvents
    ) {
        let flightKey = CallFetcher.FlightKey(call, type)
        running.withLock { running in
            guard running[flightKey] == nil else { return }
            running[flightKey] = Task {
                do {
                    _ = try await fetcher.shared(call, validating: entry, as: type)
                } catch where !CallFetcher.allowsFallback(error) && !CallFetcher.isCancellation(error) {
                    events.emit(.error, call, message: "background refresh: \(events.safeDescription(of: error))")
                } catch {}
                _ = self.running.withLock { $0.removeValue(forKey: flightKey) }
            }
        }
    }

    /// Waits for every refresh started so far, and those they start; for tests, which must not sleep.
    package func wait() async {
        while let task = running.withLock({ $0.values.first }) {
            await task.value
        }
    }
}
