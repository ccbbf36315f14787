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
    /// Decoded values of recently used entries.
    package let memory: MemoryLayer
    /// Answers on their way to the store, and the removals they must not undo.
    package let writes: WriteBehind
    /// `staleWhileRevalidate` refreshes running in the background, one per key.
    package let refreshes = BackgroundRefreshes()
    /// The live queries over this client, told of removals, partition switches, stored
    /// answers and the app's lifecycle signals.
    package let queries: QueryRegistry
    /// The signed-in user, and how many times it was set: a call joins only fetches that
    /// started under the same user and after the same removals.
    private let currentPartition: Locked<PartitionState>
    /// `baseURL` in the form keys hold, worked out once rather than on every call.
    package let canonicalBase: String
    /// Optimistic changes pending on cached values, applied by every read (the mutation layer
    /// adds and takes them out).
    package let optimistic = PendingChanges()
    /// The layer above the call path: offline writes and their replay, optimistic updates,
    /// entities replaced by mutations' answers (`CachedClientMutations`).
    package let mutations: any ClientMutations
    /// The prefetch jobs running, and the plans of a store that keeps none (`Prefetcher`).
    package let prefetches = PrefetchRegistry()

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

    /// Creates a client with its mutation layer (`mutations`) and the entities that layer
    /// remembers for the reader (`replacedEntities`); the public initializer
    /// (`CachedClient+Mutations.swift`) makes them and the sender, and starts the launch replay.
    package init(
        baseURL: URL, store: any CacheStore, sender: RequestSender, partition: String?, now: @escaping @Sendable () -> Date,
        events: @escaping @Sendable (CacheEvent) -> Void, memoryCacheLimit: Int, collapsing: RequestCollapsing,
        replacedEntities: any EntityReplacing, mutations: any ClientMutations
    ) {
        self.baseURL = baseURL
        self.store = store
        self.sender = sender
        self.now = now
        queries = QueryRegistry()
        let currentPartition = Locked(PartitionState(partition: partition, switches: 0))
        self.currentPartition = currentPartition
        memory = MemoryLayer(limit: memoryCacheLimit, byteLimit: Self.memoryCacheByteLimit) { store.removals(since: $0) }
        writes = WriteBehind { store.removals(since: $0) }
        canonicalBase = CacheKey.canonicalBase(baseURL)
        callEvents = CallEvents(handler: events, store: store)
        reader = CallReader(
            store: store, memory: memory, writes: writes, replacedEntities: replacedEntities, now: now, events: callEvents)
        writer = CallWriter(
            store: store, memory: memory, writes: writes, queries: queries,
            partition: { currentPartition.withLock { $0.partition } }, now: now, events: callEvents)
        fetcher = CallFetcher(
            merger: RequestMerger(), collapsing: collapsing, store: store, sender: sender, reader: reader, writer: writer,
            now: now, events: callEvents)
        self.mutations = mutations
    }

    /// The signed-in user; user-scoped entries are stored and looked up under it.
    public var partition: String? {
        currentPartition.withLock { $0.partition }
    }

    /// The partition and the number of switches so far, read together.
    package var partitionState: PartitionState {
        currentPartition.withLock { $0 }
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
        mutations.startReplay(on: self)
    }

    /// A call of a cached endpoint (the stages name it `CachedClient.Call`).
    package typealias Call = CachedClientCalls.Call

    /// Encodes the body once and builds the key; the body digest is part of it only when
    /// the body is declared a key.
    package func makeCall(_ request: EndpointRequest, endpoint: Endpoint, rule: CacheRule) throws -> Call {
        let body = try endpoint.encodedBody(of: request)
        let state = partitionState
        let partition = state.partition
        let partitionSwitches = state.switches
        let (text, keyPartition) = CacheKey.canonicalText(
            endpoint: endpoint, request: request, canonicalBase: endpoint.server ?? canonicalBase,
            bodyDigest: try endpoint.bodyDigest(of: request, encoded: body),
            partition: partition)
        // The generation first: a removal between the two reads then makes the held value's
        // generation older, never newer, than the call's.
        let generation = writes.generation
        let storeRemovals = store.removalCount
        let held = memory.lookup(text, removals: storeRemovals)
        // The same text always makes the same key; the held one has its digest already.
        let key = held?.key ?? CacheKey(text: text, endpoint: endpoint.name, partition: keyPartition, path: request.groupPath)
        return Call(
            endpoint: endpoint, request: request, rule: rule, body: body, key: key, generation: generation, held: held,
            partition: partition, partitionSwitches: partitionSwitches, storeRemovals: storeRemovals)
    }

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
            let value = try await mutations.response(for: request, endpoint: endpoint, as: type, invalidating: [], on: self)
            return .fresh(value: value)
        }
        let call = try makeCall(request, endpoint: endpoint, rule: rule)
        if let probe { probe.record(QueryProbe.Record(call, client: self)) }
        let answer = try await answer(call, policy: policy ?? rule.policy, probe: probe, as: type)
        // Pending optimistic changes show in every read of the key; a live query applies them
        // to what it shows itself.
        guard probe == nil, !optimistic.isEmpty else { return answer }
        return optimistic.applied(to: answer, key: call.key)
    }

    // Streams and pages: each entry point hands the work to a type of its own (`UpdatesStream`,
    // `EventStreamReader`, `LinkFollower`).
    /// The cached value first (if one within `maxStale` exists), then the fresh one, so a screen
    /// shows something at once (see `UpdatesStream` for when it throws and when it ends).
    @_spi(Generated)
    public func updates<T: Decodable & Sendable>(
        for request: EndpointRequest, endpoint: Endpoint, as type: T.Type = T.self
    ) -> AsyncThrowingStream<CachedValue<T>, any Error> {
        UpdatesStream(client: self).updates(for: request, endpoint: endpoint, as: type)
    }

    /// The events of a streamed endpoint, each record decoded as `T`; never cached, sent only
    /// when the sequence is iterated (see `EventStreamReader` for connecting again).
    @_spi(Generated)
    public func eventStream<T: Decodable & Sendable>(
        for request: EndpointRequest, endpoint: Endpoint, as type: T.Type = T.self
    ) -> EventStream<T> {
        var stream = EventStreamReader(sender: sender).events(for: request, endpoint: endpoint, as: type)
        // A `StreamedQuery` over this stream keeps its finished value through this client.
        stream.origin = StreamOrigin(client: self, request: request, endpoint: endpoint)
        return stream
    }

    /// The pages of an endpoint that pages by `Link` header, each a cached call, followed only
    /// under `baseURL` (see `LinkFollower`).
    @_spi(Generated)
    public func linkedPages<T: Decodable & Sendable>(
        for request: EndpointRequest, endpoint: Endpoint, policy: CachePolicy? = nil, as type: T.Type = T.self
    ) -> CachedPages<T> {
        LinkFollower(client: self).pages(for: request, endpoint: endpoint, policy: policy, as: type)
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
                        callEvents.emit(.hit, call, age: stored.age(at: time))
                        probe?.recordFreshness(stored.freshness, of: self, call.key)
                        return .cached(value: value, date: stored.date)
                    }
                    entry = nil
                }
            }
            // The server's stale-while-revalidate window (`ttl: "server"` only).
            if let stored = entry, rule.allowsBackgroundRevalidation(of: stored, at: now()) {
                if let value = await writer.decodeStored(stored, call, as: type) {
                    callEvents.emit(.stale, call, age: stored.age(at: now()))
                    refreshes.start(call, entry: stored, as: type, fetcher: fetcher, events: callEvents)
                    probe?.recordFreshness(stored.freshness, of: self, call.key)
                    return .cached(value: value, date: stored.date)
                }
                entry = nil
            }
            callEvents.emit(.miss, call, age: entry?.age(at: now()))
            return try await networkFirst(call, entry: entry, missReported: true, probe: probe, as: type)

        case .staleWhileRevalidate:
            var entry = await reader.entry(call, writingBackWith: writer)
            if let stored = entry, rule.allowsShowing(stored, at: now()) {
                if let value = await writer.decodeStored(stored, call, as: type) {
                    callEvents.emitUse(stored, call, now: now)
                    refreshes.start(call, entry: stored, as: type, fetcher: fetcher, events: callEvents)
                    probe?.recordFreshness(stored.freshness, of: self, call.key)
                    return .cached(value: value, date: stored.date)
                }
                entry = nil
            }
            callEvents.emit(.miss, call, age: entry?.age(at: now()))
            return try await networkFirst(call, entry: entry, missReported: true, probe: probe, as: type)

        case .cacheOnly:
            let entry = await reader.entry(call, writingBackWith: writer)
            if let stored = entry, rule.allowsShowing(stored, at: now()), let value = await writer.decodeStored(stored, call, as: type) {
                callEvents.emitUse(stored, call, now: now)
                probe?.recordFreshness(stored.freshness, of: self, call.key)
                return .cached(value: value, date: stored.date)
            }
            callEvents.emit(.miss, call, age: entry?.age(at: now()))
            throw CachedClientError.notCached(endpoint: endpoint.name)
        }
    }

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
                callEvents.emit(.fallback, call, age: entry.age(at: now()), message: callEvents.safeDescription(of: error))
                if let probe {
                    fetcher.noteFallback(call, error: error, in: probe)
                    probe.recordFreshness(entry.freshness, of: self, call.key)
                }
                return .cached(value: value, date: entry.date)
            }
            if !missReported { callEvents.emit(.miss, call, age: entry?.age(at: now())) }
            throw error
        }
    }
}
