import Foundation

/// A call was not sent because its host answered 429 with a `Retry-After` that has not
/// passed yet, and waiting was not an option: a cached value could be shown now, or the
/// wait is longer than the client's `RetryPolicy.maxRetryAfter`.
///
/// Like a transport failure, it lets `networkFirst` answer from the cache.
public struct RateLimitedError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The host that asked to be left alone.
    public var host: String
    /// When it may be asked again.
    public var retryAfter: Date

    /// Creates the error.
    public init(host: String, retryAfter: Date) {
        self.host = host
        self.retryAfter = retryAfter
    }

    /// A sentence a developer can act on.
    public var description: String {
        "\(host) asked to wait (429 Retry-After) until \(HTTPDate.format(retryAfter)); not sent."
    }
}
