@_spi(Generated) import CachedClientValues
import Foundation

/// One stored answer: the raw response body and what is needed to judge and revalidate it.
public struct CacheEntry: Sendable, Equatable {
    /// The response body exactly as the server sent it.
    public var body: Data
    /// When the answer was received (or last confirmed by the server).
    public var date: Date
    /// The response's `ETag`, for revalidation.
    public var etag: String?
    /// The response's `Last-Modified`, for revalidation.
    public var lastModified: String?
    /// What the response's `Cache-Control`, `Expires` and `Age` said, so that an endpoint
    /// with `ttl: "server"` keeps judging the entry the server's way after a relaunch;
    /// `nil` when the response carried none of them.
    public var freshness: ServerFreshness?

    /// Creates an entry.
    public init(
        body: Data, date: Date, etag: String? = nil, lastModified: String? = nil, freshness: ServerFreshness? = nil
    ) {
        self.body = body
        self.date = date
        self.etag = etag
        self.lastModified = lastModified
        self.freshness = freshness
    }
}
