@_spi(Generated) import CachedClientCalls
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues
import Foundation

/// The entities mutations' answers replaced, remembered per partition so that an entry read
/// later from the store, stored before a replacement and never held in memory when it was
/// made, shows the new version too (the store is never listed or scanned for them).
///
/// Bounded: the last `limit` replacements of all partitions together (1,000 by default), the
/// oldest dropped first; a newer replacement of one entity in one partition takes the older
/// one's place. An entry stored before a dropped replacement shows the version it holds.
/// Each replacement keeps the entity's JSON, so the log's memory is about `limit` entities.
package final class EntityReplacementLog: Sendable {
    /// One remembered replacement: what, in which partition (`nil`: signed out), and when.
    package struct Record: Sendable {
        package let replacement: EntityReplacement
        package let partition: String?
        package let date: Date
    }

    /// How many replacements are remembered at most.
    package let limit: Int
    /// Oldest first.
    private let records = Locked<[Record]>([])

    package init(limit: Int = 1_000) {
        self.limit = limit
    }

    /// Whether nothing is remembered.
    package var isEmpty: Bool {
        records.withLock { $0.isEmpty }
    }

    /// How many replacements are remembered.
    package var count: Int {
        records.withLock { $0.count }
    }

    /// Remembers `replacements`, made in `partition` at `date`, dropping the oldest beyond
    /// the limit and an older replacement of the same entity in the same partition.
    package func remember(_ replacements: [EntityReplacement], partition: String?, at date: Date) {
        guard !replacements.isEmpty, limit > 0 else { return }
        records.withLock { records in
            for replacement in replacements {
                records.removeAll { $0.partition == partition && $0.replacement.isSameEntity(as: replacement) }
                records.append(Record(replacement: replacement, partition: partition, date: date))
            }
            if records.count > limit { records.removeFirst(records.count - limit) }
        }
    }

    /// The replacements made in `partition` after `date`, oldest first (so a later version of
    /// an entity is applied last); one lock when nothing is remembered, the whole cost of a
    /// store read then.
    package func replacements(in partition: String?, after date: Date) -> [EntityReplacement] {
        records.withLock { records in
            records.filter { $0.partition == partition && $0.date > date }.map(\.replacement)
        }
    }

    /// Forgets the replacements made in `partition` (its entries were removed: sign-out).
    package func forget(partition: String) {
        records.withLock { $0.removeAll { $0.partition == partition } }
    }

    /// Forgets every replacement.
    package func forgetAll() {
        records.withLock { $0.removeAll() }
    }
}

extension EntityReplacementLog: EntityReplacing {
    /// `entry` with the replacements made in `partition` after it was stored put in place.
    ///
    /// Cost: none but one lock when no replacement is remembered. Otherwise, for an entry
    /// stored before a remembered replacement of its partition, a pass over the remembered
    /// replacements (at most `limit`) and a byte search of the body for each one's id; only
    /// when an id is found (or cannot be searched for, being escaped in JSON) is the body
    /// parsed, the entities put in place and the body encoded again.
    package func replacingEntities(in entry: CacheEntry, partition: String?) -> CacheEntry? {
        let replacements = replacements(in: partition, after: entry.date)
        guard !replacements.isEmpty, let body = EntityReplacement.apply(replacements, to: entry.body) else { return nil }
        return CacheEntry(
            body: body, date: entry.date, etag: entry.etag, lastModified: entry.lastModified, freshness: entry.freshness)
    }
}
