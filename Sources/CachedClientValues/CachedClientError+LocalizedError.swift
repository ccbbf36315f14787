import Foundation

/// `error.localizedDescription` says what happened and what to do about it, in the same voice
/// as `description`, so a log line or a debug alert is enough to act on.
extension CachedClientError: LocalizedError {
    /// What happened, then what to do (`recoverySuggestion` on its own).
    public var errorDescription: String? {
        switch self {
        case .notCached, .invalidURL: description
        default: "\(description) \(recoverySuggestion ?? "")"
        }
    }

    /// The next step for a developer.
    public var recoverySuggestion: String? {
        switch self {
        case .notCached:
            "Call with a network policy (such as networkFirst) first, or show an empty state."
        case .httpStatus(let status, _, _) where (400..<500).contains(status):
            "Check the request's parameters and credentials; a 4xx never falls back to the cache."
        case .httpStatus:
            "The server failed and nothing was stored within maxStale; try again later."
        case .decodingFailed where bodyIsNotJSON:
            "Check the client's baseURL, and whether a proxy, a captive portal or an error page answered in the API's place (or the server cut its body short)."
        case .decodingFailed:
            "Make the spec's response type match what the server sends (an optional for a key it may leave out) and regenerate."
        case .encodingFailed:
            "Check the body's values: a Double that is NaN or infinite has no JSON form."
        case .invalidURL:
            "Check the client's baseURL and the path parameters."
        }
    }
}
