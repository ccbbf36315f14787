/// A mutation of an endpoint marked `"offline": "queue"` was neither queued nor sent: the
/// store's outbox could not keep it (a full disk, an I/O error, a read-only folder) and the
/// server could not be reached. Nothing of it is kept anywhere, so the app still holds the
/// only copy: keep what the user entered and try again.
///
/// When the outbox fails but the server answers, the mutation is sent as usual and the call
/// returns `.sent`; a call never returns `.queued` for a mutation the outbox did not keep.
public struct MutationNotQueuedError: Error, Sendable, CustomStringConvertible {
    /// `Repository.method` of the mutation.
    public var endpoint: String
    /// Why the outbox could not keep it (the store's error, safe to log).
    public var outboxFailure: String
    /// Why it could not be sent (safe to log: no URL, no value).
    public var sendFailure: String

    /// Creates the error; the client makes these.
    public init(endpoint: String, outboxFailure: String, sendFailure: String) {
        self.endpoint = endpoint
        self.outboxFailure = outboxFailure
        self.sendFailure = sendFailure
    }

    /// What happened and what to do, in one sentence a log line or an alert can show.
    public var description: String {
        "\(endpoint): the mutation was neither queued nor sent, so nothing of it is kept: the outbox could not keep it "
            + "(\(outboxFailure)) and the server could not be reached (\(sendFailure)). Keep the user's change and try again."
    }
}
