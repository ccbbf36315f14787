extension FileCacheStore {
    /// Bytes and entries, as counted by the store.
    struct Usage: Equatable {
        var bytes = 0
        var count = 0

        mutating func add(_ other: Usage) {
            bytes += other.bytes
            count += other.count
        }

        /// Never negative, even when another process's removals made the count drift.
        var clamped: Usage { Usage(bytes: max(0, bytes), count: max(0, count)) }
    }
}
