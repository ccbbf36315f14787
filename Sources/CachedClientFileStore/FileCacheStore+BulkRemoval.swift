@_spi(RuntimeLayers) import CachedClientValues
import Foundation

// Bulk removal renames a folder out of the store in one step, so readers and writers stop
// seeing it at once, counts what it held, then deletes it. A write racing the removal finds
// its folder gone and is dropped, or lands in the folder made anew; it never throws.
//
// When a removal returns, no byte of what it removed is left under the store's folder:
// its own trash is deleted until it is gone (see `POSIX.removeTree`), and so is every other
// trash folder found in the store's folder, whether a crashed process left it or another
// process is still deleting it (both may delete the same tree at once). A removal whose
// folder another removal moved first thus still waits until those entries are gone. Trash
// left by a crash is also deleted in the background when a store is opened.
extension FileCacheStore {
    /// The name prefix of moved-away folders in `directory`.
    package static let trashPrefix = ".cachegen-trash-"

    /// Moves the whole entry tree aside in one rename, then deletes it.
    public func removeAll() async throws {
        try removing(.everything) { () throws(FileCacheStoreError) in try removeEverything() }
    }

    private func removeEverything() throws(FileCacheStoreError) {
        let trash = try moveToTrash(entriesPath)
        try Self.makeDirectories(entriesPath)
        state.withLock { state in
            state.usage = Usage()
            if state.sweep != nil { state.bulkRemovalDuringSweep = true }
        }
        if let trash { try deleteTrash(trash) }
        try deleteEveryTrash()
    }

    /// Deletes the partition's folder (for sign-out); shared entries live elsewhere and stay.
    public func removeAll(partition: String) async throws {
        try removing(.partition(partition)) { () throws(FileCacheStoreError) in
            try removeFolder(entriesPath + "/" + Self.partitionFolderName(partition), depth: 2)
        }
    }

    /// Deletes the endpoint's folder in every partition; lists partitions, not entries.
    public func removeAll(endpoint: String) async throws {
        try removing(.endpoint(endpoint)) { () throws(FileCacheStoreError) in
            try removeInEveryPartition(Self.endpointFolderName(endpoint), depth: 1)
        }
    }

    /// Deletes the folder of one endpoint's path in every partition (an invalidation after a
    /// mutation); lists partitions, not entries, and leaves the endpoint's other paths.
    public func removeAll(endpoint: String, path: String) async throws {
        try removing(.path(path, endpoint: endpoint)) { () throws(FileCacheStoreError) in
            try removeInEveryPartition(Self.endpointFolderName(endpoint) + "/" + Self.pathFolderName(path), depth: 0)
        }
    }

    /// Removes `relativePath` under each partition folder; tries them all, then throws the
    /// first failure.
    private func removeInEveryPartition(_ relativePath: String, depth: Int) throws(FileCacheStoreError) {
        var firstError: FileCacheStoreError?
        // A listing that fails throws: taken for an empty store, the removal would return
        // with every entry it covers still there.
        for partition in try POSIX.names(in: entriesPath, operation: "remove") where !partition.hasPrefix(".") {
            do throws(FileCacheStoreError) {
                try removeFolder(entriesPath + "/" + partition + "/" + relativePath, depth: depth)
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
        if let trash = try moveToTrash(path) {
            let removed = Self.measure(trash, depth: depth)
            state.withLock { state in
                state.usage?.add(Usage(bytes: -removed.bytes, count: -removed.count))
                if state.sweep != nil { state.bulkRemovalDuringSweep = true }
            }
            try deleteTrash(trash)
        }
        try deleteEveryTrash()
    }

    /// Renames a folder out of the store in one step; `nil` if it did not exist.
    private func moveToTrash(_ path: String) throws(FileCacheStoreError) -> String? {
        let trash = rootPath + "/" + Self.trashPrefix + Self.randomName()
        do throws(FileCacheStoreError) {
            try POSIX.move(path, to: trash)
            return trash
        } catch {
            if error.isNoSuchFile { return nil }
            throw FileCacheStoreError(operation: "remove", path: path, code: error.code)
        }
    }

    private func deleteTrash(_ trash: String) throws(FileCacheStoreError) {
        try POSIX.removeTree(trash, operation: "delete removed entries in")
    }

    /// Deletes every trash folder in the store's folder, listing it again until a listing
    /// finds none (a few times at most, so a store that never stops removing cannot keep
    /// it here); throws the first failure after trying them all.
    package func deleteEveryTrash() throws(FileCacheStoreError) {
        try Self.deleteEveryTrash(in: rootPath)
    }

    /// `deleteEveryTrash()` for the store whose folder is `root`.
    package static func deleteEveryTrash(in root: String) throws(FileCacheStoreError) {
        var firstError: FileCacheStoreError?
        for _ in 0..<8 {
            let trash = try POSIX.names(in: root, operation: "delete removed entries in").filter { $0.hasPrefix(trashPrefix) }
            if trash.isEmpty { break }
            for name in trash {
                do throws(FileCacheStoreError) {
                    try POSIX.removeTree(root + "/" + name, operation: "delete removed entries in")
                } catch {
                    firstError = firstError ?? error
                }
            }
            if firstError != nil { break }
        }
        if let firstError { throw firstError }
    }

    /// Deletes trash left in the store's folder; for sweeps.
    package func removeAbandonedTrash() {
        try? deleteEveryTrash()
    }

    /// When opening a store finds trash in its folder (a process crashed in the middle of a
    /// removal), deletes it in the background, so opening stays one listing of the folder.
    package static func startDeletingTrash(in root: String) -> Task<Void, Never>? {
        guard POSIX.list(root).contains(where: { $0.hasPrefix(trashPrefix) }) else { return nil }
        return Task.detached(priority: .background) { try? deleteEveryTrash(in: root) }
    }

    /// Bytes and entries in a moved-away partition (`depth` 2), endpoint (`depth` 1) or path
    /// (`depth` 0) folder.
    private static func measure(_ path: String, depth: Int) -> Usage {
        var usage = Usage()
        if depth > 0 {
            for name in POSIX.list(path) { usage.add(measure(path + "/" + name, depth: depth - 1)) }
            return usage
        }
        for name in POSIX.list(path) where isDigest(name) {
            guard let info = try? POSIX.status(atPath: path + "/" + name), info.isRegularFile else { continue }
            usage.add(Usage(bytes: info.size, count: 1))
        }
        return usage
    }
}
