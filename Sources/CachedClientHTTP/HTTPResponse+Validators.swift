import CachedClientStore
import Foundation

extension HTTPResponse {
    /// Whether this 304 confirms `entry` (RFC 9111 §4.3.4): a validator it carries must be
    /// the entry's, else it confirms some other response and the entry must not be renewed.
    ///
    /// A strong `ETag` must equal the entry's strong one; a weak one (`W/"…"`) matches by its
    /// opaque tag. Without an `ETag`, a `Last-Modified` must equal the entry's. A 304 with
    /// neither confirms the entry it was asked about.
    package func confirms(_ entry: CacheEntry) -> Bool {
        if let etag = header("ETag") {
            guard let stored = entry.etag else { return false }
            if etag.hasPrefix("W/") || stored.hasPrefix("W/") {
                return Self.opaqueTag(etag) == Self.opaqueTag(stored)
            }
            return etag == stored
        }
        if let lastModified = header("Last-Modified"), let stored = entry.lastModified {
            return lastModified == stored
        }
        return true
    }

    private static func opaqueTag(_ etag: String) -> Substring {
        etag.hasPrefix("W/") ? etag.dropFirst(2) : etag[...]
    }
}
