import Foundation

/// When a client sends the mutations waiting in its outbox (endpoints marked
/// `"offline": "queue"`): on `networkBecameAvailable()`, on `replayPendingMutations()`, at
/// launch (when the client is made) and every `interval` while any wait.
public struct OfflineReplay: Sendable {
    /// The time between two replays while mutations wait.
    public var interval: Duration
    /// Whether the client replays its partition's outbox when it is made (at launch).
    public var replaysAtLaunch: Bool
    /// Waits for `interval`, throwing when cancelled; the injected clock's sleep.
    public var sleep: @Sendable (Duration) async throws -> Void

    /// Creates a schedule; `clock` is injectable so tests move time by hand.
    public init(
        interval: Duration = .seconds(30), replaysAtLaunch: Bool = true, clock: some Clock<Duration> = ContinuousClock()
    ) {
        self.interval = interval
        self.replaysAtLaunch = replaysAtLaunch
        self.sleep = { try await clock.sleep(for: $0) }
    }

    /// Every 30 seconds while mutations wait, and at launch.
    public static let standard = OfflineReplay()
}
