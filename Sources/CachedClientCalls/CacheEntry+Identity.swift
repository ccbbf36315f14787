import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif
import CachedClientStore

extension CacheEntry {
    /// Whether two entries are the same stored entry. Cheap: the bodies of one entry share
    /// storage, so comparing their addresses avoids comparing their bytes; small bodies,
    /// which `Data` keeps inline, are compared byte for byte.
    package func isSameStoredEntry(as other: CacheEntry) -> Bool {
        guard date == other.date, body.count == other.body.count, etag == other.etag,
            lastModified == other.lastModified
        else { return false }
        return body.withUnsafeBytes { x in
            other.body.withUnsafeBytes { y in
                guard let xBase = x.baseAddress, let yBase = y.baseAddress else { return x.count == y.count }
                if xBase == yBase { return true }
                return x.count <= 256 && memcmp(xBase, yBase, x.count) == 0
            }
        }
    }

    /// Seconds since the entry was stored; negative when the clock was set back.
    package func age(at now: Date) -> Double {
        now.timeIntervalSince(date)
    }
}
