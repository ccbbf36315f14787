@_spi(Generated) import CachedClientValues
import Foundation

/// One mutation waiting in an outbox (see `MutationOutbox`): everything needed to send it
/// again after a relaunch, and nothing secret.
///
/// It holds the method, the resolved path, the query, the headers the endpoint declares
/// (never `Authorization`, `Proxy-Authorization` or `Cookie`: the client's `headers`
/// provider adds credentials when it is sent), the encoded body with its content type, the
/// idempotency key sent on every attempt, and the invalidations to apply once it went
/// through. Stores keep it as they keep an entry's body; it is `Codable` so that a store
/// can write it as JSON.
public struct QueuedMutation: Sendable, Hashable, Codable {
    /// One name and value of the query or of the declared headers, not percent-encoded.
    public struct Parameter: Sendable, Hashable, Codable {
        /// The wire name.
        public var name: String
        /// The value as sent, not percent-encoded.
        public var value: String

        /// Creates a parameter.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Entries removed once the mutation went through: every entry of `endpoint`, or
    /// only those of `path`.
    public struct Invalidated: Sendable, Hashable, Codable {
        /// `Repository.method` of the endpoint whose entries go.
        public var endpoint: String
        /// The resolved path whose entries go, or `nil` for all of the endpoint's.
        public var path: String?

        /// Creates an invalidation record.
        public init(endpoint: String, path: String?) {
            self.endpoint = endpoint
            self.path = path
        }
    }

    /// Identifies the mutation for the app (`MutationResult.queued`, `PendingMutation.id`);
    /// a UUID, so it is safe in a file name.
    public var id: String
    /// The mutation's place in its partition's outbox, chosen by the outbox when it is
    /// enqueued: later mutations have larger numbers.
    public var sequence: UInt64
    /// The partition (signed-in user) it was made under; `nil` when signed out. Sent only
    /// while the client is in this partition, and removed with the partition.
    public var partition: String?
    /// Mutations of one scope are sent one at a time, in `sequence` order (by default
    /// the endpoint's resolved path).
    public var scope: String
    /// `Repository.method` of the endpoint.
    public var endpoint: String
    /// The HTTP method, upper case.
    public var method: String
    /// The resolved, percent-encoded path.
    public var path: String
    /// The query items, in order.
    public var query: [Parameter]
    /// The headers the endpoint declares, in order; never credentials.
    public var headers: [Parameter]
    /// The encoded body, or `nil` without one.
    public var body: Data?
    /// The body's `Content-Type`, or `nil` without a body.
    public var contentType: String?
    /// The header field the idempotency key is sent in (`Idempotency-Key` by default).
    public var idempotencyHeader: String
    /// The key, the same on every attempt and across relaunches.
    public var idempotencyKey: String
    /// Retries per attempt round, as the endpoint's spec says; `nil` for the client's policy.
    public var maxRetries: Int?
    /// What the mutation invalidates once it went through.
    public var invalidations: [Invalidated]
    /// When it was made, by the client's clock.
    public var createdAt: Date
    /// Attempts so far that did not reach a final answer.
    public var attempts: Int
    /// Set when it failed for good; such a mutation is not sent again until retried.
    public var failure: MutationFailure?
    /// The endpoint's own server (`Endpoint.server`), which it is sent to instead of the
    /// client's base URL; `nil` for the client's own. Absent from records written before it.
    public var server: String?

    /// Creates a record; the client makes these, and a store reading back a damaged one
    /// makes a placeholder (see `unreadable(id:sequence:partition:reason:)`).
    public init(
        id: String, sequence: UInt64 = 0, partition: String?, scope: String, endpoint: String, method: String,
        path: String, query: [Parameter] = [], headers: [Parameter] = [], body: Data? = nil, contentType: String? = nil,
        idempotencyHeader: String = "Idempotency-Key", idempotencyKey: String, maxRetries: Int? = nil,
        invalidations: [Invalidated] = [], createdAt: Date, attempts: Int = 0, failure: MutationFailure? = nil,
        server: String? = nil
    ) {
        self.id = id
        self.sequence = sequence
        self.partition = partition
        self.scope = scope
        self.endpoint = endpoint
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.contentType = contentType
        self.idempotencyHeader = idempotencyHeader
        self.idempotencyKey = idempotencyKey
        self.maxRetries = maxRetries
        self.invalidations = invalidations
        self.createdAt = createdAt
        self.attempts = attempts
        self.failure = failure
        self.server = server
    }

    /// A stand-in for a record a store could not read back (damaged, truncated, of a
    /// format this version does not know): failed, never sent, and discardable by `id`.
    public static func unreadable(id: String, sequence: UInt64, partition: String?, reason: String) -> QueuedMutation {
        QueuedMutation(
            id: id, sequence: sequence, partition: partition, scope: "", endpoint: "", method: "", path: "",
            idempotencyKey: "", createdAt: Date(timeIntervalSince1970: 0),
            failure: MutationFailure(message: "unreadable queued mutation: \(reason)"))
    }

    /// Header names never written to an outbox, whatever an endpoint declares.
    package static let secretHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie"]
}
