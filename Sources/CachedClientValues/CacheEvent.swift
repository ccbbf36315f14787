import Foundation

/// Something the cache did, for an app's logger or metrics.
///
/// Events never carry parameter values, bodies or headers: only the endpoint name, the
/// key digest and an age, so they are safe to log.
public struct CacheEvent: Sendable, Equatable, CustomStringConvertible {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A stored entry was used without the network.
        case hit
        /// No usable entry was found.
        case miss
        /// An entry was used although older than its ttl.
        case stale
        /// The network failed and a stored entry stood in.
        case fallback
        /// A fresh answer was stored.
        case store
        /// An entry was removed for age, size or because it was unreadable.
        case evict
        /// The server confirmed a stored entry unchanged (304).
        case revalidated
        /// The cache failed (read, write or decode); the call went on without it.
        case error
        /// The answer came from another process's request for the same key, through a store
        /// that adopts `CacheStoreLeasing`: this call waited for it and sent none.
        case collapsed
        /// A call stopped waiting for another process's request for the same key after
        /// `RequestCollapsing.maxWait` and sent its own.
        case collapseTimeout
        /// A transient failure (lost connection, timeout, 502/503/504, 429) is sent again
        /// after a wait; the message says why, which retry and how long the wait.
        case retry
        /// A mutation of an endpoint marked `"offline": "queue"` waits in the outbox (it could
        /// not reach the server, or mutations of its scope wait before it); `key` is its id.
        case mutationQueued
        /// A queued mutation is being sent; `key` is its id.
        case mutationSending
        /// A queued mutation went through and left the outbox; `key` is its id.
        case mutationSent
        /// A queued mutation was refused for good (a 4xx other than 429) or is unreadable; the
        /// message says why. `key` is its id.
        case mutationFailed
        /// The app discarded a queued mutation, or sign-out removed it; `key` is its id.
        case mutationDiscarded
    }

    /// What happened.
    public var kind: Kind
    /// `Repository.method` of the call.
    public var endpoint: String
    /// The first 16 hex digits of the key digest; for the `mutation…` kinds, the mutation's id.
    public var key: String
    /// The entry's age in seconds, when an entry was involved.
    public var age: Double?
    /// What went wrong, for `.error` and `.evict`.
    public var message: String?

    /// Creates an event.
    public init(kind: Kind, endpoint: String, key: String, age: Double? = nil, message: String? = nil) {
        self.kind = kind
        self.endpoint = endpoint
        self.key = key
        self.age = age
        self.message = message
    }

    /// One line for a log: `hit AccountRepository.getAccounts key=… age=12s`; `age=?` for an
    /// age no `Int` holds (NaN, infinite, or a stored date a damaged record made up).
    public var description: String {
        var text = "\(kind.rawValue) \(endpoint) key=\(key)"
        if let age { text += " age=" + (Int(exactly: age.rounded(.towardZero)).map { "\($0)s" } ?? "?") }
        if let message { text += " \(message)" }
        return text
    }
}
