import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import CachedClientHTTP
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// The middle stage of a call: one network round trip for all who need it, decoded. Concurrent
/// callers of a key share one fetch (`RequestMerger`), processes sharing a leasing store share
/// one request (`CallFetcher+Collapsing.swift`), transient failures are retried
/// (`RetryPolicy.attempts`), and the request goes through the middleware to the transport
/// (`RequestSender`). The answer is handed to the writer once per fetch, not once per caller.
package struct CallFetcher: Sendable {
    /// Network fetches shared by concurrent callers.
    package let merger: RequestMerger<FlightKey>
    /// How requests are collapsed with other processes through a `CacheStoreLeasing` store.
    package let collapsing: RequestCollapsing
    package let store: any CacheStore
    package let sender: RequestSender
    package let reader: CallReader
    package let writer: CallWriter
    package let now: @Sendable () -> Date
    package let events: CallEvents

    /// Merged fetches are per key and per decoded type, so a shared result always casts, and
    /// per removal generation and partition switch: a call that starts after a removal, an
    /// invalidation or a switch of user never joins a request that started before it, whose
    /// answer may be what was just removed (read-your-writes).
    package struct FlightKey: Hashable, Sendable {
        package let key: CacheKey
        package let type: ObjectIdentifier
        package let generation: UInt64
        package let partitionSwitches: UInt64

        package init(_ call: CachedClient.Call, _ type: Any.Type) {
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
    package func shared<T: Decodable & Sendable>(
        _ call: CachedClient.Call, validating entry: CacheEntry?, as type: T.Type
    ) async throws -> Fetched<T> {
        let value = try await merger.run(FlightKey(call, type)) {
            try await self.collapsed(call, validating: entry, as: type)
        }
        guard let typed = value as? Fetched<T> else {
            throw CachedClientError.decodingFailed(endpoint: call.endpoint.name, reason: "internal: shared result of another type")
        }
        return typed
    }

    /// One network round trip for a cached endpoint: decode, hand to the writer, and
    /// revalidate `entry` with its validators when it has any. (`collapsed` decides whether
    /// this process sends it or takes another process's answer.)
    package func fetch<T: Decodable & Sendable>(
        _ call: CachedClient.Call, validating entry: CacheEntry?, as type: T.Type
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
                await writer.forget(call, hadEntry: entry != nil)
                return Fetched(value: value, freshness: caching.freshness)
            }
            let fresh = CacheEntry(
                body: body, date: responseTime,
                etag: response.header("ETag"), lastModified: response.header("Last-Modified"),
                freshness: caching.freshness)
            writer.write(fresh, call, value: value, reportingStore: true)
            writer.keepLinks(of: response, call, responseTime: responseTime)
            return Fetched(value: value, freshness: fresh.freshness)
        case 304:
            guard let entry = validators else { break }
            guard response.confirms(entry) else {
                // It confirms another response than the one stored; ask again without validators.
                return try await fetch(call, validating: nil, as: type)
            }
            guard let value = await writer.decodeStored(entry, call, as: type) else {
                // The bytes the server confirmed are unreadable; ask again without validators.
                return try await fetch(call, validating: nil, as: type)
            }
            events.emit(.revalidated, call, age: entry.age(at: responseTime))
            let caching = ResponseCaching(
                revalidation: response, stored: entry.freshness, requestTime: requestTime, responseTime: responseTime)
            if caching.noStore {
                await writer.forget(call, hadEntry: true)
                return Fetched(value: value, freshness: caching.freshness)
            }
            let confirmed = CacheEntry(
                body: entry.body, date: responseTime,
                etag: response.header("ETag") ?? entry.etag,
                lastModified: response.header("Last-Modified") ?? entry.lastModified,
                freshness: caching.freshness)
            writer.write(confirmed, call, value: value, reportingStore: false)
            // The links kept before, re-dated with the page unless the 304 sent its own.
            let keptLinks =
                call.endpoint.nextLinkRelation != nil && response.header("Link") == nil
                ? await reader.entry(reader.linksCall(call), writingBackWith: writer) : nil
            writer.keepLinks(confirmedBy: response, kept: keptLinks, call, responseTime: responseTime)
            return Fetched(value: value, freshness: confirmed.freshness)
        default:
            break
        }
        throw CachedClientError.httpStatus(response.statusCode, endpoint: call.endpoint.name, body: response.body)
    }

    /// Sends a cached endpoint's request, retrying as its rule and the client's policy allow;
    /// none at all when the call could answer from the cache at once.
    package func send(_ call: CachedClient.Call, validators: CacheEntry?) async throws -> HTTPResponse {
        try await send(
            call.request, endpoint: call.endpoint, body: call.body, validators: validators,
            cacheAtHand: call.cacheAtHand, onRetry: { events.emit(.retry, call, message: $0) })
    }

    /// Sends `request`, again after a transient failure while the retries last, and returns the
    /// last response (which may be a 503 or a 429 when they ran out) or throws the last error.
    ///
    /// - Parameter cacheAtHand: a stored value could be shown now, so the first transient
    ///   failure ends the call (to answer from it) and a host's `Retry-After` is not waited for.
    package func send(
        _ request: EndpointRequest, endpoint: Endpoint, body: Data?, validators: CacheEntry?, cacheAtHand: Bool,
        onRetry: (String) -> Void = { _ in }
    ) async throws -> HTTPResponse {
        let policy = sender.retry
        return try await policy.attempts(
            host: (try? sender.url(for: request, server: endpoint.server))?.host ?? "",
            allowed: cacheAtHand ? 0 : policy.allowedRetries(method: request.method.uppercased(), rule: endpoint.retry),
            cacheAtHand: cacheAtHand, backoff: sender.hostBackoff, now: now, onRetry: onRetry
        ) {
            try await sender.send(
                request, body: body, validators: validators, operation: endpoint.name, accept: endpoint.acceptField,
                server: endpoint.server)
        }
    }

    /// Tells a live query that `call` answered from the cache at a transient failure (a lost
    /// connection, a timeout, 502/503/504, 429, a host's `Retry-After`), so that it goes on
    /// retrying in the background as the endpoint's rule allows.
    package func noteFallback(_ call: CachedClient.Call, error: any Error, in probe: QueryProbe) {
        let transient: Bool
        switch error {
        case CachedClientError.httpStatus(let status, _, _): transient = RetryPolicy.isTransient(status: status)
        case is RateLimitedError: transient = true
        default: transient = RetryPolicy.isTransient(error)
        }
        let retries = sender.retry.allowedRetries(method: call.request.method.uppercased(), rule: call.endpoint.retry)
        guard transient, retries > 0 else { return }
        let host = (try? sender.url(for: call.request, server: call.endpoint.server))?.host ?? ""
        let hostWait = sender.hostBackoff.blocked(host, at: now()).map { RetryPolicy.duration(from: now(), to: $0) } ?? .zero
        probe.recordFallback(QueryProbe.Fallback(retries: retries, policy: sender.retry, hostWait: hostWait))
    }

    /// Whether `networkFirst` may answer from the cache after this error: a transport
    /// failure, a 5xx or a 429 (the server asked to come back later), never another 4xx, a
    /// failed sign-in, a bad answer or a cancellation.
    package static func allowsFallback(_ error: any Error) -> Bool {
        if isCancellation(error) { return false }
        if case .httpStatus(let status, _, _) = error as? CachedClientError {
            return (500..<600).contains(status) || status == 429
        }
        if error is AuthenticationError { return false }
        return !(error is CachedClientError)
    }

    /// Whether `error` is a cancellation (of the task, or of the transport's request).
    package static func isCancellation(_ error: any Error) -> Bool {
        error is CancellationError || (error as? URLError)?.code == .cancelled
    }
}
