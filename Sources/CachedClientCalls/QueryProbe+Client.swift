import CachedClientStore
import Foundation

// What a probe's records ask of the client that made their call.
extension QueryProbe.Record {
    /// The record of `call`, made by `client`, with the state it started under.
    package init(_ call: Call, client: CachedClient) {
        self.init(
            client: client, key: call.key, rule: call.rule, generation: call.generation,
            partitionSwitches: call.partitionSwitches, storeRemovals: call.storeRemovals)
    }

    /// Whether no removal through the client covered the record's key since its call started
    /// and, for a user-scoped endpoint, the partition did not change.
    package var isCurrent: Bool {
        guard client.writes.isCurrent(key, since: generation) else { return false }
        return rule.scope != .user || client.partitionState.switches == partitionSwitches
    }
}
