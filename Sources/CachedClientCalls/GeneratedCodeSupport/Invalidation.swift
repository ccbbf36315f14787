import CachedClientStore

/// Entries a successful mutation removes (the spec's `invalidates`), so that after a
/// transfer or an edit no screen shows the balance or the name from before it.
///
/// Generated code passes these to `CachedClient.response(for:endpoint:as:invalidating:)`
/// and `perform(_:endpoint:invalidating:)`; after a 2xx answer the client removes the
/// matching entries from its store and from its in-memory layer. Both forms reach every
/// partition, since a mutation by one user can change what another one sees (a shared
/// account), and removing too much only costs a request.
@_spi(Generated)
public struct Invalidation: Sendable, Hashable {
    /// `Repository.method` of the endpoint whose entries go.
    public let endpoint: String
    /// The resolved path whose entries go (`/accounts/42`), or `nil` for all of the
    /// endpoint's entries.
    public let path: String?

    /// Every entry of `endpoint`, in every partition (all pages of a list).
    public init(_ endpoint: Endpoint) {
        self.endpoint = endpoint.name
        self.path = nil
    }

    /// The entries of `endpoint` whose resolved path is `template` with the parameters `fill`
    /// sets (e.g. `Invalidation(Endpoints.getAccount, path: "/accounts/{id}") { $0.setPathParameter("id", id) }`),
    /// in every partition; query parameters don't matter (all pages).
    ///
    /// The path is resolved exactly as `EndpointRequest` resolves a request's, so it matches
    /// `CacheKey.path` of the entries that request stored.
    public init(_ endpoint: Endpoint, path template: String, _ fill: (inout EndpointRequest) -> Void) {
        var request = EndpointRequest(method: "GET", path: template)
        fill(&request)
        self.endpoint = endpoint.name
        self.path = request.path
    }

    /// An invalidation read back from an outbox record.
    package init(endpointName: String, path: String?) {
        self.endpoint = endpointName
        self.path = path
    }

    /// Whether an entry under `key` is one this invalidation removes.
    package func matches(_ key: CacheKey) -> Bool {
        key.endpoint == endpoint && (path == nil || key.path == path)
    }
}
