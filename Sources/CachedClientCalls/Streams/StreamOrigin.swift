import CachedClientHTTP
import CachedClientStore
@_spi(Generated) import CachedClientValues
import Foundation

// A live query over a stream (`StreamedQuery`) keeps the value it accumulated when its stream
// ends normally, so that offline the last complete answer shows with its date. The value is
// kept as any answer is, through the client's writer (memory, write-behind, store), under a key
// derived from the request's: the same endpoint, partition and path, so every removal that
// covers the request (an invalidation of the endpoint, a sign-out) covers it too, and a text no
// request makes, so a plain call of the same path never reads it nor overwrites it.

/// Where an event stream's events come from (`EventStream.origin`): the client, the request
/// and the endpoint that `CachedClient.eventStream(for:endpoint:as:)` was given.
package struct StreamOrigin: Sendable {
    package let client: CachedClient
    package let request: EndpointRequest
    package let endpoint: Endpoint

    /// The origin of the events of `request` to `endpoint` through `client`.
    package init(client: CachedClient, request: EndpointRequest, endpoint: Endpoint) {
        self.client = client
        self.request = request
        self.endpoint = endpoint
    }

    /// The rule a finished value is kept by: the endpoint's, or, for a streamed endpoint
    /// (which has none), user-scoped (a sign-out removes it) and shown offline at any age the
    /// store keeps.
    package var rule: CacheRule {
        endpoint.cache ?? CacheRule(ttl: 0, maxStale: .infinity, policy: .networkFirst, scope: .user)
    }

    /// The keeper of one run's finished value, named `name` (a query's values of different
    /// types or reducers over one request are kept apart by name). Made when the run starts,
    /// so that a removal covering the request or a change of partition while the stream runs
    /// keeps the run's value out of the store, as for any call.
    package func keeper(name: String) throws -> StreamedValueKeeper {
        let call = try client.makeCall(request, endpoint: endpoint, rule: rule)
        let key = StreamedValueKeeper.key(of: call.key, name: name)
        let valueCall = Call(
            endpoint: endpoint, request: request, rule: rule, body: nil, key: key, generation: call.generation,
            held: client.memory.lookup(key.text, removals: call.storeRemovals), partition: call.partition,
            partitionSwitches: call.partitionSwitches, storeRemovals: call.storeRemovals)
        return StreamedValueKeeper(client: client, call: valueCall)
    }
}
