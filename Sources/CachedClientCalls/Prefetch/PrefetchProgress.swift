import Foundation

/// How far a prefetch is (`PrefetchJob`): calls done of all, bytes stored, failures.
public struct PrefetchProgress: Sendable, Hashable {
    /// Where a prefetch is.
    public enum State: Sendable, Hashable {
        /// Calls are being fetched.
        case running
        /// Every call was tried: `completed` of `total` done, `failed` to try again later.
        case finished
        /// Cancelled, interrupted (the app quit, the user signed out) or not running: what is
        /// done stays pinned, and `CachedClient.resumePrefetch(named:)` fetches the rest.
        case stopped
    }

    /// The plan's name.
    public var name: String
    /// Calls done (their entries stored and pinned), earlier launches' included.
    public var completed: Int
    /// Calls in the plan.
    public var total: Int
    /// Calls that failed in this run (offline, a 4xx, an answer marked `no-store`); tried
    /// again by a resume.
    public var failed: Int
    /// Body bytes stored by the calls done.
    public var bytes: Int
    /// Running, finished or stopped.
    public var state: State

    /// Creates a progress value.
    public init(name: String, completed: Int, total: Int, failed: Int = 0, bytes: Int = 0, state: State) {
        self.name = name
        self.completed = completed
        self.total = total
        self.failed = failed
        self.bytes = bytes
        self.state = state
    }

    /// `completed / total`, 1 for an empty plan: for a progress bar.
    public var fractionCompleted: Double {
        total == 0 ? 1 : Double(completed) / Double(total)
    }
}
