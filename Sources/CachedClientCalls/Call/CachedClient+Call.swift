import CachedClientStore
@_spi(Generated) import CachedClientValues
import Foundation

extension CachedClient {
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
}
