import CachedClientStore
@_spi(RuntimeLayers) import CachedClientValues
import Foundation

extension FileCacheStore {
    /// Removes everything, a partition, an endpoint or one of its paths at a cost that does not
    /// grow with the entries it holds.
    ///
    /// A removal renames a folder out of the store in one step (`Trash`), so readers and
    /// writers stop seeing it at once, counts what it held, then deletes it. A write racing the
    /// removal finds its folder gone and is dropped, or lands in the folder made anew; it
    /// never throws. It runs between two increments of the removal count, so a reader that saw
    /// the count before or during it sees it change, and finds its scope in the log.
    ///
    /// When a removal returns, no byte of what it removed is left under the store's folder: its
    /// own trash is deleted until it is gone, and so is every other trash folder, which may
    /// hold the same entries if another removal moved them first. A removal whose folder
    /// another removal moved first thus still waits until those entries are gone.
    package struct BulkRemoval: Sendable {
        /// The folder whose partitions, endpoints and paths are removed.
        let folder: Folder
        /// Where a removed folder goes before it is deleted.
        let trash: Trash
        /// The count every store on the folder shares, incremented around each removal.
        let removals: RemovalCounter
        /// The running count, which each removal updates.
        let sweeper: Sweeper

        /// Removes what `target` covers: the whole entry tree, a partition's folder (sign-out;
        /// shared entries live elsewhere and stay), an endpoint's folder in every partition, or
        /// the folder of one endpoint's path in every partition (an invalidation after a
        /// mutation). Lists partitions, never entries.
        package func remove(_ target: Target) throws(FileCacheStoreError) {
            let scope = target.scope
            removals.increment(scope)
            defer { removals.increment(scope) }
            switch target {
            case .everything:
                try removeEverything()
            case .partition(let partition):
                try removeFolder(folder.partitionPath(partition), depth: 2)
            case .endpoint(let endpoint):
                try removeInEveryPartition(Folder.endpointFolderName(endpoint), depth: 1)
            case .path(let path, let endpoint):
                try removeInEveryPartition(Folder.endpointFolderName(endpoint) + "/" + Folder.pathFolderName(path), depth: 0)
            }
        }

        /// Moves the whole entry tree aside in one rename, then deletes it.
        private func removeEverything() throws(FileCacheStoreError) {
            let moved = try trash.move(folder.entriesPath)
            try Folder.makeDirectories(folder.entriesPath)
            sweeper.recordBulkRemoval(nil)
            if let moved { try trash.delete(moved) }
            try trash.deleteAll()
        }

        /// Removes `relativePath` under each partition folder; tries them all, then throws the
        /// first failure.
        private func removeInEveryPartition(_ relativePath: String, depth: Int) throws(FileCacheStoreError) {
            var firstError: FileCacheStoreError?
            // A listing that fails throws: taken for an empty store, the removal would return
            // with every entry it covers still there.
            for partition in try POSIX.names(in: folder.entriesPath, operation: "remove") where !partition.hasPrefix(".") {
                do throws(FileCacheStoreError) {
                    try removeFolder(folder.entriesPath + "/" + partition + "/" + relativePath, depth: depth)
                } catch {
                    firstError = firstError ?? error
                }
            }
            if let firstError { throw firstError }
        }

        /// Removes a partition (`depth` 2), endpoint (`depth` 1) or path (`depth` 0) folder and
        /// takes what it held off the running count; then deletes any other trash, which may
        /// hold the same entries if another removal moved them first.
        private func removeFolder(_ path: String, depth: Int) throws(FileCacheStoreError) {
            if let moved = try trash.move(path) {
                sweeper.recordBulkRemoval(Self.measure(moved, depth: depth))
                try trash.delete(moved)
            }
            try trash.deleteAll()
        }

        /// Bytes and entries in a moved-away partition (`depth` 2), endpoint (`depth` 1) or path
        /// (`depth` 0) folder.
        private static func measure(_ path: String, depth: Int) -> Usage {
            var usage = Usage()
            if depth > 0 {
                for name in POSIX.list(path) { usage.add(measure(path + "/" + name, depth: depth - 1)) }
                return usage
            }
            for name in POSIX.list(path) where Folder.isDigest(name) {
                guard let info = try? POSIX.status(atPath: path + "/" + name), info.isRegularFile else { continue }
                usage.add(Usage(bytes: info.size, count: 1))
            }
            return usage
        }
    }
}
