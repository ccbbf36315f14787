import CacheGenReading

/// An endpoint's `"offline": "queue"` (or `{"mode": "queue", "scope": …}`): a mutation that
/// cannot reach the server waits in the client's outbox and is sent later with an idempotency
/// key (the runtime's `OfflineRule`).
public struct SpecOffline: Sendable, Hashable {
    /// The header field the idempotency key is sent in (`defaults.idempotencyHeader`).
    public var idempotencyHeader: String
    /// The queue the endpoint's mutations share, sent one at a time in order; `nil` for the
    /// resolved path of each call.
    public var scope: String? = nil
    /// Where `"offline"` is written.
    public var location: SourceLocation
}
