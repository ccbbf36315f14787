import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import CachedClientHTTP
import CachedClientStore
@_spi(Generated) import CachedClientValues

// Retries of transient failures (see `RetryPolicy`), and the 429 `Retry-After` a host asked for.
extension CachedClient {
    /// Sends a cached endpoint's request, retrying as its rule and the client's policy allow;
    /// none at all when the call could answer from the cache at once.
    package func send(_ call: Call, validators: CacheEntry?) async throws -> HTTPResponse {
        try await send(
            call.request, endpoint: call.endpoint, body: call.body, validators: validators,
            cacheAtHand: call.cacheAtHand, onRetry: { self.emit(.retry, call, message: $0) })
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
        let allowed = cacheAtHand ? 0 : policy.allowedRetries(method: request.method.uppercased(), rule: endpoint.retry)
        let host = (try? sender.url(for: request, server: endpoint.server))?.host ?? ""
        if let until = sender.hostBackoff.blocked(host, at: now()) {
            let wait = Self.duration(from: now(), to: until)
            guard !cacheAtHand, wait <= policy.maxRetryAfter else { throw RateLimitedError(host: host, retryAfter: until) }
            try await policy.sleep(wait)
        }
        var retry = 0
        while true {
            try Task.checkCancellation()
            let delay: Duration
            do {
                let response = try await sender.send(
                    request, body: body, validators: validators, operation: endpoint.name, accept: endpoint.acceptField,
                    server: endpoint.server)
                guard RetryPolicy.isTransient(status: response.statusCode) else { return response }
                let asked = RetryPolicy.retryAfter(response, now: now())
                if response.statusCode == 429, let asked {
                    sender.hostBackoff.block(host, until: now().addingTimeInterval(Self.seconds(asked)))
                }
                guard retry < allowed else { return response }
                if let asked {
                    guard asked <= policy.maxRetryAfter else { return response }
                    delay = asked
                } else {
                    delay = policy.backoff(beforeRetry: retry)
                }
                onRetry("status \(response.statusCode), retry \(retry + 1) of \(allowed) in \(Self.seconds(delay))s")
            } catch where retry < allowed && RetryPolicy.isTransient(error) {
                delay = policy.backoff(beforeRetry: retry)
                onRetry("\(Self.describe((error as? URLError)?.code ?? .unknown)), retry \(retry + 1) of \(allowed) in \(Self.seconds(delay))s")
            }
            try await policy.sleep(delay)
            retry += 1
        }
    }

    /// Tells a live query that `call` answered from the cache at a transient failure (a lost
    /// connection, a timeout, 502/503/504, 429, a host's `Retry-After`), so that it goes on
    /// retrying in the background as the endpoint's rule allows.
    package func noteFallback(_ call: Call, error: any Error, in probe: QueryProbe) {
        let transient: Bool
        switch error {
        case CachedClientError.httpStatus(let status, _, _): transient = RetryPolicy.isTransient(status: status)
        case is RateLimitedError: transient = true
        default: transient = RetryPolicy.isTransient(error)
        }
        let retries = sender.retry.allowedRetries(method: call.request.method.uppercased(), rule: call.endpoint.retry)
        guard transient, retries > 0 else { return }
        let host = (try? sender.url(for: call.request, server: call.endpoint.server))?.host ?? ""
        let hostWait = sender.hostBackoff.blocked(host, at: now()).map { Self.duration(from: now(), to: $0) } ?? .zero
        probe.recordFallback(QueryProbe.Fallback(retries: retries, policy: sender.retry, hostWait: hostWait))
    }

    package static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    package static func duration(from start: Date, to end: Date) -> Duration {
        .milliseconds(max(0, Int((end.timeIntervalSince(start) * 1000).rounded(.up))))
    }
}
