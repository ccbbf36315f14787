import Foundation

extension FileCacheStore {
    /// The entry files plans pin, with the modification times of the `.prefetch` folders
    /// (by partition folder) they were read at.
    package struct PinnedPaths: Sendable {
        package var signature: [String: Double]
        package var paths: Set<String>
    }
}
