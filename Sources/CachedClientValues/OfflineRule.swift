/// How an endpoint's mutations wait for the network (the spec's `"offline": "queue"`): a
/// call that cannot reach the server (no connection, a timeout, a 5xx, a 429) is kept in the
/// store's outbox and sent later, in order, with the same idempotency key on every attempt.
public struct OfflineRule: Sendable, Hashable {
    /// The header field the idempotency key is sent in; `Idempotency-Key` unless the spec
    /// says otherwise.
    public var idempotencyHeader: String
    /// The name of the queue the endpoint's mutations share, sent one at a time in order;
    /// `nil` for the resolved path of each call (edits of one item keep their order, edits
    /// of different items do not wait for each other).
    public var scope: String?

    /// Creates a rule.
    public init(idempotencyHeader: String = "Idempotency-Key", scope: String? = nil) {
        self.idempotencyHeader = idempotencyHeader
        self.scope = scope
    }

    /// Queued, with an `Idempotency-Key` and the path as the scope.
    public static let queue = OfflineRule()
}
