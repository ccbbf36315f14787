import Foundation

/// Why a `PrefetchCall` could not be made from a closure.
public enum PrefetchCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The closure made no call through a `CachedClient` (a mock, or no call at all).
    case noCall
    /// The closure's call is of an endpoint that is never cached, so fetching it ahead would
    /// keep nothing; a mutation is never sent to find this out.
    case notCached(endpoint: String)

    /// Says what to change.
    public var description: String {
        switch self {
        case .noCall: "the closure made no call through a CachedClient: pass a live repository's method"
        case .notCached(let endpoint): "\(endpoint) is never cached, so it cannot be fetched ahead"
        }
    }
}
