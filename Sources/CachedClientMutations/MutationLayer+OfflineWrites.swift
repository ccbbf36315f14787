import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Generated) import CachedClientCalls
import CachedClientHTTP
import CachedClientStore
@_spi(Generated) import CachedClientValues

// Offline writes: mutations of endpoints marked `"offline": "queue"` are written to the
// store's outbox before they are sent (so a kill at any moment loses none), sent at once
// when their scope is idle, and otherwise, or when the server cannot be reached, sent later
// by a replay: in order, one at a time per scope, with the same idempotency key on every
// attempt. `MutationQueue` decides what may be sent; this file sends, through the client's
// fetcher. `CachedClient+Mutations.swift` documents the public API that forwards here.
extension MutationLayer {
    /// Sends the queued mutations of `client`'s partition now (see
    /// `CachedClient.replayPendingMutations()`).
    package func replayPendingMutations(on client: CachedClient) async {
        await queue.replay { [weak self, weak client] in
            guard let self, let client else { return }
            await self.replayPass(on: client)
        }
        await scheduleReplayIfWaiting(on: client)
    }

    /// One pass over the waiting scopes of the current partition.
    private func replayPass(on client: CachedClient) async {
        await removeSentRecords(on: client)
        let partition = client.partition
        do {
            try await queue.load(partition: partition)
        } catch {
            emitMutation(.error, id: "", endpoint: "", message: "outbox read failed: \(client.callEvents.safeDescription(of: error))")
            return
        }
        let scopes = await queue.waitingScopes()
        await withTaskGroup(of: Void.self) { group in
            for scope in scopes {
                group.addTask { await self.replay(scope: scope, partition: partition, on: client) }
            }
        }
    }

    /// Sends a failed mutation again (see `CachedClient.retryMutation(id:)`).
    package func retryMutation(id: String, on client: CachedClient) async -> Bool {
        guard let held = await queue.record(id: id), held.failure != nil, !held.method.isEmpty else { return false }
        // The queue holds no bodies: the record is read back whole before it is written again.
        let stored: QueuedMutation?
        do {
            stored = try await queue.outbox.queuedMutation(held)
        } catch {
            emitMutation(.error, held, message: "outbox read failed: \(client.callEvents.safeDescription(of: error))")
            return false
        }
        guard var mutation = stored, mutation.failure != nil, !mutation.method.isEmpty else { return false }
        mutation.failure = nil
        guard await queue.replace(mutation) else { return false }
        do {
            try await queue.outbox.updateMutation(mutation)
        } catch {
            emitMutation(.error, mutation, message: "outbox write failed: \(client.callEvents.safeDescription(of: error))")
        }
        emitMutation(.mutationQueued, mutation, message: "retried")
        await replayPendingMutations(on: client)
        return true
    }

    /// Removes a mutation from the outbox without sending it (see
    /// `CachedClient.discardMutation(id:)`).
    package func discardMutation(id: String) async throws -> Bool {
        guard let mutation = await queue.record(id: id) else { return false }
        try await queue.outbox.removeMutation(mutation)
        await queue.remove(id: id)
        rollBackOptimistic(mutation: id)
        emitMutation(.mutationDiscarded, mutation)
        return true
    }

    // MARK: - Entry points called by generated code

    /// Sends a mutation of an endpoint marked `"offline": "queue"`; `.queued` when the
    /// server could not be reached or mutations of its scope wait before it, and only once
    /// the outbox holds it durably (when it cannot, the mutation is sent at once, and
    /// `MutationNotQueuedError` thrown if the server cannot be reached). A 4xx other than
    /// 429 throws as for `CachedClient.response(for:endpoint:as:invalidating:)`. An endpoint
    /// without an offline rule is sent as that method sends it.
    package func queueableResponse<T: Decodable & Sendable>(
        for request: EndpointRequest, endpoint: Endpoint, as type: T.Type, invalidating invalidations: [Invalidation],
        on client: CachedClient
    ) async throws -> MutationResult<T> {
        // Read again when it is sent, by this call or a replay in this process.
        readsEntities(of: endpoint, as: type, on: client)
        switch try await queueableMutate(request, endpoint: endpoint, invalidating: invalidations, on: client) {
        case .sent(let body): return .sent(try endpoint.decode(type, from: body))
        case .queued(let id): return .queued(id: id)
        }
    }

    /// `queueableResponse(for:endpoint:as:invalidating:on:)` for an endpoint that returns no body.
    package func queueablePerform(
        _ request: EndpointRequest, endpoint: Endpoint, invalidating invalidations: [Invalidation], on client: CachedClient
    ) async throws -> MutationResult<Void> {
        switch try await queueableMutate(request, endpoint: endpoint, invalidating: invalidations, on: client) {
        case .sent: return .sent(())
        case .queued(let id): return .queued(id: id)
        }
    }

    /// Enqueues, then sends at once when the scope is idle: the server's body, or the id.
    private func queueableMutate(
        _ request: EndpointRequest, endpoint: Endpoint, invalidating invalidations: [Invalidation],
        on client: CachedClient
    ) async throws -> MutationResult<Data> {
        try QueryProbe.captureIfCapturing(request, endpoint: endpoint)  // never queued by `PrefetchCall`
        guard let rule = endpoint.offline else {
            return .sent(try await mutate(request, endpoint: endpoint, invalidating: invalidations, on: client))
        }
        let record = try queuedMutation(
            request, endpoint: endpoint, rule: rule, invalidations: invalidations, partition: client.partition, now: client.now())
        let stored: QueuedMutation
        do {
            try await queue.load(partition: record.partition)
            stored = try await queue.outbox.enqueueMutation(record)
            // The optimistic updates of the call, if any, now wait for this mutation's outcome.
            if let group = OptimisticGroup.current, group.adopt(mutation: stored.id) {
                track(group, mutation: stored.id)
            }
        } catch {
            // No outbox to keep it in: sent as an ordinary mutation, with its key all the same.
            // It is never `.queued`: when it cannot be sent either, the caller learns that
            // nothing of it is kept.
            let outboxFailure = client.callEvents.safeDescription(of: error)
            emitMutation(.error, record, message: "outbox write failed, sent without queueing: \(outboxFailure)")
            var keyed = request
            keyed.appendHeader(RequestParameter(name: rule.idempotencyHeader, value: record.idempotencyKey, isKey: false))
            do {
                return .sent(try await mutate(keyed, endpoint: endpoint, invalidating: invalidations, on: client))
            } catch let sendError where CallFetcher.allowsFallback(sendError) || sendError is RateLimitedError {
                throw MutationNotQueuedError(
                    endpoint: endpoint.name, outboxFailure: outboxFailure, sendFailure: client.callEvents.safeDescription(of: sendError))
            }
        }
        guard await queue.add(stored) else {
            // Sent after those: by the replay that runs, or on the next signal or tick.
            emitMutation(.mutationQueued, stored, message: "waits for earlier mutations")
            await scheduleReplayIfWaiting(on: client)
            return .queued(id: stored.id)
        }
        switch await attempt(stored, immediately: true, on: client) {
        case .sent(let response):
            if await queue.hasWaiting { startReplay(on: client) }  // mutations of the scope that arrived meanwhile
            return .sent(try endpoint.storedBody(of: response))
        case .waiting:
            return .queued(id: stored.id)
        case .failed(let error):
            try? await queue.outbox.removeMutation(stored)
            await queue.remove(id: stored.id)
            throw error
        }
    }

    /// The outbox record of a call: the request as it will be sent, without credentials.
    private func queuedMutation(
        _ request: EndpointRequest, endpoint: Endpoint, rule: OfflineRule, invalidations: [Invalidation],
        partition: String?, now: Date
    ) throws -> QueuedMutation {
        let body = try endpoint.encodedBody(of: request)
        return QueuedMutation(
            id: UUID().uuidString, partition: partition, scope: rule.scope ?? request.path, endpoint: endpoint.name,
            method: request.method.uppercased(), path: request.path,
            query: request.query.map { QueuedMutation.Parameter(name: $0.name, value: $0.value) },
            headers: request.headers.filter { !QueuedMutation.secretHeaders.contains($0.name.lowercased()) }
                .map { QueuedMutation.Parameter(name: $0.name, value: $0.value) },
            body: body, contentType: body == nil ? nil : request.bodyContentType,
            idempotencyHeader: rule.idempotencyHeader, idempotencyKey: UUID().uuidString,
            maxRetries: endpoint.retry?.maxRetries,
            invalidations: invalidations.map { QueuedMutation.Invalidated(endpoint: $0.endpoint, path: $0.path) },
            createdAt: now, server: endpoint.server)
    }

    /// How one attempt ended.
    package enum AttemptOutcome {
        /// A 2xx answer; the mutation left the outbox and its invalidations ran.
        case sent(HTTPResponse)
        /// The server could not be reached (or the client's partition changed); it waits.
        case waiting
        /// Refused for good; recorded as failed (a replay) or for the caller to throw.
        case failed(any Error)
    }

    /// Sends a mutation its scope was claimed for, and records the outcome in the outbox
    /// and the list. `immediately`: the caller's own attempt, without retries or waiting for
    /// a host's `Retry-After`; a replay follows the endpoint's retry rule.
    package func attempt(_ mutation: QueuedMutation, immediately: Bool, on client: CachedClient) async -> AttemptOutcome {
        guard mutation.partition == client.partition else {
            // Signed out or switched user: never sent under another user's credentials.
            await queue.finish(mutation, updated: mutation)
            return .waiting
        }
        emitMutation(.mutationSending, mutation)
        let endpoint = Endpoint(
            name: mutation.endpoint, cache: nil, retry: mutation.maxRetries.map { RetryRule(max: $0) }, server: mutation.server)
        let error: any Error
        do {
            let response = try await client.fetcher.send(
                replayRequest(mutation), endpoint: endpoint, body: mutation.body, validators: nil, cacheAtHand: immediately,
                onRetry: { self.emitMutation(.retry, mutation, message: $0) })
            if (200..<300).contains(response.statusCode) {
                do {
                    try await queue.outbox.removeMutation(mutation)
                } catch {
                    // Never sent again by this process: removed again at the next replay.
                    await queue.keepRemoving(mutation)
                    emitMutation(.error, mutation, message: "outbox remove failed: \(client.callEvents.safeDescription(of: error))")
                }
                await queue.finish(mutation, updated: nil)
                emitMutation(.mutationSent, mutation, message: "status \(response.statusCode)")
                let invalidations = mutation.invalidations.map { Invalidation(endpointName: $0.endpoint, path: $0.path) }
                // An endpoint not known yet has its answer kept, and read when it becomes known.
                let reader = entityReaders.reader(
                    keeping: .init(endpoint: mutation.endpoint, body: response.body, partition: mutation.partition, date: client.now()))
                await settleOptimistic(mutation: mutation.id, invalidations: invalidations) {
                    await client.writer.apply(invalidations, after: endpoint)
                    if let reader { await replaceEntities(reader.entities(in: response.body), coding: reader.coding, on: client) }
                }
                return .sent(response)
            }
            error = CachedClientError.httpStatus(response.statusCode, endpoint: mutation.endpoint, body: response.body)
        } catch let thrown {
            error = thrown
        }
        if CallFetcher.allowsFallback(error) || error is RateLimitedError || CallFetcher.isCancellation(error) {
            var waiting = mutation
            waiting.attempts = mutation.attempts.addingClamped(1)  // a record read back may say anything
            try? await queue.outbox.updateMutation(waiting)
            await queue.finish(mutation, updated: waiting)
            emitMutation(.mutationQueued, waiting, message: client.callEvents.safeDescription(of: error))
            await scheduleReplayIfWaiting(on: client)
            return .waiting
        }
        var failed = mutation
        failed.attempts = mutation.attempts.addingClamped(1)
        if case .httpStatus(let status, _, let body) = error as? CachedClientError {
            failed.failure = MutationFailure(status: status, message: "refused by the server", body: body)
        } else {
            failed.failure = MutationFailure(message: client.callEvents.safeDescription(of: error))
        }
        emitMutation(.mutationFailed, failed, message: failed.failure?.description)
        rollBackOptimistic(mutation: mutation.id)
        if immediately {
            await queue.finish(mutation, updated: failed)
        } else {
            do {
                try await queue.outbox.updateMutation(failed)
            } catch {
                emitMutation(.error, mutation, message: "outbox write failed: \(client.callEvents.safeDescription(of: error))")
            }
            await queue.finish(mutation, updated: failed)
        }
        return .failed(error)
    }

    /// Sends the scope's waiting mutations in order until one cannot reach the server.
    private func replay(scope: String, partition: String?, on client: CachedClient) async {
        while let next = await queue.claimNext(in: scope, partition: partition) {
            // The queue holds no bodies: each is read from the outbox when it is sent.
            let stored: QueuedMutation?
            do {
                stored = try await queue.outbox.queuedMutation(next)
            } catch {
                emitMutation(.error, next, message: "outbox read failed: \(client.callEvents.safeDescription(of: error))")
                await queue.finish(next, updated: next)
                return
            }
            guard let mutation = stored else {
                await queue.finish(next, updated: nil)  // discarded or removed meanwhile
                continue
            }
            if mutation.failure != nil {
                emitMutation(.mutationFailed, mutation, message: mutation.failure?.description)
                await queue.finish(next, updated: mutation)  // unreadable since it was listed
                continue
            }
            if case .waiting = await attempt(mutation, immediately: false, on: client) { return }
        }
    }

    /// Removes the outbox records of mutations that were sent but could not be removed then
    /// (a disk fault), so that a relaunch does not send them again.
    private func removeSentRecords(on client: CachedClient) async {
        for mutation in await queue.recordsToRemove {
            do {
                try await queue.outbox.removeMutation(mutation)
                await queue.recordRemoved(id: mutation.id)
            } catch {
                emitMutation(.error, mutation, message: "outbox remove failed: \(client.callEvents.safeDescription(of: error))")
            }
        }
    }

    /// The request a queued mutation was made with, its idempotency key added.
    private func replayRequest(_ mutation: QueuedMutation) -> EndpointRequest {
        var request = EndpointRequest(method: mutation.method, path: mutation.path)
        for item in mutation.query { request.appendQuery(RequestParameter(name: item.name, value: item.value, isKey: false)) }
        for header in mutation.headers {
            request.appendHeader(RequestParameter(name: header.name, value: header.value, isKey: false))
        }
        request.appendHeader(RequestParameter(name: mutation.idempotencyHeader, value: mutation.idempotencyKey, isKey: false))
        if let body = mutation.body {
            request.setDataBody(body, contentType: mutation.contentType ?? "application/octet-stream", isKey: false)
        }
        return request
    }

    /// Starts a replay in the background.
    package func startReplay(on client: CachedClient) {
        Task { [weak self, weak client] in
            guard let self, let client else { return }
            await self.replayPendingMutations(on: client)
        }
    }

    /// Starts the timer that replays every `offlineReplay.interval` while mutations wait.
    private func scheduleReplayIfWaiting(on client: CachedClient) async {
        guard await queue.hasWaiting else { return }
        let interval = offlineReplay.interval
        let sleep = offlineReplay.sleep
        await queue.startTimer {
            Task { [weak self, weak client] in
                while true {
                    do { try await sleep(interval) } catch { return }
                    guard let self, let client else { return }
                    await self.queue.timerEnded()
                    await self.replayPendingMutations(on: client)
                    return
                }
            }
        }
    }

    /// Forgets the held mutations of `partition` (every partition when `nil`) after the
    /// store removed them, and reports them.
    package func removeQueuedMutations(partition removed: String?, on client: CachedClient) async {
        if queue.isPrivate, let outbox = queue.outbox as? MemoryCacheStore {
            // The client's own outbox: the store's removal did not reach it.
            if let removed { outbox.removeAll(partition: removed) } else { outbox.removeAll() }
        }
        for mutation in await queue.removeAll(where: { removed == nil || $0 == removed }) {
            rollBackOptimistic(mutation: mutation.id)
            emitMutation(.mutationDiscarded, mutation, message: "removed with its partition")
        }
    }
}
