import CachedClientStore
import Foundation

/// A test store that changes reads or writes and passes everything else on to `inner`: the
/// one forwarding store of this package's tests and the PostgreSQL store's.
public protocol ForwardingStore: CacheStore {
    /// The store everything not overridden goes to.
    var inner: any CacheStore { get }
}

extension ForwardingStore {
    /// Forwards to `inner`.
    public func entry(for key: CacheKey) async throws -> CacheEntry? { try await inner.entry(for: key) }
    /// Forwards to `inner`.
    public func setEntry(_ entry: CacheEntry, for key: CacheKey) async throws { try await inner.setEntry(entry, for: key) }
    /// Forwards to `inner`.
    public func removeEntry(for key: CacheKey) async throws { try await inner.removeEntry(for: key) }
    /// Forwards to `inner`.
    public func removeAll() async throws { try await inner.removeAll() }
    /// Forwards to `inner`.
    public func removeAll(partition: String) async throws { try await inner.removeAll(partition: partition) }
    /// Forwards to `inner`.
    public func removeAll(endpoint: String) async throws { try await inner.removeAll(endpoint: endpoint) }
    /// Forwards to `inner`.
    public func removeAll(endpoint: String, path: String) async throws { try await inner.removeAll(endpoint: endpoint, path: path) }
    /// Forwards to `inner`.
    public func totalSize() async throws -> Int { try await inner.totalSize() }
    /// Forwards to `inner`.
    public func entryCount() async throws -> Int { try await inner.entryCount() }
    /// Forwards to `inner`.
    public var maxAge: TimeInterval? { inner.maxAge }
    /// Forwards to `inner`.
    public var removalCount: UInt64 { inner.removalCount }
    /// Forwards to `inner`.
    public func removals(since count: UInt64) -> [RemovalScope]? { inner.removals(since: count) }
    /// Forwards to `inner`.
    public func eventDescription(of error: any Error) -> String? { inner.eventDescription(of: error) }
}
