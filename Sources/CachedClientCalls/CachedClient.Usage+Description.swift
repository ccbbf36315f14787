import CachedClientStore
import Foundation

/// `12 entries, 1.4 MB`: what a settings screen or a log line shows of `CachedClient.usage()`.
extension CachedClient.Usage: CustomStringConvertible {
    /// The entry count and the size in bytes, KB or MB (powers of 1,000, one decimal), as
    /// `CacheInspection`'s table prints sizes.
    public var description: String {
        let count = entries == 1 ? "1 entry" : "\(entries) entries"
        return "\(count), \(ByteCountText.format(bytes))"
    }
}
