/// How often one endpoint's request may be sent again after a transient failure, as its
/// spec says (`"retry": {"max": 2}` or `"retry": false`).
///
/// An endpoint whose spec says nothing has no rule: GET requests then follow the client's
/// `RetryPolicy`, every other method is never sent twice, because a repeated POST may
/// act twice.
@_spi(Generated)
public struct RetryRule: Sendable, Hashable {
    /// Retries after the first attempt; 0 sends the request once.
    public var maxRetries: Int

    /// Creates a rule allowing `max` retries after the first attempt (at least 0).
    public init(max: Int) {
        self.maxRetries = Swift.max(0, max)
    }

    /// Never retried (`"retry": false`).
    public static let never = RetryRule(max: 0)
}
