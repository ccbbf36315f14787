import CachedClientStore
import Foundation

/// The reader's seam to the entities mutations' answers replaced, which the mutation layer
/// (`CachedClientMutations`) remembers per partition: an entry read from the store, or from a
/// write on its way, gets the entities replaced since it was stored put in place. Class-bound, so
/// the reader holds a reference and a witness table, as cheap to copy as the log it held before.
package protocol EntityReplacing: AnyObject, Sendable {
    /// `entry`, stored for `partition` (`nil`: signed out), with the entities replaced in that
    /// partition since it was stored put in place; `nil` when none of them changes it (or it is
    /// not JSON). Cheap when nothing is remembered: the whole cost of a store read then.
    func replacingEntities(in entry: CacheEntry, partition: String?) -> CacheEntry?
}
