extension FileCacheStore {
    /// Bytes and entries, as counted by the store.
    package struct Usage: Equatable {
        package var bytes = 0
        package var count = 0

        package mutating func add(_ other: Usage) {
            bytes = bytes.addingClamped(other.bytes)  // sparse files can claim exabytes each
            count += other.count
        }

        /// Never negative, even when another process's removals made the count drift.
        package var clamped: Usage { Usage(bytes: max(0, bytes), count: max(0, count)) }
    }
}
