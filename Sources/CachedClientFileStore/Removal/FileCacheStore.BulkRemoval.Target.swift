import CachedClientStore

extension FileCacheStore.BulkRemoval {
    /// What one `removeAll…` removes, by name (its `RemovalScope` keeps digests only).
    package enum Target {
        /// `removeAll()`: every entry.
        case everything
        /// `removeAll(partition:)`: one partition's entries; shared entries stay.
        case partition(String)
        /// `removeAll(endpoint:)`: one endpoint's entries in every partition.
        case endpoint(String)
        /// `removeAll(endpoint:path:)`: one endpoint's entries of one path in every partition.
        case path(String, endpoint: String)

        /// The scope the removal counter's log keeps.
        package var scope: RemovalScope {
            switch self {
            case .everything: .everything
            case .partition(let partition): .partition(partition)
            case .endpoint(let endpoint): .endpoint(endpoint)
            case .path(let path, let endpoint): .path(path, endpoint: endpoint)
            }
        }
    }
}
