@_spi(Generated) import CachedClientValues
import Foundation

extension CachedClient {
    /// Streams the cached value first (if one within `maxStale` exists), then the fresh one,
    /// so a screen can show something at once and update when the network answers.
    ///
    /// When the network fails after a cached value was yielded, the stream finishes
    /// normally if `networkFirst` would have fallen back (a transport failure or a 5xx):
    /// the caller already holds the best value there is, exactly what `networkFirst`
    /// would have returned. It throws for a 4xx or an undecodable answer, which no cached
    /// value can excuse. Without a cached value it yields the fresh one or throws.
    /// Ending the iteration cancels the work.
    @_spi(Generated)
    public func updates<T: Decodable & Sendable>(
        for request: EndpointRequest, endpoint: Endpoint, as type: T.Type = T.self
    ) -> AsyncThrowingStream<CachedValue<T>, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await self.streamUpdates(request, endpoint: endpoint, as: type) { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The body of `updates`, written as a plain async function so errors flow normally.
    private func streamUpdates<T: Decodable & Sendable>(
        _ request: EndpointRequest, endpoint: Endpoint, as type: T.Type,
        yield: (CachedValue<T>) -> Void
    ) async throws {
        guard let rule = endpoint.cache else {
            yield(.fresh(value: try await mutations.response(for: request, endpoint: endpoint, as: type, invalidating: [], on: self)))
            return
        }
        let call = try makeCall(request, endpoint: endpoint, rule: rule)
        var entry = await reader.entry(call, writingBackWith: writer)
        var yieldedCached = false
        if let stored = entry, isShowable(stored, rule) {
            if let value = await writer.decodeStored(stored, call, as: type) {
                emitUse(stored, call)
                yield(.cached(value: value, date: stored.date))
                yieldedCached = true
            } else {
                entry = nil
            }
        }
        if !yieldedCached { emit(.miss, call, age: entry?.age(at: now())) }
        do {
            yield(.fresh(value: try await fetcher.shared(call, validating: entry, as: type).value))
        } catch {
            guard yieldedCached, let entry, CallFetcher.allowsFallback(error), call.rule.allowsFallback(to: entry, at: now()) else {
                throw error
            }
            emit(.fallback, call, age: entry.age(at: now()), message: safeDescription(of: error))
        }
    }
}
