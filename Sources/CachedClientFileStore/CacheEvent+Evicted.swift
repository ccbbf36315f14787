@_spi(RuntimeLayers) import CachedClientValues

extension CacheEvent {
    /// An `.evict` event of a `FileCacheStore`, naming the entry by the start of its digest
    /// (never by its key, which may hold a user's data).
    static func evicted(endpoint: String, digest: String, age: Double?, message: String) -> CacheEvent {
        CacheEvent(kind: .evict, endpoint: endpoint, key: String(digest.prefix(16)), age: age, message: message)
    }
}
