#if canImport(Observation)
import Foundation
import Observation
@_spi(Generated) import CachedClientCalls
@_spi(Generated) import CachedClientValues

/// Data a screen watches: the value of a cached call that keeps itself right while the
/// screen holds it, for SwiftUI (`@Observable`) or any code that observes.
///
/// Generated repositories make one per cached endpoint (`repo.getAccountsQuery(page: 1)`);
/// it calls the repository's method, so the same query works over a `Live…` repository, a
/// `Mock…` one in previews, or any async function of yours.
///
/// While someone holds it, a query over a `CachedClient`:
/// - refetches when a removal through that client covers its entries (a mutation's
///   invalidations, `removeAll…`), keeping the old value on screen while it does and
///   dropping it if the refetch fails;
/// - clears itself when the client's partition changes (sign-out) and loads for the new one
///   (user-scoped endpoints only; shared ones stay);
/// - adopts answers the client stores for its key, from any call (one query's refresh
///   updates every query of the key; a `staleWhileRevalidate` background refresh shows up);
/// - on `client.networkBecameAvailable()` and `client.appBecameActive()`, refetches if it is
///   stale or failed, and checks that its entries are still in the store if the store's
///   removal count moved (a removal through another client, the store itself or another
///   process), refetching if they are gone;
/// - refetches on its polling interval (`poll(every:clock:)`).
/// Queries of one key share one network request (the client merges them). A query nobody
/// holds stops: its tasks are cancelled, its timer ends and it leaves the client's registry.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
@Observable
public final class CachedQuery<Value: Sendable> {
    /// The last value loaded; `nil` before the first load, after a sign-out, and after a
    /// removal whose refetch failed. Set only when it changes: for an `Equatable` value, a
    /// refetch that answers with an equal value notifies no observer.
    public internal(set) var value: Value?
    /// Whether `value` is the one of the arguments before the last `update(_:)`, kept on
    /// screen until the new arguments' value arrives (TanStack Query's `keepPreviousData`).
    /// It stays set when that fetch fails (with `error`), and clears with the new value.
    public internal(set) var isPlaceholder = false
    /// When the value was stored, if it came from the cache; `nil` when it came fresh from
    /// the network (as `CachedValue.date`).
    public internal(set) var date: Date?
    /// When the value was current: `date` for a stored value, the arrival for a fresh one.
    /// What an age banner shows ("Updated 5 min ago").
    public internal(set) var updatedAt: Date?
    /// Whether a fetch runs now.
    public internal(set) var isLoading = false
    /// The last fetch's error, if it failed; cleared by the next success. Cancellation is
    /// never an error here (a view that went away).
    public internal(set) var error: (any Error)?
    /// The polling interval set with `poll(every:clock:)`, or `nil`.
    public internal(set) var pollingInterval: Duration?
    /// Whether `value` shows optimistic changes of mutations that have not gone through yet
    /// (`CachedClient.withOptimisticUpdates(_:_:)`): a screen may mark them as pending. It
    /// clears when the server's answer replaces them, or when they are rolled back.
    public internal(set) var hasPendingChanges = false

    /// Whether the value is no longer fresh by the rule its calls follow (the endpoint's ttl,
    /// or under `ttl: "server"` the server's `Cache-Control`, `Expires` and `Age`), by the
    /// client's clock (its injected `now`): exactly when a `cacheFirst` call would ask the
    /// network. `false` without a value or over no cached call (a mock).
    ///
    /// Read it where it is shown: it depends on the time, which notifies no observer.
    public var isStale: Bool {
        guard let updatedAt, !sources.isEmpty else { return false }
        let time = now()
        return sources.contains { !$0.rule.isFresh(storedAt: updatedAt, server: $0.freshness, at: time) }
    }

    /// The value as loaded, before optimistic changes; `value` is it with them applied.
    @ObservationIgnored package var loadedValue: Value?
    /// What a fetch runs: the repository call, with a policy (`nil`: the endpoint's own);
    /// replaced by `update(_:)`.
    @ObservationIgnored package var fetch: @Sendable (CachePolicy?) async throws -> CachedValue<Value>
    /// Whether two values are equal, when `Value` is `Equatable`; worked out once per query.
    @ObservationIgnored package let sameValue: (@Sendable (Value, Value) -> Bool)?
    /// The derived queries (`select(_:)`) told of each new value; each says whether it is
    /// still there.
    @ObservationIgnored package var selections: [@MainActor (Value?) -> Bool] = []
    /// The cached calls the last applied fetch made; where signals come from.
    @ObservationIgnored package var sources: [QueryProbe.Record] = []
    /// The number of the latest fetch started; only its result is applied.
    @ObservationIgnored package var latestFetch = 0
    /// The newest stored answer seen for the (single) source's key.
    @ObservationIgnored package var seenVersion: UInt64 = 0
    /// Set when the shown value's entries were removed; a failed refetch then drops it.
    @ObservationIgnored package var showsRemovedValue = false
    /// Tasks, timer and registrations; cancelled and removed when the query goes.
    @ObservationIgnored package let lifetime = QueryLifetime()

    /// Creates a query over `fetch`, which gets the policy to use (`nil` for the endpoint's
    /// own, `.networkFirst` for `refresh()`). Nothing runs until `load()`.
    ///
    /// Generated repositories call this with their own method; a query over a function of
    /// yours that makes cached calls through a `CachedClient` is live in the same way.
    nonisolated public init(_ fetch: @escaping @Sendable (CachePolicy?) async throws -> CachedValue<Value>) {
        self.fetch = fetch
        self.sameValue = ValueEquality.comparison(for: Value.self)
    }

    /// A query whose values are compared with `sameValue` (`nil`: every value notifies); for
    /// a query whose observers read more than its value (`CachedPagedQuery.hasMore`).
    nonisolated package init(
        sameValue: (@Sendable (Value, Value) -> Bool)?,
        _ fetch: @escaping @Sendable (CachePolicy?) async throws -> CachedValue<Value>
    ) {
        self.fetch = fetch
        self.sameValue = sameValue
    }

    /// Loads with the endpoint's policy and returns when the value (or error) is in place;
    /// for `.task { await query.load() }`.
    public func load() async {
        await perform(policy: nil)
    }

    /// Fetches from the network first (falling back to a stored value offline, as
    /// `networkFirst` does); for pull to refresh.
    public func refresh() async {
        await perform(policy: .networkFirst)
    }

    /// Refetches (network first) every `interval` of `clock` while the query is held,
    /// replacing an earlier interval; a tick while a fetch runs is skipped.
    public func poll(every interval: Duration, clock: some Clock<Duration> = ContinuousClock()) {
        pollingInterval = interval
        lifetime.setPoller(
            Task { [weak self] in
                while true {
                    do { try await clock.sleep(for: interval) } catch { return }
                    guard let self else { return }
                    if !self.isLoading { self.startFetch(policy: .networkFirst) }
                }
            })
    }

    /// Stops polling.
    public func stopPolling() {
        pollingInterval = nil
        lifetime.setPoller(nil)
    }

    /// The client's clock, or the system's for a query over no client.
    package var now: @Sendable () -> Date {
        guard let client = sources.first?.client else { return { Date() } }
        return client.now
    }
}
#endif
