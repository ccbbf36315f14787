import Foundation

/// Why a call to a generated method failed when no cached value could stand in.
///
/// Transport failures (offline, timeout, refused) are rethrown as the transport threw
/// them, such as `URLError`, so existing error handling keeps working.
public enum CachedClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `cacheOnly` found no entry younger than `maxStale`.
    case notCached(endpoint: String)
    /// The server answered with a status outside 200–299 (a 4xx, or a 5xx with no entry to fall back on).
    case httpStatus(Int, endpoint: String, body: Data)
    /// The server's 2xx body does not match the spec's response type.
    case decodingFailed(endpoint: String, reason: String)
    /// The request body could not be encoded as JSON.
    case encodingFailed(endpoint: String, reason: String)
    /// The base URL and path do not form a valid URL.
    case invalidURL(String)

    /// A sentence a developer can act on.
    public var description: String {
        switch self {
        case .notCached(let endpoint):
            "\(endpoint): nothing cached yet; call with a network policy first."
        case .httpStatus(let status, let endpoint, _):
            "\(endpoint): the server answered with status \(status)."
        case .decodingFailed(let endpoint, let reason):
            "\(endpoint): the response does not match the spec's type: \(reason)"
        case .encodingFailed(let endpoint, let reason):
            "\(endpoint): the request body could not be encoded: \(reason)"
        case .invalidURL(let text):
            "\(text) is not a valid URL; check the client's baseURL."
        }
    }
}
