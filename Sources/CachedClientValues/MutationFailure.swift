import Foundation

/// Why a queued mutation failed for good: the server refused it (a 4xx other than 429; a
/// lost connection, a timeout, a 5xx or a 429 leave it queued instead), or its record could
/// not be read back (a damaged file, an app update that changed the record format).
///
/// Kept with the mutation until the app retries or discards it.
public struct MutationFailure: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The HTTP status the server answered, or `nil` when no answer is involved (an
    /// unreadable record, an error before sending).
    public var status: Int?
    /// What went wrong, safe to show a developer: never a header, a token or a URL.
    public var message: String
    /// The server's answer body, so an app can show the server's own error text; `nil`
    /// without one.
    public var body: Data?

    /// Creates a failure.
    public init(status: Int? = nil, message: String, body: Data? = nil) {
        self.status = status
        self.message = message
        self.body = body
    }

    /// `status 422: …` or the message alone.
    public var description: String {
        status.map { "status \($0): \(message)" } ?? message
    }
}
