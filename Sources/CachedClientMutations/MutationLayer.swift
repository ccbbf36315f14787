@_spi(Generated) import CachedClientCalls
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues
import Foundation

/// The mutation layer of one client, above its call path: the outbox of offline writes and
/// its replay (`MutationQueue`, `OfflineReplay`), optimistic changes and the mutations carrying
/// them (`OptimisticGroup`), and the entities mutations' answers replaced (`EntityReplacementLog`,
/// `EntityReaderRegistry`). `CachedClient`'s public mutation API forwards here
/// (`CachedClient+Mutations.swift`); the call path reaches it only through its seams
/// (`ClientMutations`, `EntityReplacing`).
///
/// It holds no client: each operation is given the client that holds the layer, and a task it
/// starts holds that client weakly, as the client's own tasks do.
package final class MutationLayer: ClientMutations {
    /// The outbox of offline writes for the signed-in user, and what may be sent next.
    package let queue: MutationQueue
    /// When queued mutations are sent again.
    package let offlineReplay: OfflineReplay
    /// How the answer of each queued endpoint is read for entities (`CachedEntity`), by
    /// endpoint name, for when it is sent by a replay.
    package let entityReaders = EntityReaderRegistry()
    /// The entities mutations' answers replaced, per partition, for entries read later from
    /// the store (the last 1,000); the client's reader asks it (`EntityReplacing`).
    package let replacedEntities = EntityReplacementLog()
    /// The optimistic group each queued mutation carries, by mutation id, until it is sent or
    /// fails for good.
    private let carried = Locked<[String: OptimisticGroup]>([:])
    /// The app's event handler, for the mutations' events.
    private let events: @Sendable (CacheEvent) -> Void

    /// A layer over `store`'s outbox (or a private one in memory when the store keeps none).
    package init(store: any CacheStore, offline: OfflineReplay, events: @escaping @Sendable (CacheEvent) -> Void) {
        queue = MutationQueue(store: store)
        offlineReplay = offline
        self.events = events
    }

    // MARK: - Uncached mutations

    /// Answers a `cache: false` endpoint: always the network, never the store, so a
    /// payment or a profile is exact and never on disk.
    ///
    /// After a 2xx answer the entries `invalidating` names are removed (even if the body
    /// then fails to decode: the server did change the data), so no screen shows what the
    /// call changed; a removal that fails is an `.error` event, never a failed call. The
    /// entities of the answer are put in place, and the call's optimistic changes settled.
    package func response<T: Decodable & Sendable>(
        for request: EndpointRequest, endpoint: Endpoint, as type: T.Type, invalidating invalidations: [Invalidation],
        on client: CachedClient
    ) async throws -> T {
        let reader = EntityReader.reader(for: type, coding: endpoint.coding)
        let body = try await mutate(request, endpoint: endpoint, invalidating: invalidations, reading: reader, on: client)
        return try endpoint.decode(type, from: body)
    }

    /// Sends an uncached request; after a 2xx answer applies `invalidations`, puts the entities
    /// `reader` finds in the answer in place, and returns the body.
    package func mutate(
        _ request: EndpointRequest, endpoint: Endpoint, invalidating invalidations: [Invalidation],
        reading reader: EntityReader? = nil, on client: CachedClient
    ) async throws -> Data {
        try QueryProbe.captureIfCapturing(request, endpoint: endpoint)  // never sent by `PrefetchCall`
        let body = try endpoint.encodedBody(of: request)
        let response = try await client.fetcher.send(
            request, endpoint: endpoint, body: body, validators: nil, cacheAtHand: false)
        guard (200..<300).contains(response.statusCode) else {
            throw CachedClientError.httpStatus(response.statusCode, endpoint: endpoint.name, body: response.body)
        }
        // Invalidated even when the body turns out unreadable: the server did change the data.
        let answer = Result { try endpoint.storedBody(of: response) }
        await settleOptimisticOfCall(invalidations: invalidations) {
            await client.writer.apply(invalidations, after: endpoint)
            if let reader, case .success(let body) = answer {
                await replaceEntities(reader.entities(in: body), coding: reader.coding, on: client)
            }
        }
        return try answer.get()
    }

    // MARK: - Removals

    /// Forgets the replaced entities and the unread answers of `partition` (every one when
    /// `nil`), before its entries are removed.
    package func forget(partition: String?) {
        if let partition {
            replacedEntities.forget(partition: partition)
            entityReaders.dropUnread(partition: partition)
        } else {
            replacedEntities.forgetAll()
            entityReaders.dropAllUnread()
        }
    }

    // MARK: - Events

    /// Reports `kind` for a queued mutation.
    package func emitMutation(_ kind: CacheEvent.Kind, _ mutation: QueuedMutation, message: String? = nil) {
        emitMutation(kind, id: mutation.id, endpoint: mutation.endpoint, message: message)
    }

    /// Reports `kind` for the mutation `id` of `endpoint`.
    package func emitMutation(_ kind: CacheEvent.Kind, id: String, endpoint: String, message: String? = nil) {
        events(CacheEvent(kind: kind, endpoint: endpoint, key: id, message: message))
    }

    // MARK: - Carried optimistic groups

    /// Holds the group of the queued mutation `id` until it is sent or fails for good.
    package func track(_ group: OptimisticGroup, mutation id: String) {
        carried.withLock { $0[id] = group }
    }

    /// The group of mutation `id`, no longer held.
    package func takeGroup(mutation id: String) -> OptimisticGroup? {
        carried.withLock { $0.removeValue(forKey: id) }
    }
}
