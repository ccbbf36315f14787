#if canImport(Observation)
import Foundation
@_spi(Generated) import CachedClientCalls
@_spi(Generated) import CachedClientValues

// Arguments that change (a search field, a filter): the query is pointed at a new fetch and
// keeps its value on screen, marked as a placeholder, until the new one arrives.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension CachedQuery {
    /// Replaces what the query fetches (the same endpoint with new arguments) and, if it has
    /// loaded before, fetches with it now. Until the new value arrives `value` stays what it
    /// was, with `isPlaceholder` set, so a search screen never blanks while it types.
    ///
    /// ```swift
    /// results.update { policy in try await repository.search(q: text, policy: policy) }
    /// ```
    ///
    /// Generated repositories offer it per endpoint with parameters:
    /// `repository.searchQuery(updating: results, q: text)`. The fetch it supersedes is
    /// cancelled, with what it started (a background retry), and an answer for the old
    /// arguments never shows after it, even one that ignored its cancellation. The query
    /// stops hearing of the old arguments' entries; it hears of the new ones' once they load.
    public func update(_ fetch: @escaping @Sendable (CachePolicy?) async throws -> CachedValue<Value>) {
        self.fetch = fetch
        lifetime.cancelTasks()
        setSources([])
        seenVersion = 0
        if value != nil, !isPlaceholder { isPlaceholder = true }
        guard latestFetch > 0 else { return }  // Never loaded: `load()` will.
        startFetch(policy: nil)
    }
}
#endif
