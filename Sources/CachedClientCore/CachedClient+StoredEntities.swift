import CachedClientStore
import Foundation

// Identity on the read path: the entities mutations' answers replaced reach the entries the
// client did not hold when they were replaced (on disk only, written by another client or an
// earlier launch) when those are read, since the store is never listed or scanned for them.
extension CachedClient {
    /// `entry`, read from the store or this client's writes on their way for `call`, with the
    /// entities replaced in the call's partition since it was stored put in place.
    ///
    /// A changed entry is written back through the normal write path with its date, so that a
    /// removal since the call started wins over it as over any answer, and the store holds the
    /// new version for other clients. An entry that holds none of the entities, or that is not
    /// JSON (it stays unreadable, a miss as before), is returned as it is.
    ///
    /// Cost: none but one lock when no replacement is remembered. Otherwise, for an entry
    /// stored before a remembered replacement of its partition, a pass over the remembered
    /// replacements (at most `EntityReplacementLog.limit`) and a byte search of the body for
    /// each one's id; only when an id is found (or cannot be searched for, being escaped in
    /// JSON) is the body parsed, the entities put in place and the body encoded again.
    package func withReplacedEntities(_ entry: CacheEntry, _ call: Call) -> CacheEntry {
        let replacements = replacedEntities.replacements(in: call.partition, after: entry.date)
        guard !replacements.isEmpty, let body = EntityReplacement.apply(replacements, to: entry.body) else { return entry }
        let replaced = CacheEntry(
            body: body, date: entry.date, etag: entry.etag, lastModified: entry.lastModified, freshness: entry.freshness)
        writeBack(replaced, call)
        return replaced
    }
}
