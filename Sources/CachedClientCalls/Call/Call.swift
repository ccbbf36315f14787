import CachedClientStore
@_spi(Generated) import CachedClientValues
import Foundation

/// Everything one call of a cached endpoint needs, computed once when it starts.
package struct Call: Sendable {
    package let endpoint: Endpoint
    package let request: EndpointRequest
    package let rule: CacheRule
    package let body: Data?
    package let key: CacheKey
    /// `writes.generation` when the call started; a removal after it keeps the call's
    /// answer out of memory and the store.
    package let generation: UInt64
    /// What the in-memory layer held for the key when the call started.
    package let held: MemoryLayer.Held?
    /// The client's partition when the call started.
    package let partition: String?
    /// `partitionState.switches` when the call started.
    package let partitionSwitches: UInt64
    /// The store's `removalCount` when the call started: a removal anywhere after it that
    /// covers the key (or of which the store cannot say what it covered) keeps the call's
    /// answer out of memory and the store.
    package let storeRemovals: UInt64
    /// Whether a stored value could be shown now if the network fails, so the call must
    /// not wait for retries (see `RetryPolicy`).
    package var cacheAtHand = false

    /// The memberwise initializer, for the package's other modules (a write-back of the
    /// mutation layer's replaced entities).
    package init(
        endpoint: Endpoint, request: EndpointRequest, rule: CacheRule, body: Data?, key: CacheKey, generation: UInt64,
        held: MemoryLayer.Held?, partition: String?, partitionSwitches: UInt64, storeRemovals: UInt64
    ) {
        self.endpoint = endpoint
        self.request = request
        self.rule = rule
        self.body = body
        self.key = key
        self.generation = generation
        self.held = held
        self.partition = partition
        self.partitionSwitches = partitionSwitches
        self.storeRemovals = storeRemovals
    }

    /// The call that reads or writes the links kept beside this call's answer, with what
    /// the in-memory layer `held` for them.
    package func links(held: MemoryLayer.Held?) -> Call {
        Call(
            endpoint: endpoint, request: request, rule: rule, body: nil, key: LinkFollower.linksKey(of: key),
            generation: generation, held: held, partition: partition, partitionSwitches: partitionSwitches,
            storeRemovals: storeRemovals)
    }
}
