import Foundation

/// One mutation in the outbox, as an app shows it ("3 changes waiting"): never its body or
/// headers, which stay in the store.
public struct PendingMutation: Sendable, Hashable, Identifiable {
    /// Where a mutation is.
    public enum State: Sendable, Hashable {
        /// Waiting for the network (or for the mutations of its scope before it).
        case queued
        /// Being sent now.
        case sending
        /// Refused for good (a 4xx other than 429), or unreadable; not sent again until
        /// `CachedClient.retryMutation(id:)`, gone with `discardMutation(id:)`.
        case failed(MutationFailure)
    }

    /// The id `MutationResult.queued` returned.
    public var id: String
    /// `Repository.method` of the endpoint.
    public var endpoint: String
    /// When it was made, by the client's clock.
    public var createdAt: Date
    /// Attempts so far that did not reach a final answer.
    public var attempts: Int
    /// Where it is.
    public var state: State

    /// Creates a pending mutation; the client makes these from its outbox.
    public init(id: String, endpoint: String, createdAt: Date, attempts: Int, state: State) {
        self.id = id
        self.endpoint = endpoint
        self.createdAt = createdAt
        self.attempts = attempts
        self.state = state
    }

    /// Whether it failed for good.
    public var isFailed: Bool {
        if case .failed = state { return true }
        return false
    }
}
