@_spi(Generated) import CachedClientValues
import Foundation

/// The cached value first, then the fresh one, as a stream: `CachedClient.updates(for:endpoint:as:)`.
package struct UpdatesStream: Sendable {
    /// The client whose stages read, fetch and keep the values.
    package let client: CachedClient

    /// Streams the cached value first (if one within `maxStale` exists), then the fresh one,
    /// so a screen can show something at once and update when the network answers.
    ///
    /// When the network fails after a cached value was yielded, the stream finishes
    /// normally if `networkFirst` would have fallen back (a transport failure or a 5xx):
    /// the caller already holds the best value there is, exactly what `networkFirst`
    /// would have returned. It throws for a 4xx or an undecodable answer, which no cached
    /// value can excuse. Without a cached value it yields the fresh one or throws.
    /// Ending the iteration cancels the work.
    package func updates<T: Decodable & Sendable>(
        for request: EndpointRequest, endpoint: Endpoint, as type: T.Type
    ) -> AsyncThrowingStream<CachedValue<T>, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await streamUpdates(request, endpoint: endpoint, as: type) { continuation.yield($0) }
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
            yield(.fresh(value: try await client.mutations.response(for: request, endpoint: endpoint, as: type, invalidating: [], on: client)))
            return
        }
        let call = try client.makeCall(request, endpoint: endpoint, rule: rule)
        var entry = await client.reader.entry(call, writingBackWith: client.writer)
        var yieldedCached = false
        if let stored = entry, rule.allowsShowing(stored, at: client.now()) {
            if let value = await client.writer.decodeStored(stored, call, as: type) {
                client.callEvents.emitUse(stored, call, now: client.now)
                yield(.cached(value: value, date: stored.date))
                yieldedCached = true
            } else {
                entry = nil
            }
        }
        if !yieldedCached { client.callEvents.emit(.miss, call, age: entry?.age(at: client.now())) }
        do {
            yield(.fresh(value: try await client.fetcher.shared(call, validating: entry, as: type).value))
        } catch {
            guard yieldedCached, let entry, CallFetcher.allowsFallback(error), call.rule.allowsFallback(to: entry, at: client.now()) else {
                throw error
            }
            client.callEvents.emit(.fallback, call, age: entry.age(at: client.now()), message: client.callEvents.safeDescription(of: error))
        }
    }
}
