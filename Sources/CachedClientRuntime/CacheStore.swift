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

    /// Creates an entry.
    public init(body: Data, date: Date, etag: String? = nil, lastModified: String? = nil) {
        self.body = body
        self.date = date
        self.etag = etag
        self.lastModified = lastModified
    }
}

/// Where `CachedClient` keeps entries.
///
/// Rules every implementation keeps:
/// - `entry(for:)` returns an entry only if it was stored under exactly `key.text`;
///   anything unreadable (corrupt, truncated, foreign, older format) is a miss and is
///   removed, never a crash.
/// - `setEntry(_:for:)` is atomic: a reader sees the old entry, the new one, or none,
///   never a mix, even if the process dies halfway.
/// - Only what is passed in is stored: never request headers or cookies.
/// - Methods may be called concurrently from any task.
/// - Errors are for the caller to report; `CachedClient` never fails a call the network
///   can serve because a store threw.
public protocol CacheStore: Sendable {
    /// The entry stored under `key`, or `nil`.
    func entry(for key: CacheKey) async throws -> CacheEntry?
    /// Stores `entry` under `key`, replacing any earlier one.
    func setEntry(_ entry: CacheEntry, for key: CacheKey) async throws
    /// Removes the entry under `key`, if any.
    func removeEntry(for key: CacheKey) async throws
    /// Removes every entry.
    func removeAll() async throws
    /// Removes every entry of one partition (for sign-out); shared entries stay.
    func removeAll(partition: String) async throws
    /// Removes every entry of one endpoint (`Repository.method`), in all partitions.
    func removeAll(endpoint: String) async throws
    /// The bytes used by all entries, for a settings screen.
    func totalSize() async throws -> Int
    /// The number of entries, for a settings screen.
    func entryCount() async throws -> Int
}
