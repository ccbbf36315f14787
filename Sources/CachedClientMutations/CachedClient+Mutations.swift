@_spi(Generated) import CachedClientCalls
import CachedClientHTTP
import CachedClientStore
@_spi(Generated) import CachedClientValues
import Foundation

// The client's public face for mutations: offline writes, optimistic updates and entities
// replaced by mutations' answers. Each forwards to the client's `MutationLayer`, which does
// the work above the call path.
extension CachedClient {
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
    public convenience init(
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
        let layer = MutationLayer(store: store, offline: offline, events: events)
        let sender = RequestSender(
            baseURL: baseURL, transport: transport, headers: headers, middleware: middleware, retry: retry)
        self.init(
            baseURL: baseURL, store: store, sender: sender, partition: partition, now: now, events: events,
            memoryCacheLimit: memoryCacheLimit, collapsing: collapsing, replacedEntities: layer.replacedEntities,
            mutations: layer)
        if offline.replaysAtLaunch { layer.startReplay(on: self) }
    }

    /// The client's mutation layer: the one its public initializer made.
    package var mutationLayer: MutationLayer {
        guard let layer = mutations as? MutationLayer else { preconditionFailure("a CachedClient's layer is a MutationLayer") }
        return layer
    }

    /// The mutations waiting in the outbox for the signed-in user, observable.
    public var pendingMutations: PendingMutationList {
        mutationLayer.queue.list
    }

    /// Sends the signed-in user's queued mutations now: each scope's in order, one at a
    /// time, scopes side by side; a scope stops at its first mutation that cannot reach the
    /// server (it is tried again on the timer, on `networkBecameAvailable()` or on the next
    /// call of this). Failed mutations are skipped. Returns when the replay has ended.
    /// One replay runs at a time; a call while one runs waits for another pass after it.
    public func replayPendingMutations() async {
        await mutationLayer.replayPendingMutations(on: self)
    }

    /// Sends a failed mutation again: its failure is cleared and it waits in its scope's
    /// order as before. `false` when there is no such mutation or it has not failed.
    @discardableResult
    public func retryMutation(id: String) async -> Bool {
        await mutationLayer.retryMutation(id: id, on: self)
    }

    /// Removes a mutation from the outbox without sending it (one being sent now finishes
    /// that attempt). `false` when there is no such mutation.
    @discardableResult
    public func discardMutation(id: String) async throws -> Bool {
        try await mutationLayer.discardMutation(id: id)
    }

    /// Applies `updates` at once, runs `mutation`, and keeps the updates pending until the
    /// mutation's outcome is known: every read of the changed entries through this client and
    /// every live query showing them show the changed value (queries with `hasPendingChanges`).
    ///
    /// - The first mutation queued inside `mutation` (an endpoint marked `"offline": "queue"`
    ///   that returned `.queued`) carries the updates until it is sent or fails for good,
    ///   across replays; otherwise the call's own outcome decides.
    /// - When it goes through, the updates come out and the changed entries are refetched
    ///   (those the mutation's invalidations removed already, and the others), each query
    ///   keeping the changed value on screen until the server's answer replaces it.
    /// - When it fails for good (a 4xx, an error thrown here, `discardMutation(id:)`, its
    ///   partition removed), exactly these updates are rolled back; others pending stay.
    ///
    /// Updates live in this process: after a relaunch a mutation still queued shows none.
    public func withOptimisticUpdates<Result>(
        _ updates: [OptimisticUpdate], isolation: isolated (any Actor)? = #isolation,
        _ mutation: () async throws -> Result
    ) async throws -> Result {
        try await mutationLayer.withOptimisticUpdates(updates, on: self, isolation: isolation, mutation)
    }

    /// Answers a `cache: false` endpoint: always the network, never the store, then the entries
    /// `invalidating` names are removed (see `MutationLayer.response(for:endpoint:as:invalidating:on:)`).
    @_spi(Generated)
    public func response<T: Decodable & Sendable>(
        for request: EndpointRequest, endpoint: Endpoint, as type: T.Type = T.self,
        invalidating invalidations: [Invalidation] = []
    ) async throws -> T {
        try await mutationLayer.response(for: request, endpoint: endpoint, as: type, invalidating: invalidations, on: self)
    }

    /// Calls an endpoint that returns no body; only the status matters. After a 2xx answer
    /// the entries `invalidating` names are removed, as for `response(for:endpoint:as:invalidating:)`.
    @_spi(Generated)
    public func perform(
        _ request: EndpointRequest, endpoint: Endpoint, invalidating invalidations: [Invalidation] = []
    ) async throws {
        _ = try await mutationLayer.mutate(request, endpoint: endpoint, invalidating: invalidations, on: self)
    }

    /// Sends a mutation of an endpoint marked `"offline": "queue"`, or keeps it in the outbox:
    /// `.queued` (see `MutationLayer.queueableResponse(for:endpoint:as:invalidating:on:)`).
    @_spi(Generated)
    public func queueableResponse<T: Decodable & Sendable>(
        for request: EndpointRequest, endpoint: Endpoint, as type: T.Type = T.self,
        invalidating invalidations: [Invalidation] = []
    ) async throws -> MutationResult<T> {
        try await mutationLayer.queueableResponse(for: request, endpoint: endpoint, as: type, invalidating: invalidations, on: self)
    }

    /// `queueableResponse(for:endpoint:as:invalidating:)` for an endpoint that returns no body.
    @_spi(Generated)
    public func queueablePerform(
        _ request: EndpointRequest, endpoint: Endpoint, invalidating invalidations: [Invalidation] = []
    ) async throws -> MutationResult<Void> {
        try await mutationLayer.queueablePerform(request, endpoint: endpoint, invalidating: invalidations, on: self)
    }

    /// Tells the client that the answers of `endpoint` (marked `"offline": "queue"`) are `type`, so
    /// that a replay reads their entities (see `MutationLayer.readsEntities(of:as:on:)`).
    @_spi(Generated)
    @discardableResult
    public func readsEntities<T: Decodable & Sendable>(of endpoint: Endpoint, as type: T.Type) -> Task<Void, Never>? {
        mutationLayer.readsEntities(of: endpoint, as: type, on: self)
    }
}
