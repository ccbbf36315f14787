import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The retry loop: attempts of one request, again after a transient failure while the retries
// last, and the 429 `Retry-After` a host asked for.
extension RetryPolicy {
    /// Runs `attempt` (one request through the middleware and the transport), again after a
    /// transient failure while `allowed` retries last, and returns the last response (which may
    /// be a 503 or a 429 when they ran out) or throws the last error.
    ///
    /// - Parameters:
    ///   - host: the request's host, for the `Retry-After` a 429 asks for (`backoff`).
    ///   - cacheAtHand: a stored value could be shown now, so a host's `Retry-After` is not
    ///     waited for (the caller passes no retries either).
    ///   - onRetry: told why and when before each retry, for the caller's event.
    package func attempts(
        host: String, allowed: Int, cacheAtHand: Bool, backoff hostBackoff: HostBackoff, now: () -> Date,
        onRetry: (String) -> Void, attempt: () async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        if let until = hostBackoff.blocked(host, at: now()) {
            let wait = Self.duration(from: now(), to: until)
            guard !cacheAtHand, wait <= maxRetryAfter else { throw RateLimitedError(host: host, retryAfter: until) }
            try await sleep(wait)
        }
        var retry = 0
        while true {
            try Task.checkCancellation()
            let delay: Duration
            do {
                let response = try await attempt()
                guard Self.isTransient(status: response.statusCode) else { return response }
                let asked = Self.retryAfter(response, now: now())
                if response.statusCode == 429, let asked {
                    hostBackoff.block(host, until: now().addingTimeInterval(Self.seconds(asked)))
                }
                guard retry < allowed else { return response }
                if let asked {
                    guard asked <= maxRetryAfter else { return response }
                    delay = asked
                } else {
                    delay = backoff(beforeRetry: retry)
                }
                onRetry("status \(response.statusCode), retry \(retry + 1) of \(allowed) in \(Self.seconds(delay))s")
            } catch where retry < allowed && Self.isTransient(error) {
                delay = backoff(beforeRetry: retry)
                onRetry("\(((error as? URLError)?.code ?? .unknown).summary), retry \(retry + 1) of \(allowed) in \(Self.seconds(delay))s")
            }
            try await sleep(delay)
            retry += 1
        }
    }

    /// A duration in seconds.
    package static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The time from `start` to `end`, rounded up to the millisecond; zero when `end` is past.
    package static func duration(from start: Date, to end: Date) -> Duration {
        .milliseconds(max(0, Int((end.timeIntervalSince(start) * 1000).rounded(.up))))
    }
}
