import CachedClientHTTP
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues
import Foundation

/// The one object generated repositories call: it sends an endpoint's request, applies the
/// endpoint's cache policy and says whether the answer is fresh or how old it is.
///
/// What an app may rely on:
/// - Only response bodies and what the server said about their freshness (date, `ETag`,
///   `Last-Modified`, `Cache-Control`, `Expires`, `Age`) are stored. Request headers (the
///   `headers` provider's Authorization, cookies, API keys), `Set-Cookie`, answers marked
///   `Cache-Control: no-store` and anything of a `cache: false` endpoint never are.
/// - A store that fails to read or write never fails a call the network can serve; the
///   failure is an `.error` event.
/// - Concurrent calls with the same key that need the network share one request; a caller
///   that is cancelled stops waiting without cancelling the others.
/// - Repeated hits are answered from memory (`memoryCacheLimit`), judged by the same dates
///   as the store's entries, so the in-memory layer changes no answer.
/// - Calls return before their answer is written to the store; this client reads its own
///   writes at once, other clients and processes once they land (`flush()` waits for that).
/// - Removals (`removeAll…`, a mutation's invalidations) are never undone by an answer or a
///   write that was on its way.
public final class CachedClient: Sendable {
    /// The root every request path is appended to; part of every key, so staging never
    /// serves production data.
    public let baseURL: URL
    /// Where entries live. Not handed out: removals go through the client, which also
    /// clears memory and the writes on their way.
    package let store: any CacheStore

    package let sender: RequestSender
    package let now: @Sendable () -> Date
    package let events: @Sendable (CacheEvent) -> Void
    /// Decoded values of recently used entries.
    package let memory: MemoryLayer
    /// Answers on their way to the store, and the removals they must not undo.
    package let writes: WriteBehind
    /// `staleWhileRevalidate` refreshes running in the background, one per key.
    package let refreshes = Locked<[CallFetcher.FlightKey: Task<Void, Never>]>([:])
    /// The live queries over this client, told of removals, partition switches, stored
    /// answers and the app's lifecycle signals.
    package let queries: QueryRegistry
    /// The signed-in user, and how many times it was set: a call joins only fetches that
    /// started under the same user and after the same removals.
    private let currentPartition: Locked<PartitionState>
    /// `baseURL` in the form keys hold, worked out once rather than on every call.
    package let canonicalBase: String
    /// How requests are collapsed with other processes through a `CacheStoreLeasing` store.
    package let collapsing: RequestCollapsing
    /// The outbox of offline writes for the signed-in user, and what may be sent next.
    package let mutationQueue: MutationQueue
    /// When queued mutations are sent again.
    package let offlineReplay: OfflineReplay
    /// Optimistic changes pending on cached values, and the queued mutations carrying them.
    package let optimistic = OptimisticLayer()
    /// The prefetch jobs running, and the plans of a store that keeps none (`CachedClient+Prefetch.swift`).
    package let prefetches = PrefetchRegistry()
    /// How the answer of each queued endpoint is read for entities (`CachedEntity`), by
    /// endpoint name, for when it is sent by a replay.
    package let entityReaders = EntityReaderRegistry()
    /// The entities mutations' answers replaced, per partition, for entries read later from
    /// the store (the last 1,000).
    package let replacedEntities: EntityReplacementLog

    // The stages of a call, in order (`Call/`): what is stored, the network, what is kept.
    /// Reads what is stored for a call; never writes.
    package let reader: CallReader
    /// One network round trip for all callers of a key, decoded, handed to the writer.
    package let fetcher: CallFetcher
    /// Keeps answers: memory, the live queries, the store behind the call.
    package let writer: CallWriter
    /// Where the stages report events.
    package let callEvents: CallEvents

    /// The most body bytes the in-memory layer holds, whatever `memoryCacheLimit` says, so
    /// that a few large lists cannot take an app's memory.
    public static let memoryCacheByteLimit = 8 << 20

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - baseURL: the root every request path is appended to, such as
    ///     `https://api.example.com/v1`; part of every key.
    ///   - store: where entries live; in memory unless the app passes a `FileCacheStore`.
    ///   - transport: how requests are sent; the seam for tests and custom stacks.
    ///   - partition: the signed-in user, so that user-scoped entries of one user are
    ///     never shown to another.
    ///   - headers: asked for on every request (not once), so an expiring token is
    ///     always current; never stored. An error it throws other than cancellation
    ///     counts as a transport failure and may fall back to the cache, because its
    ///     usual cause is a token refresh that failed offline.
    ///   - middleware: sees and may change every request and response, first one outermost
    ///     (see `ClientMiddleware`; `Authenticator` refreshes an expired credential).
    ///   - retry: how transient failures are retried (see `RetryPolicy`).
    ///   - now: the clock entry ages are measured with; injectable for tests.
    ///   - events: receives every `CacheEvent`, for the app's logger; called synchronously,
    ///     so it should return quickly.
    ///   - memoryCacheLimit: how many entries, with their decoded values, the in-memory layer
    ///     keeps (least recently used out first, and never more than `memoryCacheByteLimit`
    ///     bytes of bodies); 0 turns it off.
    ///   - collapsing: how identical requests of many processes become one when the store
    ///     adopts `CacheStoreLeasing`; ignored otherwise.
    ///   - offline: when mutations queued by endpoints marked `"offline": "queue"` are sent
    ///     again (at launch, every 30 seconds while any wait, on `networkBecameAvailable()`);
    ///     its clock is injectable for tests.
    public init(
        baseURL: URL,
        store: any CacheStore = MemoryCacheStore(),
        transport: any HTTPTransport = URLSessionTransport(),
        partition: String? = nil,
        headers: @escaping @Sendable () async throws -> [String: String] = { [:] },
        middleware: [any ClientMiddleware] = [],
        retry: RetryPolicy = .standard,
        now: @escaping @Sendable () -> Date = { Date() },
        events: @escaping @Sendable (CacheEvent) -> Void = { _ in },
        memoryCacheLimit: Int = 100,
        collapsing: RequestCollapsing = RequestCollapsing(),
        offline: OfflineReplay = .standard
    ) {
        self.baseURL = baseURL
        self.store = store
        let sender = RequestSender(
            baseURL: baseURL, transport: transport, headers: headers, middleware: middleware, retry: retry)
        self.sender = sender
        let queries = QueryRegistry()
        self.queries = queries
        let replacedEntities = EntityReplacementLog()
        self.replacedEntities = replacedEntities
        self.now = now
        self.events = events
        let currentPartition = Locked(PartitionState(partition: partition, switches: 0))
        self.currentPartition = currentPartition
        let memory = MemoryLayer(limit: memoryCacheLimit, byteLimit: Self.memoryCacheByteLimit) {
            store.removals(since: $0)
        }
        self.memory = memory
        let writes = WriteBehind { store.removals(since: $0) }
        self.writes = writes
        self.canonicalBase = CacheKey.canonicalBase(baseURL)
        self.collapsing = collapsing
        let callEvents = CallEvents(handler: events, store: store)
        self.callEvents = callEvents
        let reader = CallReader(
            store: store, memory: memory, writes: writes, replacedEntities: replacedEntities, now: now, events: callEvents)
        let writer = CallWriter(
            store: store, memory: memory, writes: writes, queries: queries,
            partition: { currentPartition.withLock { $0.partition } }, now: now, events: callEvents)
        self.reader = reader
        self.writer = writer
        self.fetcher = CallFetcher(
            merger: RequestMerger(), collapsing: collapsing, store: store, sender: sender, reader: reader, writer: writer,
            now: now, events: callEvents)
        self.mutationQueue = MutationQueue(store: store)
        self.offlineReplay = offline
        if offline.replaysAtLaunch { startReplay() }
    }

    /// The signed-in user; user-scoped entries are stored and looked up under it.
    public var partition: String? {
        currentPartition.withLock { $0.partition }
    }

    /// The partition and the number of switches so far, read together.
    package var partitionState: PartitionState {
        currentPartition.withLock { $0 }
    }

    /// The signed-in user and how many times it was set. A struct, not a tuple: a tuple as a
    /// generic argument costs a run-time metadata lookup on every call.
    package struct PartitionState: Sendable {
        package var partition: String?
        package var switches: UInt64
    }

    /// Switches user (or signs out with `nil`); later calls use the new partition and never
    /// join a request that started before the switch, and an answer still in flight for the
    /// old one is returned but not stored. `""` is a user like any other, never the same as
    /// signed out.
    ///
    /// Removing the old user's entries is a separate, explicit step:
    /// `try await client.removeAll(partition: old)`. Decoded values of other partitions
    /// leave memory at once.
    public func setPartition(_ partition: String?) {
        currentPartition.withLock { $0 = PartitionState(partition: partition, switches: $0.switches + 1) }
        memory.removeAll { key in key.partition != nil && key.partition != partition }
        queries.broadcast(.partitionChanged)
        startReplay()
    }

    // MARK: - Entry points called by generated code

    /// Answers a cached endpoint according to `policy` (the spec's default when `nil`).
    ///
    /// An endpoint without a cache rule is simply fetched and never touches the store.
    @_spi(Generated)
    public func value<T: Decodable & Sendable>(
        for request: EndpointRequest, endpoint: Endpoint, policy: CachePolicy? = nil, as type: T.Type = T.self
    ) async throws -> CachedValue<T> {
        let probe = QueryProbe.current
        if let probe, probe.capturesCalls { try probe.capture(request, endpoint: endpoint) }  // `PrefetchCall`
        guard let rule = endpoint.cache else {
            return .fresh(value: try await response(for: request, endpoint: endpoint, as: type))
        }
        let call = try makeCall(request, endpoint: endpoint, rule: rule)
        if let probe { probe.record(queryRecord(call)) }
        let answer = try await answer(call, policy: policy ?? rule.policy, probe: probe, as: type)
        // Pending optimistic changes show in every read of the key; a live query applies them
        // to what it shows itself.
        guard probe == nil, !optimistic.isEmpty else { return answer }
        return withPendingChanges(answer, key: call.key)
    }

    /// The answer of a cached call by `policy`.
    // Always inlined into its one caller: as a function of its own, called unspecialized from
    // generated code, it costs a hit a second lookup of `CachedValue<T>`'s metadata and a copy of
    // the call into its frame (about 600 instructions, 4% of a hit in memory).
    @inline(__always)
    private func answer<T: Decodable & Sendable>(
        _ call: Call, policy: CachePolicy, probe: QueryProbe?, as type: T.Type
    ) async throws -> CachedValue<T> {
        let rule = call.rule
        let endpoint = call.endpoint
        switch policy {
        case .networkOnly:
            let fetched = try await fetcher.shared(call, validating: nil, as: type)
            probe?.recordFreshness(fetched.freshness, of: self, call.key)
            return .fresh(value: fetched.value)

        case .networkFirst:
            let entry = await reader.entry(call, writingBackWith: writer)
            return try await networkFirst(call, entry: entry, probe: probe, as: type)

        case .cacheFirst:
            var entry = await reader.entry(call, writingBackWith: writer)
            if let stored = entry {
                let time = now()
                if rule.isFresh(stored, at: time) {
                    // A value the in-memory layer decoded before answers without another await.
                    let held = call.held?.value(as: type, decodedFrom: stored)
                    if let value = held != nil ? held : await writer.decodeStored(stored, call, as: type) {
                        emit(.hit, call, age: stored.age(at: time))
                        probe?.recordFreshness(stored.freshness, of: self, call.key)
                        return .cached(value: value, date: stored.date)
                    }
                    entry = nil
                }
            }
            // The server's stale-while-revalidate window (`ttl: "server"` only).
            if let stored = entry, rule.allowsBackgroundRevalidation(of: stored, at: now()) {
                if let value = await writer.decodeStored(stored, call, as: type) {
                    emit(.stale, call, age: stored.age(at: now()))
                    startRefresh(call, entry: stored, as: type)
                    probe?.recordFreshness(stored.freshness, of: self, call.key)
                    return .cached(value: value, date: stored.date)
                }
                entry = nil
            }
            emit(.miss, call, age: entry?.age(at: now()))
            return try await networkFirst(call, entry: entry, missReported: true, probe: probe, as: type)

        case .staleWhileRevalidate:
            var entry = await reader.entry(call, writingBackWith: writer)
            if let stored = entry, isShowable(stored, rule) {
                if let value = await writer.decodeStored(stored, call, as: type) {
                    emitUse(stored, call)
                    startRefresh(call, entry: stored, as: type)
                    probe?.recordFreshness(stored.freshness, of: self, call.key)
                    return .cached(value: value, date: stored.date)
                }
                entry = nil
            }
            emit(.miss, call, age: entry?.age(at: now()))
            return try await networkFirst(call, entry: entry, missReported: true, probe: probe, as: type)

        case .cacheOnly:
            let entry = await reader.entry(call, writingBackWith: writer)
            if let stored = entry, isShowable(stored, rule), let value = await writer.decodeStored(stored, call, as: type) {
                emitUse(stored, call)
                probe?.recordFreshness(stored.freshness, of: self, call.key)
                return .cached(value: value, date: stored.date)
            }
            emit(.miss, call, age: entry?.age(at: now()))
            throw CachedClientError.notCached(endpoint: endpoint.name)
        }
    }

    /// Answers a `cache: false` endpoint: always the network, never the store, so a
    /// payment or a profile is exact and never on disk.
    ///
    /// After a 2xx answer the entries `invalidating` names are removed (even if the body
    /// then fails to decode: the server did change the data), so no screen shows what the
    /// call changed; a removal that fails is an `.error` event, never a failed call.
    @_spi(Generated)
    public func response<T: Decodable & Sendable>(
        for request: EndpointRequest, endpoint: Endpoint, as type: T.Type = T.self,
        invalidating invalidations: [Invalidation] = []
    ) async throws -> T {
        let reader = EntityReader.reader(for: type, coding: endpoint.coding)
        let body = try await mutate(request, endpoint: endpoint, invalidating: invalidations, reading: reader)
        return try endpoint.decode(type, from: body)
    }

    /// Calls an endpoint that returns no body; only the status matters. After a 2xx answer
    /// the entries `invalidating` names are removed, as for `response(for:endpoint:as:invalidating:)`.
    @_spi(Generated)
    public func perform(
        _ request: EndpointRequest, endpoint: Endpoint, invalidating invalidations: [Invalidation] = []
    ) async throws {
        _ = try await mutate(request, endpoint: endpoint, invalidating: invalidations)
    }

    /// Sends an uncached request; after a 2xx answer applies `invalidations`, puts the entities
    /// `reader` finds in the answer in place, and returns the body.
    package func mutate(
        _ request: EndpointRequest, endpoint: Endpoint, invalidating invalidations: [Invalidation],
        reading reader: EntityReader? = nil
    ) async throws -> Data {
        try QueryProbe.captureIfCapturing(request, endpoint: endpoint)  // never sent by `PrefetchCall`
        let body = try endpoint.encodedBody(of: request)
        let response = try await fetcher.send(request, endpoint: endpoint, body: body, validators: nil, cacheAtHand: false)
        guard (200..<300).contains(response.statusCode) else {
            throw CachedClientError.httpStatus(response.statusCode, endpoint: endpoint.name, body: response.body)
        }
        // Invalidated even when the body turns out unreadable: the server did change the data.
        let answer = Result { try endpoint.storedBody(of: response) }
        await settleOptimisticOfCall(invalidations: invalidations) {
            await writer.apply(invalidations, after: endpoint)
            if let reader, case .success(let body) = answer {
                await replaceEntities(reader.entities(in: body), coding: reader.coding)
            }
        }
        return try answer.get()
    }

    // MARK: - Policies

    /// Fetches; on a failure `networkFirst` forgives, answers with `entry` if it is young enough.
    /// `missReported` keeps a call that already reported its miss from reporting two; `probe`
    /// is the live query's running this call, if any.
    private func networkFirst<T: Decodable & Sendable>(
        _ call: Call, entry: CacheEntry?, missReported: Bool = false, probe: QueryProbe?, as type: T.Type
    ) async throws -> CachedValue<T> {
        var call = call
        if let entry { call.cacheAtHand = call.rule.allowsFallback(to: entry, at: now()) }
        do {
            let fetched = try await fetcher.shared(call, validating: entry, as: type)
            probe?.recordFreshness(fetched.freshness, of: self, call.key)
            return .fresh(value: fetched.value)
        } catch {
            guard CallFetcher.allowsFallback(error) else { throw error }
            if let entry, call.rule.allowsFallback(to: entry, at: now()), let value = await writer.decodeStored(entry, call, as: type) {
                emit(.fallback, call, age: entry.age(at: now()), message: safeDescription(of: error))
                if let probe {
                    fetcher.noteFallback(call, error: error, in: probe)
                    probe.recordFreshness(entry.freshness, of: self, call.key)
                }
                return .cached(value: value, date: entry.date)
            }
            if !missReported { emit(.miss, call, age: entry?.age(at: now())) }
            throw error
        }
    }

    // MARK: - Background refreshes

    /// Starts the background refresh of `staleWhileRevalidate`, unless one for the key runs
    /// that started after the same removals and under the same user.
    package func startRefresh<T: Decodable & Sendable>(_ call: Call, entry: CacheEntry, as type: T.Type) {
        let flightKey = CallFetcher.FlightKey(call, type)
        refreshes.withLock { refreshes in
            guard refreshes[flightKey] == nil else { return }
            refreshes[flightKey] = Task {
                do {
                    _ = try await self.fetcher.shared(call, validating: entry, as: type)
                } catch where !CallFetcher.allowsFallback(error) && !CallFetcher.isCancellation(error) {
                    // Offline is normal here and the entry stays; a 4xx or a changed model is not.
                    self.emit(.error, call, message: "background refresh: \(self.safeDescription(of: error))")
                } catch {}
                _ = self.refreshes.withLock { $0.removeValue(forKey: flightKey) }
            }
        }
    }

    /// Waits for every background refresh started so far, and (with `flushing`) for every
    /// write started so far, theirs included; for tests, which must not sleep.
    package func waitForBackgroundRefreshes(flushing: Bool = true) async {
        while let task = refreshes.withLock({ $0.values.first }) {
            await task.value
        }
        if flushing { await flush() }
    }

    /// The number of callers waiting for a merged fetch; lets tests wait for callers to join.
    package var waitingCallerCount: Int {
        fetcher.merger.waitingCount
    }

    // MARK: - Events

    /// Reports `kind` for `call` (see `CallEvents`).
    package func emit(_ kind: CacheEvent.Kind, _ call: Call, age: Double? = nil, message: String? = nil) {
        callEvents.emit(kind, call, age: age, message: message)
    }

    /// `.hit` for an entry within `ttl`, `.stale` for an older one.
    package func emitUse(_ entry: CacheEntry, _ call: Call) {
        callEvents.emitUse(entry, call, now: now)
    }

    /// Text for an event message that never quotes a URL, a value, a body or a header.
    package func safeDescription(of error: any Error) -> String {
        callEvents.safeDescription(of: error)
    }

    /// Whether an entry may be shown at all. An entry dated in the future (the clock was
    /// set back) is of unknown age: still shown, but never counted as within `ttl`.
    package func isShowable(_ entry: CacheEntry, _ rule: CacheRule) -> Bool {
        entry.age(at: now()) < rule.maxStale
    }
}
