import CachedClientStore
import Foundation

// A look inside the cache for an app's debug screen: `usage()` says how much, this says what.
extension CachedClient {
    /// What the store holds, per partition and endpoint (entries, bytes, ages, freshness,
    /// pins), the mutations waiting to be sent and the files that could not be read,
    /// after this client's writes on their way landed; `nil` when the store cannot say
    /// (it does not adopt `InspectableCacheStore`; both built-in stores do).
    ///
    /// Ages and freshness are judged by the client's clock. No credential is ever listed,
    /// and bodies only with `includingValues`. `print(inspection)` shows it as a table;
    /// `inspection.json()` as JSON.
    ///
    /// - Parameters:
    ///   - includingValues: list the stored bodies of entries and queued mutations too.
    ///   - ttls: seconds each endpoint's entries stay fresh, by `Repository.method`, for
    ///     entries that carry no lifetime from the server; without one they count as of
    ///     unknown freshness.
    public func inspect(
        includingValues: Bool = false, ttls: [String: TimeInterval] = [:]
    ) async throws -> CacheInspection? {
        guard let store = store as? any InspectableCacheStore else { return nil }
        await flush()
        return try await store.inspect(CacheInspection.Options(now: now(), includeValues: includingValues, ttls: ttls))
    }
}
