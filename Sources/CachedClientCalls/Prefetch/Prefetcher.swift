import CachedClientHTTP
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues
import Foundation

// "Available offline": an app names a set of calls (a list's pages, each item's detail,
// files), the client fetches them with progress, and the store keeps what they stored
// (pins it) against eviction and age limits until the app unpins the name. The plan is
// stored in the signed-in user's partition (`CachePinning`), with the calls done so far, so
// that a later launch resumes it, and sign-out removes it with the partition.
//
// A call is fetched as `networkOnly` would: a fresh answer replaces the entry (which stays
// pinned, since pins are keys). It is written to the store behind the job, as every answer
// is, and the job waits for those writes before it ends.

/// The work of "available offline" (`CachedClient.prefetch(named:_:maxConcurrentCalls:)` and
/// the other forwarders in `CachedClient+Housekeeping.swift`), made per use over `client`.
package struct Prefetcher: Sendable {
    /// The client whose calls are fetched ahead, and whose `PrefetchRegistry` holds the jobs.
    package let client: CachedClient

    /// A prefetcher over `client`.
    package init(client: CachedClient) {
        self.client = client
    }

    /// Fetches `calls` ahead and keeps their entries until `unpin(named:)`: for "available
    /// offline" before a trip. Returns at once; the job reports its progress and can be cancelled.
    ///
    /// The plan is kept in the store (in the signed-in user's partition, removed on sign-out)
    /// with what is done, so that a relaunch resumes it (`resumePrefetch(named:)`, or this
    /// method with the same calls: calls already done are not fetched again). A plan of the
    /// same name is replaced: entries only it pinned are no longer pinned. A call that fails
    /// (offline, a 4xx) is counted in `failed` and tried again by a resume.
    ///
    /// - Parameters:
    ///   - name: the app's name for the set ("trip-2026-12"); one plan per name and user.
    ///   - calls: the calls, made from a live repository's methods (`PrefetchCall`).
    ///   - maxConcurrentCalls: how many requests are in flight at once.
    @discardableResult
    package func prefetch(named name: String, _ calls: [PrefetchCall], maxConcurrentCalls: Int = 4) -> PrefetchJob {
        let state = client.partitionState
        let job = PrefetchJob(name: name, total: calls.count)
        let replaced = client.prefetches.replace(with: job, partition: state.partition)
        replaced?.cancel()
        job.start(Task { [self] in
            if let replaced { await replaced.result() }
            await runPrefetch(job, calls: calls, state: state, width: max(1, maxConcurrentCalls))
            client.prefetches.remove(job, partition: state.partition)
        })
        return job
    }

    /// Resumes the stored plan `name` of the signed-in user (at a later launch, or after a
    /// cancellation): only calls not done yet are fetched. Returns the running job if there
    /// is one, and `nil` when no plan has that name.
    package func resumePrefetch(named name: String, maxConcurrentCalls: Int = 4) async throws -> PrefetchJob? {
        let partition = client.partition
        if let running = client.prefetches.job(named: name, partition: partition) { return running }
        guard let plan = try await pinning.prefetchPlan(named: name, partition: partition) else { return nil }
        return prefetch(named: name, plan.calls.compactMap { PrefetchCall(encoded: $0.request) }, maxConcurrentCalls: maxConcurrentCalls)
    }

    /// The signed-in user's plans, with how far each got (`.running` for a job running now,
    /// else `.finished` when every call is done and `.stopped` when some are not).
    package func prefetchPlans() async throws -> [PrefetchProgress] {
        let partition = client.partition
        return try await pinning.prefetchPlans().filter { $0.partition == partition }.map { plan in
            if let running = client.prefetches.job(named: plan.name, partition: partition) { return running.progress }
            let done = plan.calls.filter(\.isDone)
            return PrefetchProgress(
                name: plan.name, completed: done.count, total: plan.calls.count, bytes: done.reduce(0) { $0.addingClamped($1.bytes) },
                state: done.count == plan.calls.count ? .finished : .stopped)
        }
    }

    /// Lets the entries of the plan `name` go: a running job stops, the plan is removed, and
    /// its entries stay as any entry, for eviction and age limits to take. Nothing when no
    /// plan has that name.
    package func unpin(named name: String) async throws {
        let partition = client.partition
        if let running = client.prefetches.job(named: name, partition: partition) {
            running.cancel()
            await running.result()
        }
        try await pinning.removePrefetchPlan(named: name, partition: partition)
    }

    /// Where plans are kept: the store when it adopts `CachePinning`, else the client's memory.
    package var pinning: any CachePinning {
        (client.store as? any CachePinning) ?? client.prefetches.privatePlans
    }

    /// Runs a job: merges the stored plan's done calls, fetches the rest `width` at a time,
    /// saves what is done every `PrefetchRegistry.saveEvery` calls and at the end.
    private func runPrefetch(_ job: PrefetchJob, calls: [PrefetchCall], state: PartitionState, width: Int) async {
        let partition = state.partition
        let removals = client.store.removalCount
        let stored: PrefetchPlan?
        do {
            stored = try await pinning.prefetchPlan(named: job.name, partition: partition)
        } catch {
            reportPrefetch(job, "prefetch plan read failed: \(client.callEvents.safeDescription(of: error))")
            stored = nil
        }
        var done: [Data: PrefetchPlan.Call] = [:]
        for call in stored?.calls ?? [] where call.isDone { done[call.request] = call }
        // Every call's key is in the plan before the first is sent: an answer is pinned
        // before it lands, so no sweep takes it in between.
        var plan = PrefetchPlan(
            name: job.name, partition: partition,
            calls: calls.map { done[$0.encoded] ?? PrefetchPlan.Call(request: $0.encoded, key: pinnedKey(of: $0)) },
            createdAt: stored?.createdAt ?? client.now())
        let completedBefore = plan.calls.filter(\.isDone)
        job.update {
            $0.completed = completedBefore.count
            // The plan's counts were read back from the store, which may say anything.
            $0.bytes = completedBefore.reduce(0) { $0.addingClamped($1.bytes) }
        }
        var unsaved = true
        if !isInterrupted(job, state, since: removals) { unsaved = await !savePlan(plan, job) }
        let pending = plan.calls.indices.filter { !plan.calls[$0].isDone }
        var sinceSave = 0
        await withTaskGroup(of: (Int, PrefetchPlan.Call?).self) { group in
            var next = pending.makeIterator()
            func startNext() -> Bool {
                guard let index = next.next() else { return false }
                let call = calls[index]
                group.addTask { [self] in (index, await fetchAhead(call, job: job)) }
                return true
            }
            for _ in 0..<width where !isInterrupted(job, state, since: removals) {
                guard startNext() else { break }
            }
            for await (index, result) in group {
                if let result {
                    plan.calls[index] = result
                    job.update {
                        $0.completed += 1
                        $0.bytes = $0.bytes.addingClamped(result.bytes)
                    }
                    sinceSave += 1
                    unsaved = true
                } else if !Task.isCancelled {
                    job.update { $0.failed += 1 }
                }
                if isInterrupted(job, state, since: removals) {
                    group.cancelAll()
                    continue
                }
                if sinceSave >= PrefetchRegistry.saveEvery {
                    await client.flush()
                    if !isInterrupted(job, state, since: removals), await savePlan(plan, job) { unsaved = false }
                    sinceSave = 0
                }
                _ = startNext()
            }
        }
        // The entries land before the plan that pins them is saved as done.
        await client.flush()
        if unsaved, !isRemoved(partition, since: removals), client.partitionState.switches == state.switches {
            _ = await savePlan(plan, job)
        }
        let finished = !isInterrupted(job, state, since: removals)
        job.update { $0.state = finished ? .finished : .stopped }
    }

    /// Fetches one call fresh and writes its answer to the store; the plan's record of it
    /// done, or `nil` when it failed or was cancelled.
    private func fetchAhead(_ prefetch: PrefetchCall, job: PrefetchJob) async -> PrefetchPlan.Call? {
        guard let endpoint = prefetch.parts.endpointValue, let rule = endpoint.cache else {
            reportPrefetch(job, "a stored call of an unknown kind is skipped")
            return nil
        }
        do {
            let call = try client.makeCall(prefetch.parts.request, endpoint: endpoint, rule: rule)
            let requestTime = client.now()
            let response = try await client.fetcher.send(call, validators: nil)
            let responseTime = client.now()
            guard (200..<300).contains(response.statusCode) else {
                throw CachedClientError.httpStatus(response.statusCode, endpoint: endpoint.name, body: response.body)
            }
            let body = try endpoint.storedBody(of: response)
            let caching = ResponseCaching(response, requestTime: requestTime, responseTime: responseTime)
            guard !caching.noStore else {
                client.callEvents.emit(.error, call, message: "prefetch: the answer is marked no-store, so it is not kept")
                return nil
            }
            let entry = CacheEntry(
                body: body, date: responseTime, etag: response.header("ETag"),
                lastModified: response.header("Last-Modified"), freshness: caching.freshness)
            // What memory holds of the key is older: the next read decodes the new entry.
            client.memory.remove(call.key)
            client.writer.writeBack(entry, call)
            client.writer.keepLinks(of: response, call, responseTime: responseTime)
            return PrefetchPlan.Call(
                request: prefetch.encoded, key: PrefetchPlan.PinnedKey(call.key), isDone: true, bytes: body.count)
        } catch {
            if !CallFetcher.isCancellation(error) {
                reportPrefetch(job, "prefetch of \(endpoint.name) failed: \(client.callEvents.safeDescription(of: error))")
            }
            return nil
        }
    }

    /// The key a call's answer is stored under in the signed-in user's partition, or `nil`
    /// when it cannot be made (a stored call of an unknown kind).
    private func pinnedKey(of prefetch: PrefetchCall) -> PrefetchPlan.PinnedKey? {
        guard let endpoint = prefetch.parts.endpointValue, let rule = endpoint.cache,
            let call = try? client.makeCall(prefetch.parts.request, endpoint: endpoint, rule: rule)
        else { return nil }
        return PrefetchPlan.PinnedKey(call.key)
    }

    /// Whether the job must stop: cancelled, the user switched, or its partition removed.
    private func isInterrupted(_ job: PrefetchJob, _ state: PartitionState, since removals: UInt64) -> Bool {
        job.isCancelled || Task.isCancelled || client.partitionState.switches != state.switches
            || isRemoved(state.partition, since: removals)
    }

    /// Whether a removal since `removals` took the partition's plans (everything, or the
    /// partition; any removal when the store cannot say which).
    private func isRemoved(_ partition: String?, since removals: UInt64) -> Bool {
        guard client.store.removalCount != removals else { return false }
        guard let scopes = client.store.removals(since: removals) else { return true }
        let removal = partition.map { RemovalScope.partition($0) }
        return scopes.contains { scope in scope.kind == .everything || scope == removal }
    }

    /// Saves the plan; a failure is an `.error` event (its entries are stored, not pinned).
    private func savePlan(_ plan: PrefetchPlan, _ job: PrefetchJob) async -> Bool {
        do {
            try await pinning.savePrefetchPlan(plan)
            return true
        } catch {
            reportPrefetch(job, "prefetch plan write failed: \(client.callEvents.safeDescription(of: error))")
            return false
        }
    }

    /// Reports a prefetch's failure as an `.error` event, naming no plan, value or URL.
    private func reportPrefetch(_ job: PrefetchJob, _ message: String) {
        client.callEvents.handler(CacheEvent(kind: .error, endpoint: "", key: "prefetch", message: message))
    }
}
