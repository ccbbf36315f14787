/// What a mutation of an endpoint marked `"offline": "queue"` returns: the server's answer
/// when it went through, or the id of the queued mutation when the server could not be
/// reached (it is sent later; `CachedClient.pendingMutations` follows it).
public enum MutationResult<Value: Sendable>: Sendable {
    /// The server accepted it now; its answer.
    case sent(Value)
    /// It waits in the outbox; `id` is its `PendingMutation.id`.
    case queued(id: String)

    /// The answer, when it was sent.
    public var value: Value? {
        if case .sent(let value) = self { return value }
        return nil
    }

    /// The id of the queued mutation, when it was queued.
    public var queuedID: String? {
        if case .queued(let id) = self { return id }
        return nil
    }
}

extension MutationResult: Equatable where Value: Equatable {}
