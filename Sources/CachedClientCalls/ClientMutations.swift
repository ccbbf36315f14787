import CachedClientStore
@_spi(Generated) import CachedClientValues
import Foundation

/// What the policy switch and housekeeping need of the mutation layer above the call path
/// (`CachedClientMutations`: the outbox and its replay, optimistic changes, the entities
/// mutations' answers replaced), which nothing in this target can name. A `CachedClient` holds
/// one, made by its public initializer; `client` is always the client that holds it.
package protocol ClientMutations: AnyObject, Sendable {
    /// Answers an uncached endpoint through `client` (always the network, never the store):
    /// after a 2xx answer its invalidations run, the entities of its answer are put in place
    /// and the optimistic changes of the call running it, if any, are settled.
    func response<T: Decodable & Sendable>(
        for request: EndpointRequest, endpoint: Endpoint, as type: T.Type, invalidating invalidations: [Invalidation],
        on client: CachedClient
    ) async throws -> T

    /// Sends the queued mutations of `client`'s partition in the background: its partition
    /// changed, the network is back, or the client was made.
    func startReplay(on client: CachedClient)

    /// The entries of `partition` (every partition when `nil`) are about to be removed: what
    /// the layer remembers for them (replaced entities, answers not read yet) is forgotten.
    func forget(partition: String?)

    /// The entries of `partition` (every partition when `nil`) were removed: its queued
    /// mutations go with them, their optimistic changes rolled back.
    func removeQueuedMutations(partition: String?, on client: CachedClient) async
}
