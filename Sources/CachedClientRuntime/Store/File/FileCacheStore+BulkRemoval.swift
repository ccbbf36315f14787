import Foundation

// Bulk removal renames a folder out of the store in one step, so readers and writers stop
// seeing it at once, counts what it held, then deletes it. A write racing the removal finds
// its folder gone and is dropped. Trash left by a crash is deleted by a later sweep.
extension FileCacheStore {
    /// The name prefix of moved-away folders in `directory`.
    static let trashPrefix = ".cachegen-trash-"

    /// Moves the whole entry tree aside in one rename, then deletes it.
    public func removeAll() async throws {
        defer { removals.withLock { $0 += 1 } }
        let trash = try moveToTrash(entriesPath)
        try Self.makeDirectories(entriesPath)
        state.withLock { state in
            state.usage = Usage()
            if state.sweep != nil { state.bulkRemovalDuringSweep = true }
        }
        if let trash { try deleteTrash(trash) }
    }

    /// Deletes the partition's folder (for sign-out); shared entries live elsewhere and stay.
    public func removeAll(partition: String) async throws {
        defer { removals.withLock { $0 += 1 } }
        try removeFolder(entriesPath + "/" + Self.partitionFolderName(partition), depth: 2)
    }

    /// Deletes the endpoint's folder in every partition; lists partitions, not entries.
    public func removeAll(endpoint: String) async throws {
        defer { removals.withLock { $0 += 1 } }
        try removeInEveryPartition(Self.endpointFolderName(endpoint), depth: 1)
    }

    /// Deletes the folder of one endpoint's path in every partition (an invalidation after a
    /// mutation); lists partitions, not entries, and leaves the endpoint's other paths.
    public func removeAll(endpoint: String, path: String) async throws {
        defer { removals.withLock { $0 += 1 } }
        try removeInEveryPartition(
            Self.endpointFolderName(endpoint) + "/" + Self.pathFolderName(path), depth: 0)
    }

    /// Removes `relativePath` under each partition folder; tries them all, then throws the
    /// first failure.
    private func removeInEveryPartition(_ relativePath: String, depth: Int) throws(FileCacheStoreError) {
        var firstError: FileCacheStoreError?
        for partition in POSIX.list(entriesPath) where !partition.hasPrefix(".") {
            do throws(FileCacheStoreError) {
                try removeFolder(entriesPath + "/" + partition + "/" + relativePath, depth: depth)
            } catch {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
    }

    /// Removes a partition (`depth` 2), endpoint (`depth` 1) or path (`depth` 0) folder and
    /// takes what it held off the running count.
    private func removeFolder(_ path: String, depth: Int) throws(FileCacheStoreError) {
        guard let trash = try moveToTrash(path) else { return }
        let removed = Self.measure(trash, depth: depth)
        state.withLock { state in
            state.usage?.add(Usage(bytes: -removed.bytes, count: -removed.count))
            if state.sweep != nil { state.bulkRemovalDuringSweep = true }
        }
        try deleteTrash(trash)
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

    /// Deletes what a crashed `removeAll` left behind; only trees old enough that no
    /// other process can still be deleting them.
    func removeAbandonedTrash() {
        let abandonedBefore = Date().timeIntervalSince1970 - Self.abandonedFileAge
        for name in POSIX.list(rootPath) where name.hasPrefix(Self.trashPrefix) {
            let path = rootPath + "/" + name
            guard let info = try? POSIX.status(atPath: path), info.changeTime < abandonedBefore else { continue }
            try? POSIX.removeTree(path)
        }
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
