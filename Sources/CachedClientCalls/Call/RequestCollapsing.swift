import Foundation

/// How a `CachedClient` collapses identical requests across processes through a store that
/// adopts `CacheStoreLeasing` (a store that does not is never asked).
///
/// Before the network fetch of a cached endpoint, the client claims the key in the store:
/// - Claimed: it fetches, returns the answer, and releases the claim once the answer has been
///   written to the store (or at once when the fetch failed).
/// - Held by another process: it waits, every `pollInterval`, reading the store. An entry
///   stored after it started waiting (one that differs from what the store held before its
///   claim) is the answer: decoded, returned as fresh, reported as a `.collapsed` event, and
///   no request is sent. Each time it also tries the claim again, so a holder that released
///   without storing (its fetch failed, or the answer was `no-store`) or whose claim expired
///   lets it fetch by itself.
/// - After `maxWait` it stops waiting and fetches by itself (a `.collapseTimeout` event), so
///   a slow upstream costs extra requests, never a failure. A removal through the store
///   while it waits that may cover the key (`removalCount` moved, and `removals(since:)`
///   names a scope covering it or cannot say) also ends the wait: the holder's answer may be
///   what was removed.
/// - A claim, release or read that throws is an `.error` event and the client fetches by
///   itself; a cancelled caller stops waiting at once.
///
/// Within one process concurrent identical calls share one fetch before any of this, so a
/// process claims a key once however many of its tasks ask.
public struct RequestCollapsing: Sendable {
    /// Whether the client claims keys at all (when its store adopts `CacheStoreLeasing`).
    public var isEnabled: Bool
    /// How long a claim lives if the holder never releases it (its process died); longer
    /// than a slow fetch, short enough that waiting for a dead holder stays bearable.
    public var leaseDuration: TimeInterval
    /// The longest a call waits for another process's answer before fetching by itself,
    /// measured by the client's clock.
    public var maxWait: TimeInterval
    /// The time between two looks at the store while waiting.
    public var pollInterval: TimeInterval
    /// Waits the given number of seconds; injectable so tests move a clock instead of sleeping.
    /// Throws `CancellationError` when the waiting task is cancelled.
    public var sleep: @Sendable (TimeInterval) async throws -> Void

    /// Collapsing with the given timings; the defaults suit an API answering within seconds.
    public init(
        isEnabled: Bool = true, leaseDuration: TimeInterval = 30, maxWait: TimeInterval = 10,
        pollInterval: TimeInterval = 0.05,
        sleep: @escaping @Sendable (TimeInterval) async throws -> Void = RequestCollapsing.taskSleep
    ) {
        self.isEnabled = isEnabled
        self.leaseDuration = leaseDuration
        self.maxWait = maxWait
        self.pollInterval = pollInterval
        self.sleep = sleep
    }

    /// Never claims: every process fetches for itself.
    public static let disabled = RequestCollapsing(isEnabled: false)

    /// `Task.sleep`, the default way to wait.
    @Sendable
    public static func taskSleep(_ seconds: TimeInterval) async throws {
        try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
    }
}
