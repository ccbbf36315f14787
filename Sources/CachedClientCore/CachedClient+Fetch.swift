import CachedClientHTTP
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues
import Foundation

extension CachedClient {
    /// Merged fetches are per key and per decoded type, so a shared result always casts, and
    /// per removal generation and partition switch: a call that starts after a removal, an
    /// invalidation or a switch of user never joins a request that started before it, whose
    /// answer may be what was just removed (read-your-writes).
    package struct FlightKey: Hashable, Sendable {
        package let key: CacheKey
        package let type: ObjectIdentifier
        package let generation: UInt64
        package let partitionSwitches: UInt64

        package init(_ call: Call, _ type: Any.Type) {
            key = call.key
            self.type = ObjectIdentifier(type)
            generation = call.generation
            partitionSwitches = call.partitionSwitches
        }
    }

    /// A value from the network (or another process's fetch of it) with what the server said
    /// of its freshness, which a live query needs to say when it goes stale.
    package struct Fetched<T: Sendable>: Sendable {
        package let value: T
        package let freshness: ServerFreshness?
    }

    /// Fetches, decodes and stores once for all concurrent callers with the same key.
    package func sharedFetch<T: Decodable & Sendable>(
        _ call: Call, validating entry: CacheEntry?, as type: T.Type
    ) async throws -> Fetched<T> {
        let flightKey = FlightKey(call, type)
        let value = try await fetches.run(flightKey) {
            try await self.collapsedFetch(call, validating: entry, as: type)
        }
        guard let typed = value as? Fetched<T> else {
            throw CachedClientError.decodingFailed(endpoint: call.endpoint.name, reason: "internal: shared result of another type")
        }
        return typed
    }

    /// One network round trip for a cached endpoint: decode, store, and revalidate `entry`
    /// with its validators when it has any. (`collapsedFetch` decides whether this process
    /// sends it or takes another process's answer.)
    package func fetch<T: Decodable & Sendable>(
        _ call: Call, validating entry: CacheEntry?, as type: T.Type
    ) async throws -> Fetched<T> {
        let validators = entry.flatMap { $0.etag == nil && $0.lastModified == nil ? nil : $0 }
        let requestTime = now()
        let response = try await send(call, validators: validators)
        let responseTime = now()
        switch response.statusCode {
        case 200..<300:
            let body = try call.endpoint.storedBody(of: response)
            let value = try call.endpoint.decode(type, from: body, contentType: response.header("Content-Type"))
            let caching = ResponseCaching(response, requestTime: requestTime, responseTime: responseTime)
            if caching.noStore {
                await forget(call, hadEntry: entry != nil)
                return Fetched(value: value, freshness: caching.freshness)
            }
            let fresh = CacheEntry(
                body: body, date: responseTime,
                etag: response.header("ETag"), lastModified: response.header("Last-Modified"),
                freshness: caching.freshness)
            write(fresh, call, value: value, reportingStore: true)
            keepLinks(of: response, call, responseTime: responseTime)
            return Fetched(value: value, freshness: fresh.freshness)
        case 304:
            guard let entry = validators else { break }
            guard response.confirms(entry) else {
                // It confirms another response than the one stored; ask again without validators.
                return try await fetch(call, validating: nil, as: type)
            }
            guard let value = await decodeStored(entry, call, as: type) else {
                // The bytes the server confirmed are unreadable; ask again without validators.
                return try await fetch(call, validating: nil, as: type)
            }
            emit(.revalidated, call, age: entry.age(at: responseTime))
            let caching = ResponseCaching(
                revalidation: response, stored: entry.freshness, requestTime: requestTime, responseTime: responseTime)
            if caching.noStore {
                await forget(call, hadEntry: true)
                return Fetched(value: value, freshness: caching.freshness)
            }
            let confirmed = CacheEntry(
                body: entry.body, date: responseTime,
                etag: response.header("ETag") ?? entry.etag,
                lastModified: response.header("Last-Modified") ?? entry.lastModified,
                freshness: caching.freshness)
            write(confirmed, call, value: value, reportingStore: false)
            await keepLinks(confirmedBy: response, call, responseTime: responseTime)
            return Fetched(value: value, freshness: confirmed.freshness)
        default:
            break
        }
        throw CachedClientError.httpStatus(response.statusCode, endpoint: call.endpoint.name, body: response.body)
    }

    // MARK: - Background refreshes

    /// Starts the background refresh of `staleWhileRevalidate`, unless one for the key runs
    /// that started after the same removals and under the same user.
    package func startRefresh<T: Decodable & Sendable>(_ call: Call, entry: CacheEntry, as type: T.Type) {
        let flightKey = FlightKey(call, type)
        refreshes.withLock { refreshes in
            guard refreshes[flightKey] == nil else { return }
            refreshes[flightKey] = Task {
                do {
                    _ = try await self.sharedFetch(call, validating: entry, as: type)
                } catch where !Self.allowsFallback(error) && !Self.isCancellation(error) {
                    // Offline is normal here and the entry stays; a 4xx or a changed model is not.
                    self.emit(.error, call, message: "background refresh: \(self.safeDescription(of: error))")
                } catch {}
                _ = self.refreshes.withLock { $0.removeValue(forKey: flightKey) }
            }
        }
    }

    /// Waits for every background refresh started so far, and (with `flushing`) for every
    /// write started so far, theirs included; for tests, which must not sleep.
    package func waitForBackgroundRefreshes(flushing: Bool = true) async {
        while let task = refreshes.withLock({ $0.values.first }) {
            await task.value
        }
        if flushing { await flush() }
    }

    /// The number of callers waiting for a merged fetch; lets tests wait for callers to join.
    package var waitingCallerCount: Int {
        fetches.waitingCount
    }
}
