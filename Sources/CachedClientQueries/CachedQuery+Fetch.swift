#if canImport(Observation)
import Foundation
@_spi(Generated) import CachedClientCalls
@_spi(Generated) import CachedClientValues

// Running fetches and applying their results: only the latest fetch's result is applied,
// and each property is set only when it changes, so observers get one notification per
// change.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension CachedQuery {
    /// Runs a fetch now and applies its result, unless a later fetch started meanwhile.
    /// The fetch runs in a task of the query's own, so that `update(_:)` can cancel it; the
    /// caller's cancellation (a view that went away) cancels it too.
    package func perform(policy: CachePolicy?) async {
        let task = startFetch(policy: policy)
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// Starts a fetch in a task of the query's own (a signal or a polling tick): it holds
    /// the query weakly, and is cancelled if the query goes first or `update(_:)` replaces
    /// the fetch.
    @discardableResult
    package func startFetch(policy: CachePolicy?) -> Task<Void, Never> {
        let number = begin()
        let probe = QueryProbe()
        let fetch = self.fetch
        return lifetime.run { @MainActor [weak self] in
            let result = await Self.run(fetch, policy: policy, probe: probe)
            self?.finish(number, result, probe)
        }
    }

    private func begin() -> Int {
        latestFetch += 1
        if !isLoading { isLoading = true }
        return latestFetch
    }

    /// Calls `fetch` with `probe` as the task's probe, off the main actor.
    nonisolated private static func run(
        _ fetch: @Sendable (CachePolicy?) async throws -> CachedValue<Value>, policy: CachePolicy?, probe: QueryProbe
    ) async -> Result<CachedValue<Value>, any Error> {
        await QueryProbe.$current.withValue(probe) {
            do {
                return .success(try await fetch(policy))
            } catch {
                return .failure(error)
            }
        }
    }

    private func finish(_ number: Int, _ result: Result<CachedValue<Value>, any Error>, _ probe: QueryProbe) {
        guard number == latestFetch else { return }  // A later fetch owns the state.
        let records = probe.records
        // A call that started before a removal covering its key, or (user-scoped) before a
        // switch of user, may have answered with what was just removed or another user's
        // data: that answer is not shown, and the query asks again.
        if let outdated = records.first(where: { !$0.isCurrent }) {
            if outdated.rule.scope == .user, outdated.client.partitionState.switches != outdated.partitionSwitches {
                clear()
            } else {
                showsRemovedValue = true
            }
            setSources([])
            startFetch(policy: nil)
            return
        }
        setSources(records)
        switch result {
        case .success(let answer):
            show(answer)
            // `answer` may be fresh while a call of it fell back (a paged query's pages).
            if let fallback = probe.fallback { startBackgroundRetry(fallback, of: number) }
        case .failure(let failure) where CallFetcher.isCancellation(failure):
            break
        case .failure(let failure):
            error = failure
            if showsRemovedValue {
                clearValue()
            } else {
                applyPendingChanges()  // changes taken out while it ran
            }
        }
        if isLoading { isLoading = false }
    }

    /// After an answer from the cache at a transient failure: tries again in the background,
    /// as often as the endpoint's retry rule allows and spaced by the client's `RetryPolicy`
    /// (its injected sleep), and shows the fresh value when it comes. Each attempt is a
    /// `networkFirst` fetch, so a failure keeps the stored value on screen; it stops at the
    /// first answer that is not such a fallback, when a newer fetch starts, or when the query
    /// goes (its task is cancelled, and it never holds the query while it waits).
    private func startBackgroundRetry(_ fallback: QueryProbe.Fallback, of number: Int) {
        let fetch = self.fetch
        lifetime.run { @MainActor [weak self] in
            for retry in 0..<fallback.retries {
                do { try await fallback.policy.sleep(fallback.delay(beforeRetry: retry)) } catch { return }
                guard self?.latestFetch == number else { return }
                let probe = QueryProbe()
                let result = await Self.run(fetch, policy: .networkFirst, probe: probe)
                guard let self, self.latestFetch == number else { return }
                if case .success = result, probe.fallback != nil { continue }  // Fell back again.
                if case .failure = result { return }  // Not transient: the stored value stays.
                self.finish(number, result, probe)
                return
            }
        }
    }

    /// Shows an answer: a fetched one or one the client stored for another call.
    package func show(_ answer: CachedValue<Value>) {
        loadedValue = answer.value
        applyPendingChanges(newValue: true)
        if isPlaceholder { isPlaceholder = false }
        if date != answer.date { date = answer.date }
        let updated = answer.date ?? now()
        if updatedAt != updated { updatedAt = updated }
        if error != nil { error = nil }
        showsRemovedValue = false
    }

    /// Forgets the value (a sign-out), the error and where they came from.
    package func clear() {
        clearValue()
        if error != nil { error = nil }
        showsRemovedValue = false
    }

    private func clearValue() {
        loadedValue = nil
        if hasPendingChanges { hasPendingChanges = false }
        if isPlaceholder { isPlaceholder = false }
        setValue(nil)
        if date != nil { date = nil }
        if updatedAt != nil { updatedAt = nil }
    }

    /// Takes the calls of the applied fetch as the query's sources, registering with their
    /// clients for the keys that changed.
    package func setSources(_ records: [QueryProbe.Record]) {
        let same =
            records.count == sources.count
            && zip(records, sources).allSatisfy { $0.client === $1.client && $0.key == $1.key }
        sources = records
        if records.count == 1 { seenVersion = records[0].client.queries.version(of: records[0].key) }
        guard !same else { return }
        let handler = Self.handler(for: self)
        lifetime.setRegistrations(
            records.map { record in (record.client.queries, record.client.queries.register(record.key, handler: handler)) })
    }

    /// A registry handler that holds the query weakly. On the main thread (`setPartition`
    /// and the lifecycle signals, as apps call them) the query acts before the call returns,
    /// so no frame shows the old user's data after a sign-out (as does an optimistic update
    /// made on the main actor, which says so through `QueryRegistry.callerIsOnMainActor`);
    /// elsewhere it hops there.
    private static func handler(for query: CachedQuery) -> QueryRegistry.Handler {
        { [weak query] signal in
            if Thread.isMainThread || QueryRegistry.callerIsOnMainActor {
                // Tasks the query starts here must not inherit the caller's word that it runs on
                // the main actor: they may run elsewhere and signal from there.
                QueryRegistry.$callerIsOnMainActor.withValue(false) {
                    MainActor.assumeIsolated { query?.receive(signal) }
                }
            } else {
                Task { @MainActor [weak query] in query?.receive(signal) }
            }
        }
    }
}
#endif
