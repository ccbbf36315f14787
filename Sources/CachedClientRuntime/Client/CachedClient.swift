import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one object generated repositories call: it turns an `EndpointRequest` into an
/// HTTP call, applies the endpoint's cache policy and says whether the answer is fresh
/// or how old it is.
///
/// Rules it keeps (DESIGN.md, "Runtime semantics"):
/// - Only the response body, its date, `ETag`, `Last-Modified` and the freshness its
///   `Cache-Control`, `Expires` and `Age` state (`ServerFreshness`) are stored; request
///   headers (the `headers` provider's Authorization, cookies, API keys) and
///   `Set-Cookie` never reach the store, and `cache: false` endpoints never touch it.
/// - A response with `Cache-Control: no-store` is never stored, on any endpoint, whether
///   or not its rule takes freshness from the server: the server said the data must not be
///   kept. Any earlier entry for the key is removed too, so that a later offline call
///   cannot show data older than what the caller was just given.
/// - A store that fails to read or write never fails a call the network can serve;
///   the failure is reported as an `.error` event.
/// - Concurrent calls with the same key that need the network share one request and
///   one decode; a caller that is cancelled stops waiting without cancelling the others.
/// - In front of the store sits a bounded in-memory layer of decoded values
///   (`memoryCacheLimit`), so a repeated hit reads no file and decodes nothing. It holds
///   only what the store holds, or is about to hold (see the writes below), and is judged
///   by the same dates, so it changes no answer.
///   Because of it, housekeeping goes through the client (`removeAll()`,
///   `removeAll(partition:)`, `removeAll(endpoint:)`, `invalidate(_:)`), which clears both
///   layers; removing entries through `store` directly leaves decoded values in memory
///   until they are pushed out or the client is released. Likewise another process
///   writing the same folder (an app extension) is seen once the key leaves memory, and a
///   hit in memory does not renew the file's last use, so a size sweep may delete a file
///   whose value memory still answers with (within its ttl and `maxStale`, as always).
/// - A mutation's `invalidating` entries are removed after its 2xx answer, and a fetch
///   that was under way when they were removed does not store its (older) answer.
/// - Writes go behind the call: a call returns as soon as its answer is decoded, and the
///   entry is written to `store` by a background task the client tracks (so a fresh call
///   costs about what the request and the decode cost, not a file write too). Until it
///   lands, every read of this client (every policy, streams, with or without the
///   in-memory layer) finds the entry among the pending writes; a key's writes land in the
///   order they were made, and one that a newer answer replaced before its turn came is
///   skipped (the newer one lands); a removal through the client drops the pending writes
///   it covers and waits for those under way, so it is never undone; a write that fails is an
///   `.error` event ("write failed: …") and drops the entry from memory, as it did when
///   calls waited for it. `.store` is reported when the entry has landed. Other readers of
///   the same store (a second client, another process) see an entry once it has landed:
///   `flush()` waits for that. The client lives until its writes have finished.
public final class CachedClient: Sendable {
    /// The root every request path is appended to; part of every key, so staging never
    /// serves production data.
    public let baseURL: URL
    /// Where entries live; exposed for `totalSize()` and `entryCount()` on a settings screen
    /// (which count the client's writes once they have landed: `flush()` first for exact
    /// figures). Remove entries through the client's `removeAll…` methods instead, which also
    /// clear the in-memory layer and the writes on their way.
    public let store: any CacheStore

    private let transport: any HTTPTransport
    private let headersProvider: @Sendable () async throws -> [String: String]
    private let now: @Sendable () -> Date
    let events: @Sendable (CacheEvent) -> Void
    private let state: Locked<State>
    /// The in-memory layer of decoded values, the writes on their way to the store, and
    /// the generations of removals.
    let memory: DecodedValueCache
    /// The tasks writing answers to the store behind the calls that made them.
    let writes = WriteQueue()
    /// `baseURL` in the form keys hold, worked out once rather than on every call.
    private let canonicalBase: String
    /// The store's own age limit, which the in-memory layer applies too, so it never returns
    /// an entry the store would have dropped.
    private let storeMaxAge: TimeInterval?

    /// The most body bytes the in-memory layer holds, whatever `memoryCacheLimit` says, so
    /// that a few large lists cannot take an app's memory.
    public static let memoryCacheByteLimit = 8 << 20

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - store: where entries live; in memory unless the app passes a `FileCacheStore`.
    ///   - transport: how requests are sent; the seam for tests and custom stacks.
    ///   - partition: the signed-in user, so that user-scoped entries of one user are
    ///     never shown to another.
    ///   - headers: asked for on every request (not once), so an expiring token is
    ///     always current; never stored. An error it throws other than cancellation
    ///     counts as a transport failure and may fall back to the cache, because its
    ///     usual cause is a token refresh that failed offline.
    ///   - now: the clock entry ages are measured with; injectable for tests.
    ///   - events: receives every `CacheEvent`, for the app's logger; called synchronously,
    ///     so it should return quickly.
    ///   - memoryCacheLimit: how many entries, with their decoded values, the in-memory layer
    ///     in front of `store` keeps (least recently used out first, and never more than
    ///     `memoryCacheByteLimit` bytes of bodies), so that repeated hits skip the disk and
    ///     the decoder; 0 turns it off.
    public init(
        baseURL: URL,
        store: any CacheStore = MemoryCacheStore(),
        transport: any HTTPTransport = URLSessionTransport(),
        partition: String? = nil,
        headers: @escaping @Sendable () async throws -> [String: String] = { [:] },
        now: @escaping @Sendable () -> Date = { Date() },
        events: @escaping @Sendable (CacheEvent) -> Void = { _ in },
        memoryCacheLimit: Int = 100
    ) {
        self.baseURL = baseURL
        self.store = store
        self.transport = transport
        self.headersProvider = headers
        self.now = now
        self.events = events
        self.state = Locked(State(partition: partition))
        self.memory = DecodedValueCache(limit: memoryCacheLimit, byteLimit: Self.memoryCacheByteLimit)
        self.canonicalBase = CacheKey.canonicalBase(baseURL)
        self.storeMaxAge = store.maxAge
    }

    /// The signed-in user; user-scoped entries are stored and looked up under it.
    public var partition: String? {
        state.withLock { $0.partition }
    }

    /// Switches user (or signs out with `nil`); later calls use the new partition, and an
    /// answer still in flight for the old one is returned but not stored.
    ///
    /// Removing the old user's entries is a separate, explicit step:
    /// `try await client.removeAll(partition: old)`. Decoded values of other partitions
    /// leave memory at once.
    public func setPartition(_ partition: String?) {
        state.withLock { $0.partition = partition }
        memory.keepOnlyPartition(partition)
    }

    // MARK: - Entry points called by generated code

    /// Answers a cached endpoint according to `policy` (the spec's default when `nil`).
    ///
    /// An endpoint without a cache rule is simply fetched and never touches the store.
    public func value<T: Decodable & Sendable>(
        for request: EndpointRequest, endpoint: Endpoint, policy: CachePolicy? = nil, as type: T.Type = T.self
    ) async throws -> CachedValue<T> {
        guard let rule = endpoint.cache else {
            return .fresh(value: try await response(for: request, endpoint: endpoint, as: type))
        }
        let call = try makeCall(request, endpoint: endpoint, rule: rule)
        switch policy ?? rule.policy {
        case .networkOnly:
            return .fresh(value: try await sharedFetch(call, validating: nil, as: type))

        case .networkFirst:
            let entry = await readEntry(call)
            return try await networkFirst(call, entry: entry, as: type)

        case .cacheFirst:
            var entry = await readEntry(call)
            if let stored = entry {
                let time = now()
                if rule.isFresh(stored, at: time) {
                    // A value the in-memory layer decoded before answers without another await.
                    let held = call.held?.value(as: type, decodedFrom: stored)
                    if let value = held != nil ? held : await decodeStored(stored, call, as: type) {
                        emit(.hit, call, age: stored.age(at: time))
                        return .cached(value: value, date: stored.date)
                    }
                    entry = nil
                }
            }
            // The server's stale-while-revalidate window (`ttl: "server"` only).
            if let stored = entry, rule.allowsBackgroundRevalidation(of: stored, at: now()) {
                if let value = await decodeStored(stored, call, as: type) {
                    emit(.stale, call, age: stored.age(at: now()))
                    startRefresh(call, entry: stored, as: type)
                    return .cached(value: value, date: stored.date)
                }
                entry = nil
            }
            emit(.miss, call, age: entry?.age(at: now()))
            return try await networkFirst(call, entry: entry, missReported: true, as: type)

        case .staleWhileRevalidate:
            var entry = await readEntry(call)
            if let stored = entry, isShowable(stored, rule) {
                if let value = await decodeStored(stored, call, as: type) {
                    emitUse(stored, call)
                    startRefresh(call, entry: stored, as: type)
                    return .cached(value: value, date: stored.date)
                }
                entry = nil
            }
            emit(.miss, call, age: entry?.age(at: now()))
            return try await networkFirst(call, entry: entry, missReported: true, as: type)

        case .cacheOnly:
            let entry = await readEntry(call)
            if let stored = entry, isShowable(stored, rule), let value = await decodeStored(stored, call, as: type) {
                emitUse(stored, call)
                return .cached(value: value, date: stored.date)
            }
            emit(.miss, call, age: entry?.age(at: now()))
            throw CachedClientError.notCached(endpoint: endpoint.name)
        }
    }

    /// Streams the cached value first (if one within `maxStale` exists), then the fresh one,
    /// so a screen can show something at once and update when the network answers.
    ///
    /// When the network fails after a cached value was yielded, the stream finishes
    /// normally if `networkFirst` would have fallen back (a transport failure or a 5xx):
    /// the caller already holds the best value there is, exactly what `networkFirst`
    /// would have returned. It throws for a 4xx or an undecodable answer, which no cached
    /// value can excuse. Without a cached value it yields the fresh one or throws.
    /// Ending the iteration cancels the work.
    public func updates<T: Decodable & Sendable>(
        for request: EndpointRequest, endpoint: Endpoint, as type: T.Type = T.self
    ) -> AsyncThrowingStream<CachedValue<T>, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await self.streamUpdates(request, endpoint: endpoint, as: type) { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Answers a `cache: false` endpoint: always the network, never the store, so a
    /// payment or a profile is exact and never on disk.
    ///
    /// After a 2xx answer the entries `invalidating` names are removed (even if the body
    /// then fails to decode: the server did change the data), so no screen shows what the
    /// call changed; a removal that fails is an `.error` event, never a failed call.
    public func response<T: Decodable & Sendable>(
        for request: EndpointRequest, endpoint: Endpoint, as type: T.Type = T.self,
        invalidating invalidations: [Invalidation] = []
    ) async throws -> T {
        let body = try encodeBody(request, endpoint)
        let response = try await send(request, body: body, endpoint: endpoint, validators: nil)
        guard (200..<300).contains(response.statusCode) else {
            throw CachedClientError.httpStatus(response.statusCode, endpoint: endpoint.name, body: response.body)
        }
        await apply(invalidations, after: endpoint)
        return try decode(type, from: response.body, endpoint)
    }

    /// Calls an endpoint that returns no body; only the status matters. After a 2xx answer
    /// the entries `invalidating` names are removed, as for `response(for:endpoint:as:invalidating:)`.
    public func perform(
        _ request: EndpointRequest, endpoint: Endpoint, invalidating invalidations: [Invalidation] = []
    ) async throws {
        let body = try encodeBody(request, endpoint)
        let response = try await send(request, body: body, endpoint: endpoint, validators: nil)
        guard (200..<300).contains(response.statusCode) else {
            throw CachedClientError.httpStatus(response.statusCode, endpoint: endpoint.name, body: response.body)
        }
        await apply(invalidations, after: endpoint)
    }

    // MARK: - Policies

    /// Fetches; on a failure `networkFirst` forgives, answers with `entry` if it is young enough.
    /// `missReported` keeps a call that already reported its miss from reporting two.
    private func networkFirst<T: Decodable & Sendable>(
        _ call: Call, entry: CacheEntry?, missReported: Bool = false, as type: T.Type
    ) async throws -> CachedValue<T> {
        do {
            return .fresh(value: try await sharedFetch(call, validating: entry, as: type))
        } catch {
            guard Self.allowsFallback(error) else { throw error }
            if let entry, call.rule.allowsFallback(to: entry, at: now()), let value = await decodeStored(entry, call, as: type) {
                emit(.fallback, call, age: entry.age(at: now()), message: Self.safeDescription(of: error))
                return .cached(value: value, date: entry.date)
            }
            if !missReported { emit(.miss, call, age: entry?.age(at: now())) }
            throw error
        }
    }

    /// The body of `updates`, written as a plain async function so errors flow normally.
    private func streamUpdates<T: Decodable & Sendable>(
        _ request: EndpointRequest, endpoint: Endpoint, as type: T.Type,
        yield: (CachedValue<T>) -> Void
    ) async throws {
        guard let rule = endpoint.cache else {
            yield(.fresh(value: try await response(for: request, endpoint: endpoint, as: type)))
            return
        }
        let call = try makeCall(request, endpoint: endpoint, rule: rule)
        var entry = await readEntry(call)
        var yieldedCached = false
        if let stored = entry, isShowable(stored, rule) {
            if let value = await decodeStored(stored, call, as: type) {
                emitUse(stored, call)
                yield(.cached(value: value, date: stored.date))
                yieldedCached = true
            } else {
                entry = nil
            }
        }
        if !yieldedCached { emit(.miss, call, age: entry?.age(at: now())) }
        do {
            yield(.fresh(value: try await sharedFetch(call, validating: entry, as: type)))
        } catch {
            guard yieldedCached, let entry, Self.allowsFallback(error), call.rule.allowsFallback(to: entry, at: now()) else {
                throw error
            }
            emit(.fallback, call, age: entry.age(at: now()), message: Self.safeDescription(of: error))
        }
    }

    /// Starts the background refresh of `staleWhileRevalidate`, unless one for the key runs.
    private func startRefresh<T: Decodable & Sendable>(_ call: Call, entry: CacheEntry, as type: T.Type) {
        state.withLock { state in
            guard state.refreshes[call.key] == nil else { return }
            state.refreshes[call.key] = Task {
                do {
                    _ = try await self.sharedFetch(call, validating: entry, as: type)
                } catch where !Self.allowsFallback(error) && !Self.isCancellation(error) {
                    // Offline is normal here and the entry stays; a 4xx or a changed model is not.
                    self.emit(.error, call, message: "background refresh: \(Self.safeDescription(of: error))")
                } catch {}
                _ = self.state.withLock { $0.refreshes.removeValue(forKey: call.key) }
            }
        }
    }

    /// Waits for every background refresh started so far, and (with `flushing`) for every
    /// write started so far, theirs included; for tests, which must not sleep.
    func waitForBackgroundRefreshes(flushing: Bool = true) async {
        while let task = state.withLock({ $0.refreshes.values.first }) {
            await task.value
        }
        if flushing { await flush() }
    }

    // MARK: - Merged fetches

    /// Fetches, decodes and stores once for all concurrent callers with the same key.
    ///
    /// The work runs in an unstructured task, so that one caller's cancellation does not
    /// cancel the others; a cancelled caller stops waiting at once and throws
    /// `CancellationError`. When the last caller stops waiting the fetch is cancelled.
    private func sharedFetch<T: Decodable & Sendable>(
        _ call: Call, validating entry: CacheEntry?, as type: T.Type
    ) async throws -> T {
        try Task.checkCancellation()
        let flightKey = FlightKey(key: call.key, type: ObjectIdentifier(type))
        let waiterID = state.withLock { state -> UInt64 in
            let waiterID = state.makeID()
            if var flight = state.flights[flightKey] {
                flight.waiters.insert(waiterID)
                state.flights[flightKey] = flight
                state.waiters[waiterID] = Waiter(flightKey: flightKey, flightID: flight.id, phase: .pending)
            } else {
                let flightID = state.makeID()
                let task = Task {
                    let result: Result<any Sendable, any Error>
                    do {
                        result = .success(try await self.fetch(call, validating: entry, as: type))
                    } catch {
                        result = .failure(error)
                    }
                    self.finishFlight(flightKey, id: flightID, with: result)
                }
                state.flights[flightKey] = Flight(id: flightID, task: task, waiters: [waiterID])
                state.waiters[waiterID] = Waiter(flightKey: flightKey, flightID: flightID, phase: .pending)
            }
            return waiterID
        }
        let value = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<any Sendable, any Error>) in
                let ready = state.withLock { state -> Result<any Sendable, any Error>? in
                    guard var waiter = state.waiters[waiterID] else { return .failure(CancellationError()) }
                    switch waiter.phase {
                    case .pending:
                        waiter.phase = .suspended(continuation)
                        state.waiters[waiterID] = waiter
                        return nil
                    case .finished(let result):
                        state.waiters[waiterID] = nil
                        return result
                    case .cancelled, .suspended:
                        state.waiters[waiterID] = nil
                        return .failure(CancellationError())
                    }
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            self.stopWaiting(waiterID)
        }
        guard let typed = value as? T else {
            throw CachedClientError.decodingFailed(endpoint: call.endpoint.name, reason: "internal: shared result of another type")
        }
        return typed
    }

    /// A waiter's task was cancelled: release it now, and cancel the fetch if nobody is left.
    private func stopWaiting(_ waiterID: UInt64) {
        let (continuation, orphan) = state.withLock { state -> (CheckedContinuation<any Sendable, any Error>?, Task<Void, Never>?) in
            guard var waiter = state.waiters[waiterID] else { return (nil, nil) }
            var continuation: CheckedContinuation<any Sendable, any Error>?
            switch waiter.phase {
            case .pending:
                waiter.phase = .cancelled
                state.waiters[waiterID] = waiter
            case .suspended(let suspended):
                state.waiters[waiterID] = nil
                continuation = suspended
            case .finished, .cancelled:
                return (nil, nil)
            }
            guard var flight = state.flights[waiter.flightKey], flight.id == waiter.flightID else {
                return (continuation, nil)
            }
            flight.waiters.remove(waiterID)
            if flight.waiters.isEmpty {
                state.flights[waiter.flightKey] = nil
                return (continuation, flight.task)
            }
            state.flights[waiter.flightKey] = flight
            return (continuation, nil)
        }
        continuation?.resume(throwing: CancellationError())
        orphan?.cancel()
    }

    /// Hands a fetch's result to everyone still waiting for it.
    private func finishFlight(_ flightKey: FlightKey, id: UInt64, with result: Result<any Sendable, any Error>) {
        let continuations = state.withLock { state -> [CheckedContinuation<any Sendable, any Error>] in
            guard let flight = state.flights[flightKey], flight.id == id else { return [] }
            state.flights[flightKey] = nil
            var continuations: [CheckedContinuation<any Sendable, any Error>] = []
            for waiterID in flight.waiters {
                guard var waiter = state.waiters[waiterID] else { continue }
                switch waiter.phase {
                case .suspended(let continuation):
                    state.waiters[waiterID] = nil
                    continuations.append(continuation)
                case .pending:
                    waiter.phase = .finished(result)
                    state.waiters[waiterID] = waiter
                case .cancelled, .finished:
                    break
                }
            }
            return continuations
        }
        for continuation in continuations { continuation.resume(with: result) }
    }

    /// The number of callers waiting for a merged fetch; lets tests wait for callers to join.
    var waitingCallerCount: Int {
        state.withLock { $0.flights.values.reduce(0) { $0 + $1.waiters.count } }
    }

    // MARK: - Network

    /// One network round trip for a cached endpoint: decode, store, and revalidate `entry`
    /// with its validators when it has any.
    private func fetch<T: Decodable & Sendable>(
        _ call: Call, validating entry: CacheEntry?, as type: T.Type
    ) async throws -> T {
        let validators = entry.flatMap { $0.etag == nil && $0.lastModified == nil ? nil : $0 }
        let requestTime = now()
        let response = try await send(call.request, body: call.body, endpoint: call.endpoint, validators: validators)
        let responseTime = now()
        switch response.statusCode {
        case 200..<300:
            let value = try decode(type, from: response.body, call.endpoint)
            let caching = ResponseCaching(response, requestTime: requestTime, responseTime: responseTime)
            if caching.noStore {
                await forget(call, hadEntry: entry != nil)
                return value
            }
            let fresh = CacheEntry(
                body: response.body, date: responseTime,
                etag: response.header("ETag"), lastModified: response.header("Last-Modified"),
                freshness: caching.freshness)
            write(fresh, call, value: value, reportingStore: true)
            return value
        case 304:
            guard let entry = validators else { break }
            guard let value = await decodeStored(entry, call, as: type) else {
                // The bytes the server confirmed are unreadable; ask again without validators.
                return try await fetch(call, validating: nil, as: type)
            }
            emit(.revalidated, call, age: entry.age(at: responseTime))
            let caching = ResponseCaching(
                revalidation: response, stored: entry.freshness, requestTime: requestTime, responseTime: responseTime)
            if caching.noStore {
                await forget(call, hadEntry: true)
                return value
            }
            let confirmed = CacheEntry(
                body: entry.body, date: responseTime,
                etag: response.header("ETag") ?? entry.etag,
                lastModified: response.header("Last-Modified") ?? entry.lastModified,
                freshness: caching.freshness)
            write(confirmed, call, value: value, reportingStore: false)
            return value
        default:
            break
        }
        throw CachedClientError.httpStatus(response.statusCode, endpoint: call.endpoint.name, body: response.body)
    }

    /// Builds the HTTP request and sends it; the only place headers are assembled.
    private func send(
        _ request: EndpointRequest, body: Data?, endpoint: Endpoint, validators: CacheEntry?
    ) async throws -> HTTPResponse {
        var headers = HeaderFields()
        headers.set("Accept", "application/json")
        if body != nil { headers.set("Content-Type", "application/json") }
        if let validators {
            if let etag = validators.etag { headers.set("If-None-Match", etag) }
            if let lastModified = validators.lastModified { headers.set("If-Modified-Since", lastModified) }
        }
        for (name, value) in try await headersProvider().sorted(by: { $0.key < $1.key }) {
            headers.set(name, value)
        }
        for header in request.headers {
            headers.set(header.name, header.value)
        }
        let url = try makeURL(request)
        return try await transport.send(HTTPRequest(method: request.method.uppercased(), url: url, headers: headers.fields, body: body))
    }

    /// `baseURL` + path (+ `?` + query); joined as text so a base path like `/v1` is kept.
    private func makeURL(_ request: EndpointRequest) throws -> URL {
        var text = baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        if !request.path.hasPrefix("/") { text += "/" }
        text += request.path
        let query = request.encodedQuery
        if !query.isEmpty { text += "?" + query }
        guard let url = URL(string: text) else { throw CachedClientError.invalidURL(text) }
        return url
    }

    // MARK: - Store access that never fails a call

    /// The stored entry, or `nil` when there is none or the store failed (reported); from
    /// the in-memory layer when it holds the key, so a hit reads no file, and from the
    /// client's own writes still on their way to the store, so the client reads its writes.
    private func readEntry(_ call: Call) async -> CacheEntry? {
        if let held = call.held?.entry {
            guard let storeMaxAge, now().timeIntervalSince(held.date) > storeMaxAge else { return held }
            memory.remove(call.key)  // The store would drop it too (on its next read of the file).
        }
        if let pending = memory.pendingEntry(for: call.key) {
            guard let storeMaxAge, now().timeIntervalSince(pending.date) > storeMaxAge else { return pending }
            return nil  // Landing or not, the store would drop it on its next read.
        }
        do {
            return try await store.entry(for: call.key)
        } catch {
            emit(.error, call, message: "read failed: \(Self.safeDescription(of: error))")
            return nil
        }
    }

    /// Hands `entry` to the writer, which stores it once the call has returned, and holds it
    /// with its decoded `value` in memory, where every later read of this client finds it
    /// (`readEntry`) until it has landed; unless the partition changed while the answer was
    /// in flight or a removal through the client (sign-out, an invalidation) covered the key
    /// since the call started. The write is reported as `.store` when it lands (if
    /// `reportingStore`), or as an `.error` when it fails.
    private func write<T: Sendable>(_ entry: CacheEntry, _ call: Call, value: T, reportingStore: Bool) {
        if let keyPartition = call.key.partition, keyPartition != (partition ?? "") {
            return
        }
        guard let id = memory.stage(entry, value: value, for: call.key, since: call.generation) else { return }
        writes.enqueue(call.key, id: id) {
            await self.land(entry, call, id: id, reportingStore: reportingStore)
        }
    }

    /// Writes one staged entry to the store, in the background; the key's earlier writes
    /// have finished. Skipped when a newer answer for the key was staged meanwhile (that one
    /// lands instead, so a burst of answers for one key costs one or two writes, not one
    /// each) or a removal through the client covered the key since the call started; taken
    /// back out when a removal ran while it was written. Failures are reported, and drop
    /// the entry from memory so memory never gets ahead of the store.
    private func land(_ entry: CacheEntry, _ call: Call, id: UInt64, reportingStore: Bool) async {
        guard memory.isWanted(call.key, id: id, since: call.generation) else { return }
        do {
            try await store.setEntry(entry, for: call.key)
        } catch {
            memory.finishWrite(call.key, id: id, since: call.generation, failed: entry)
            emit(.error, call, message: "write failed: \(Self.safeDescription(of: error))")
            return
        }
        guard memory.finishWrite(call.key, id: id, since: call.generation) else {
            // A removal ran while we wrote; it waits for us before it removes, but take the
            // entry back out all the same, so that no ordering of the two can leave it behind.
            do {
                try await store.removeEntry(for: call.key)
            } catch {
                emit(.error, call, message: "remove failed: \(Self.safeDescription(of: error))")
            }
            return
        }
        if reportingStore { emit(.store, call) }
    }

    /// Waits until every write this client started so far has reached its store (or
    /// failed, which is reported as an `.error` event as always).
    ///
    /// Calls return as soon as their answer is decoded and write the entry behind them;
    /// this client sees those entries at once, but another client or process reading the
    /// same folder sees them only when they land. Call `flush()` before reading the store
    /// from elsewhere (a test, an app extension, a second client on the same folder) or
    /// before the app is suspended. Removals through the client (`removeAll…`,
    /// invalidations) need no flush: they wait for the writes they cover.
    public func flush() async {
        await writes.wait()
    }

    /// Removes the key's entry (on disk and in memory) after a `no-store` answer, which must
    /// not be kept and makes any older copy outdated; reported as `.evict` when the call had
    /// read an entry.
    private func forget(_ call: Call, hadEntry: Bool) async {
        // Before and after, as housekeeping does: a value read while the store removes
        // the file must not stay in memory. A write of the key on its way must not land after
        // the removal either: it is dropped, and one already under way is waited for.
        memory.forget(call.key)
        defer { memory.remove(call.key) }
        await writes.wait { $0.text == call.key.text }
        do {
            try await store.removeEntry(for: call.key)
            if hadEntry { emit(.evict, call, message: "removed: the server answered no-store") }
        } catch {
            emit(.error, call, message: "remove failed: \(Self.safeDescription(of: error))")
        }
    }

    /// Decodes a stored entry, or takes the value decoded from it before out of memory;
    /// one that does not decode is removed and reported, then treated as a miss.
    private func decodeStored<T: Decodable & Sendable>(_ entry: CacheEntry, _ call: Call, as type: T.Type) async -> T? {
        if let value = call.held?.value(as: type, decodedFrom: entry) { return value }
        do {
            let value = try call.endpoint.coding.makeDecoder().decode(type, from: entry.body)
            memory.insert(entry, value: value, for: call.key, since: call.generation, replacingNewer: false)
            return value
        } catch {
            memory.forget(call.key)
            emit(.error, call, age: entry.age(at: now()), message: "stored entry unreadable, removed: \(Self.safeDescription(of: error))")
            await writes.wait { $0.text == call.key.text }
            do {
                try await store.removeEntry(for: call.key)
            } catch {
                emit(.error, call, message: "remove failed: \(Self.safeDescription(of: error))")
            }
            return nil
        }
    }

    // MARK: - Helpers

    /// Encodes the body once and builds the key; the body digest is part of it only when
    /// the body is declared a key.
    private func makeCall(_ request: EndpointRequest, endpoint: Endpoint, rule: CacheRule) throws -> Call {
        let body = try encodeBody(request, endpoint)
        let (text, keyPartition) = CacheKey.canonicalText(
            endpoint: endpoint, request: request, canonicalBase: canonicalBase,
            bodyDigest: request.bodyIsKey ? body.map { SHA256.hex(of: $0) } : nil,
            partition: partition)
        // The same text always makes the same key; the held one has its digest already.
        let (generation, held) = memory.lookup(text)
        let key = held?.key ?? CacheKey(text: text, endpoint: endpoint.name, partition: keyPartition, path: request.path)
        return Call(
            endpoint: endpoint, request: request, rule: rule, body: body, key: key, generation: generation, held: held)
    }

    private func encodeBody(_ request: EndpointRequest, _ endpoint: Endpoint) throws -> Data? {
        do {
            return try request.encodedBody(endpoint.coding)
        } catch {
            throw CachedClientError.encodingFailed(endpoint: endpoint.name, reason: String(describing: error))
        }
    }

    private func decode<T: Decodable>(_ type: T.Type, from body: Data, _ endpoint: Endpoint) throws -> T {
        do {
            return try endpoint.coding.makeDecoder().decode(type, from: body)
        } catch {
            throw CachedClientError.decodingFailed(endpoint: endpoint.name, reason: Self.reason(error))
        }
    }

    /// Whether an entry may be shown at all. An entry dated in the future (the clock was
    /// set back) is of unknown age: still shown, but never counted as within `ttl`.
    private func isShowable(_ entry: CacheEntry, _ rule: CacheRule) -> Bool {
        entry.age(at: now()) < rule.maxStale
    }

    /// Whether an entry is within `ttl` (or the server's lifetime under `ttl: "server"`), the
    /// age at which `cacheFirst` skips the network.
    private func isFresh(_ entry: CacheEntry, _ rule: CacheRule) -> Bool {
        rule.isFresh(entry, at: now())
    }

    /// `.hit` for an entry within `ttl`, `.stale` for an older one.
    private func emitUse(_ entry: CacheEntry, _ call: Call) {
        emit(isFresh(entry, call.rule) ? .hit : .stale, call, age: entry.age(at: now()))
    }

    private func emit(_ kind: CacheEvent.Kind, _ call: Call, age: Double? = nil, message: String? = nil) {
        events(CacheEvent(kind: kind, endpoint: call.endpoint.name, key: call.key.description, age: age, message: message))
    }

    /// Whether `networkFirst` may answer from the cache after this error: a transport
    /// failure or a 5xx, never a 4xx, a bad answer or a cancellation.
    static func allowsFallback(_ error: any Error) -> Bool {
        if isCancellation(error) { return false }
        if case .httpStatus(let status, _, _) = error as? CachedClientError { return (500..<600).contains(status) }
        return !(error is CachedClientError)
    }

    static func isCancellation(_ error: any Error) -> Bool {
        error is CancellationError || (error as? URLError)?.code == .cancelled
    }

    /// Text for an event message: never a URL, parameter value, body or header, which
    /// `String(describing:)` of a `URLError` or `DecodingError` could contain.
    static func safeDescription(of error: any Error) -> String {
        switch error {
        case let error as URLError:
            return "URLError \(error.code.rawValue)"
        case let error as CachedClientError:
            switch error {
            case .httpStatus(let status, _, _): return "status \(status)"
            case .decodingFailed: return "decoding failed"
            case .encodingFailed: return "encoding failed"
            case .invalidURL: return "invalid URL"
            case .notCached: return "not cached"
            }
        case let error as DecodingError:
            return "DecodingError \(reason(error, includingDetail: false))"
        case let error as FileCacheStoreError:
            return error.description  // Its paths are hashes, by design safe to log.
        default:
            let error = error as NSError
            return "\(error.domain) \(error.code)"
        }
    }

    /// Where and why decoding failed; the detail (which may quote a value) only for the
    /// error thrown to the developer, never for events.
    static func reason(_ error: any Error, includingDetail: Bool = true) -> String {
        guard let error = error as? DecodingError else { return String(describing: error) }
        func path(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return path.isEmpty ? "at the top level" : "at \(path)"
        }
        func detail(_ context: DecodingError.Context) -> String {
            includingDetail ? ": \(context.debugDescription)" : ""
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "type mismatch (expected \(type)) \(path(context))\(detail(context))"
        case .valueNotFound(let type, let context):
            return "missing value (expected \(type)) \(path(context))\(detail(context))"
        case .keyNotFound(let key, let context):
            return "missing key \"\(key.stringValue)\" \(path(context))\(detail(context))"
        case .dataCorrupted(let context):
            return "invalid data \(path(context))\(detail(context))"
        @unknown default:
            return includingDetail ? String(describing: error) : "unknown"
        }
    }
}

// MARK: - Private types

extension CachedClient {
    /// Everything one call needs, computed once.
    private struct Call: Sendable {
        let endpoint: Endpoint
        let request: EndpointRequest
        let rule: CacheRule
        let body: Data?
        let key: CacheKey
        /// `memory.generation` when the call started; a removal after it keeps the call's
        /// answer out of the store.
        let generation: UInt64
        /// What the in-memory layer held for the key when the call started.
        let held: DecodedValueCache.Held?
    }

    /// Merged fetches are per key and per decoded type, so a shared result always casts.
    private struct FlightKey: Hashable, Sendable {
        let key: CacheKey
        let type: ObjectIdentifier
    }

    /// One network fetch and the callers waiting for it.
    private struct Flight: Sendable {
        let id: UInt64
        let task: Task<Void, Never>
        var waiters: Set<UInt64>
    }

    /// One caller of a merged fetch; `pending` until it suspends, so that neither an early
    /// result nor an early cancellation is lost.
    private struct Waiter: Sendable {
        enum Phase: Sendable {
            case pending
            case suspended(CheckedContinuation<any Sendable, any Error>)
            case finished(Result<any Sendable, any Error>)
            case cancelled
        }

        let flightKey: FlightKey
        let flightID: UInt64
        var phase: Phase
    }

    private struct State: Sendable {
        var partition: String?
        var nextID: UInt64 = 0
        var flights: [FlightKey: Flight] = [:]
        var waiters: [UInt64: Waiter] = [:]
        var refreshes: [CacheKey: Task<Void, Never>] = [:]

        mutating func makeID() -> UInt64 {
            nextID += 1
            return nextID
        }
    }

    /// Header fields merged case-insensitively: a later value replaces an earlier one
    /// of the same name whatever its case.
    private struct HeaderFields {
        private(set) var fields: [String: String] = [:]

        mutating func set(_ name: String, _ value: String) {
            for existing in fields.keys where existing.caseInsensitiveCompare(name) == .orderedSame {
                fields[existing] = nil
            }
            fields[name] = value
        }
    }
}

extension CacheEntry {
    /// Seconds since the entry was stored; negative when the clock was set back.
    fileprivate func age(at now: Date) -> Double {
        now.timeIntervalSince(date)
    }
}
