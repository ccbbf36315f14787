@_spi(Generated) import CachedClientCalls
import CachedClientStore
@_spi(Generated) import CachedClientValues
import Foundation

// Identity: a mutation's answer that is a `CachedEntity` (or an array of them) replaces the
// versions of those entities in every cached value of the signed-in user's partition that
// the client holds, so one entity edited is shown edited everywhere.
extension MutationLayer {
    /// Replaces `entities`, by their identity, in the cached values of the current partition
    /// (and shared ones) this client holds: the entries of its in-memory layer and those its
    /// live queries show. Each changed entry is written back to the store with its date (as an
    /// answer is, so a removal since wins), and the live queries showing it read it again (no
    /// network). A value that does not decode as the entity's type where the id matches is
    /// left as it is.
    ///
    /// The entities are also remembered (`replacedEntities`), so that an entry of the
    /// partition read later from the store, stored before now, shows them as well.
    package func replaceEntities(_ entities: [any CachedEntity], coding: JSONCoding, on client: CachedClient) async {
        await replaceEntities(entities, coding: coding, answeredIn: client.partition, at: client.now(), on: client)
    }

    /// Replaces `entities` from an answer received for `answerPartition` at `date`: remembered
    /// for that partition's entries read later, and put in the values this client holds when
    /// that partition is still the current one.
    package func replaceEntities(
        _ entities: [any CachedEntity], coding: JSONCoding, answeredIn answerPartition: String?, at date: Date,
        on client: CachedClient
    ) async {
        let replacements = entities.compactMap { EntityReplacement($0, coding: coding) }
        guard !replacements.isEmpty else { return }
        // Removals from here on win over these writes, as over any answer.
        let generation = client.writes.generation
        let storeRemovals = client.store.removalCount
        let state = client.partitionState
        // Entries read later from the store, stored before the answer, get them too.
        replacedEntities.remember(replacements, partition: answerPartition, at: date)
        guard state.partition == answerPartition else { return }
        let inPartition = { (key: CacheKey) in key.partition == nil || key.partition == state.partition }
        let entries = await client.reader.heldEntries(where: inPartition, andOf: client.queries.keys, removals: storeRemovals)
        var changed: Set<String> = []
        for (text, held) in entries {
            guard let body = EntityReplacement.apply(replacements, to: held.entry.body),
                let value = try? JSONDecoder().decode(JSONValue.self, from: body)
            else { continue }
            let entry = CacheEntry(
                body: body, date: held.entry.date, etag: held.entry.etag, lastModified: held.entry.lastModified,
                freshness: held.entry.freshness)
            let scope: CacheScope = held.key.partition == nil ? .shared : .user
            let call = CachedClient.Call(
                endpoint: Endpoint(name: held.key.endpoint, cache: nil), request: EndpointRequest(method: "GET", path: held.key.path),
                rule: CacheRule(ttl: 0, maxStale: 0, scope: scope), body: nil, key: held.key, generation: generation, held: nil,
                partition: held.key.partition ?? state.partition, partitionSwitches: state.switches, storeRemovals: storeRemovals)
            client.writer.write(entry, call, value: value, reportingStore: false)
            changed.insert(text)
        }
        if !changed.isEmpty { client.queries.entitiesReplaced(changed) }
    }
}

extension MutationLayer {
    /// Tells the layer that the answers of `endpoint`, a mutation marked `"offline": "queue"`,
    /// are `type`, so that a replay reads the entities (`CachedEntity`) in them and replaces
    /// them everywhere, even when the endpoint was not called in this process (a mutation
    /// queued before a relaunch). Generated repositories call it (through the client) when they
    /// are created; the answers a replay received before are read now, by the task returned
    /// (`nil` when there are none).
    @discardableResult
    package func readsEntities<T: Decodable & Sendable>(
        of endpoint: Endpoint, as type: T.Type, on client: CachedClient
    ) -> Task<Void, Never>? {
        let reader = EntityReader.reader(for: type, coding: endpoint.coding)
        let kept = entityReaders.register(reader, for: endpoint.name)
        guard let reader, !kept.isEmpty else { return nil }
        return Task {
            for answer in kept {
                await replaceEntities(
                    reader.entities(in: answer.body), coding: reader.coding, answeredIn: answer.partition, at: answer.date,
                    on: client)
            }
        }
    }
}
