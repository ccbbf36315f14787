@_spi(Generated) import CachedClientValues
import Foundation

/// How a client retries transient failures: how many times, how long it waits between
/// attempts, and how long it honours a server's `Retry-After`.
///
/// Transient means: no response arrived because the connection was lost, refused or timed
/// out (`URLError` `.networkConnectionLost`, `.timedOut`, `.cannotConnectToHost`,
/// `.notConnectedToInternet`, `.dnsLookupFailed`), or the server answered 502, 503, 504 or
/// 429. Anything else (a 4xx, a 500, an undecodable body) is final at once.
///
/// Waits use exponential backoff with full jitter: before retry *n* (from 0) the client
/// waits a random time between 0 and `min(maxDelay, baseDelay × 2ⁿ)`. A `Retry-After`
/// (seconds or an HTTP date) replaces that wait when it is at most `maxRetryAfter`; a longer
/// one ends the retries, since coming back earlier than asked only adds to the storm.
///
/// Only GET requests follow `maxRetries` unless their endpoint's spec says otherwise
/// (`"retry": {"max": 2}` on a POST opts it in; `"retry": false` opts a GET out).
/// A retry never makes a caller wait for what the cache could show now: when a
/// `networkFirst` call has a stored value it may show, it answers from it at the first
/// transient failure. Every wait ends at once when the calling task is cancelled.
public struct RetryPolicy: Sendable {
    /// Retries after the first attempt for GET endpoints without a rule of their own.
    public var maxRetries: Int
    /// The wait before the first retry, doubled for each further one (before jitter).
    public var baseDelay: Duration
    /// The longest wait between two attempts (before jitter).
    public var maxDelay: Duration
    /// The longest `Retry-After` honoured; a host that asks for longer is not retried.
    public var maxRetryAfter: Duration
    /// Waits the given time, throwing `CancellationError` when the task is cancelled;
    /// injectable so tests never sleep.
    public var sleep: @Sendable (Duration) async throws -> Void
    /// A random number in `0...1` for the jitter; injectable so tests are repeatable.
    public var random: @Sendable () -> Double
    /// How many times in a row an event stream is connected again without a new event in
    /// between (after the server's `retry` or `baseDelay`, through `sleep`): a Server-Sent
    /// Events stream whose server sent event IDs when its connection is lost mid-stream
    /// (resumed with `Last-Event-ID`), and a long-lived channel (`"channel": true`) when its
    /// response ends or its connection is lost. A stream whose response ends is not resumed.
    public var maxReconnects: Int

    /// Creates a policy; the defaults retry a GET twice, waiting up to 0.5 s and 1 s, and
    /// honour a `Retry-After` of up to a minute.
    public init(
        maxRetries: Int = 2,
        baseDelay: Duration = .milliseconds(500),
        maxDelay: Duration = .seconds(10),
        maxRetryAfter: Duration = .seconds(60),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) },
        maxReconnects: Int = 5
    ) {
        self.maxRetries = max(0, maxRetries)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
        self.sleep = sleep
        self.random = random
        self.maxReconnects = max(0, maxReconnects)
    }

    /// The standard policy (`RetryPolicy()`).
    public static let standard = RetryPolicy()

    /// No retries at all, whatever the endpoints' specs say, and no resumed event streams.
    public static let none = RetryPolicy(maxRetries: 0, maxReconnects: 0)

    /// How many retries a request of `method` for an endpoint with `rule` may have.
    package func allowedRetries(method: String, rule: RetryRule?) -> Int {
        if let rule { return rule.maxRetries }
        return method == "GET" ? maxRetries : 0
    }

    /// The jittered exponential wait before retry `retry` (0 for the first retry).
    package func backoff(beforeRetry retry: Int) -> Duration {
        var ceiling = baseDelay
        for _ in 0..<min(retry, 62) where ceiling < maxDelay { ceiling = ceiling * 2 }
        ceiling = min(ceiling, maxDelay)
        let fraction = min(1, max(0, random()))
        return ceiling * fraction
    }

    /// Whether a failure without a response is worth another attempt.
    package static func isTransient(_ error: any Error) -> Bool {
        guard let error = error as? URLError else { return false }
        switch error.code {
        case .networkConnectionLost, .timedOut, .cannotConnectToHost, .notConnectedToInternet, .dnsLookupFailed:
            return true
        default:
            return false
        }
    }

    /// Whether a status is worth another attempt: 429, 502, 503, 504.
    package static func isTransient(status: Int) -> Bool {
        status == 429 || status == 502 || status == 503 || status == 504
    }

    /// How long `response` asks to wait (`Retry-After` in seconds or as an HTTP date), if it says.
    package static func retryAfter(_ response: HTTPResponse, now: Date) -> Duration? {
        guard let text = response.header("Retry-After")?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
            return nil
        }
        if let seconds = Int(text) { return .seconds(max(0, seconds)) }
        guard let date = HTTPDate.parse(text, now: now) else { return nil }
        return .milliseconds(max(0, Int((date.timeIntervalSince(now) * 1000).rounded(.up))))
    }
}
