import CachedClientStore
@_spi(RuntimeLayers) import CachedClientValues
import Foundation

// The plans of calls fetched ahead of a `FileCacheStore` (`CachePinning`): one file per plan
// in `.prefetch` inside the partition's folder (`<directory>/v2/<partition>/.prefetch/<hash of
// the name>`), so that sign-out's folder removal and `removeAll()` take the pins with the
// entries, while invalidations and sweeps, which skip names starting with a dot, never touch
// them. No name, user or path appears in a file name.
//
// A file is the JSON of `PrefetchRecord` (a format number and the plan), written to a
// temporary file, flushed, made 0600 and renamed into place, so a reader, or the next launch
// after `kill -9`, sees the whole plan or none. A file that does not read back (damaged,
// truncated, of a later format, not a file) is removed and left out: its entries are simply
// no longer pinned, never a crash and never an error.
//
// Sweeps and reads past `maxAge` leave the entries the plans pin. The set of pinned entry
// paths is read from every partition's plans once and kept until a `.prefetch` folder
// changes (its modification time, one `stat` per partition), so a sweep or an expired read
// costs one listing of the partitions when no plan changed.
extension FileCacheStore: CachePinning {
    /// Writes the plan's file over the one of the same name and partition; durable when it returns.
    public func savePrefetchPlan(_ plan: PrefetchPlan) async throws {
        let folder = prefetchPath(partition: plan.partition)
        try Self.makeDirectories(folder)
        let bytes = try [UInt8](PrefetchRecord.encode(plan))
        try Self.writePrivateRecord(
            bytes, named: Self.prefetchFileName(plan.name), in: folder, operation: "create a prefetch plan in")
        pins.withLock { $0 = nil }
    }

    /// Reads the plan's one file; `nil` when there is none or it does not read back.
    public func prefetchPlan(named name: String, partition: String?) async throws -> PrefetchPlan? {
        let path = prefetchPath(partition: partition) + "/" + Self.prefetchFileName(name)
        let plan = Self.readPlan(path, discarding: discardPlan)
        return plan?.name == name && plan?.partition == partition ? plan : nil
    }

    /// Reads every partition's plans; damaged files are removed and left out.
    public func prefetchPlans() async throws -> [PrefetchPlan] {
        allPlans().sorted { ($0.partition ?? "", $0.name) < ($1.partition ?? "", $1.name) }
    }

    /// Deletes the plan's file; its entries are no longer pinned.
    public func removePrefetchPlan(named name: String, partition: String?) async throws {
        do throws(FileCacheStoreError) {
            try POSIX.removeFile(prefetchPath(partition: partition) + "/" + Self.prefetchFileName(name))
        } catch {
            if !error.isNoSuchPath { throw error }
        }
        pins.withLock { $0 = nil }
    }

    /// The name of the plans' folder inside a partition's folder.
    package static let prefetchFolderName = ".prefetch"

    /// The plans' folder of a partition (`nil`: signed out, in `shared`).
    package func prefetchPath(partition: String?) -> String {
        entriesPath + "/" + Self.partitionFolderName(partition) + "/" + Self.prefetchFolderName
    }

    /// A hash of the plan's name: no name an app chose appears on disk.
    package static func prefetchFileName(_ name: String) -> String {
        pathFolderName("prefetch\u{0}" + name)
    }

    /// Whether a plan pins the entry of `key`.
    package func isPinned(_ key: CacheKey) -> Bool {
        pinnedPaths().contains(Self.entryPath(for: key, in: entriesPath))
    }

    /// The paths of every entry file a plan pins, read again only when a `.prefetch` folder
    /// changed since they were last read.
    package func pinnedPaths() -> Set<String> {
        var signature: [String: Double] = [:]
        for partition in POSIX.list(entriesPath) where !partition.hasPrefix(".") {
            if let info = try? POSIX.status(atPath: entriesPath + "/" + partition + "/" + Self.prefetchFolderName) {
                signature[partition] = info.modificationTime
            }
        }
        if let cached = pins.withLock({ $0 }), cached.signature == signature { return cached.paths }
        var paths = Set<String>()
        if !signature.isEmpty {
            for plan in allPlans() {
                for key in plan.pinnedKeys { paths.insert(Self.entryPath(for: key, in: entriesPath)) }
            }
        }
        pins.withLock { $0 = PinnedPaths(signature: signature, paths: paths) }
        return paths
    }

    /// The path of `key`'s entry file, built without the folder cache (sweeps ask for many).
    private static func entryPath(for key: CacheKey, in entriesPath: String) -> String {
        entriesPath + "/" + partitionFolderName(key.partition) + "/" + endpointFolderName(key.endpoint) + "/"
            + pathFolderName(key.path) + "/" + key.digest
    }

    /// Every readable plan in every partition's folder; a plan file that does not read back is
    /// removed.
    private func allPlans() -> [PrefetchPlan] {
        Self.plans(under: entriesPath, discarding: discardPlan)
    }

    /// Every readable plan in every partition's folder under `entriesPath` (the store's, or a
    /// folder an inspection reads), each checked to be in its own partition's folder under its
    /// own name; `discard`, when given, is told of each plan file that does not read back.
    package static func plans(
        under entriesPath: String, discarding discard: ((String, POSIX.Status) -> Void)? = nil
    ) -> [PrefetchPlan] {
        var plans: [PrefetchPlan] = []
        for partition in POSIX.list(entriesPath) where !partition.hasPrefix(".") {
            let folder = entriesPath + "/" + partition + "/" + prefetchFolderName
            for name in POSIX.list(folder) where !name.hasPrefix(".") {
                if let plan = readPlan(folder + "/" + name, discarding: discard),
                    partitionFolderName(plan.partition) == partition, prefetchFileName(plan.name) == name
                {
                    plans.append(plan)
                }
            }
        }
        return plans
    }

    /// The plan in a file, opened without following a link or blocking; `nil` when it is gone
    /// or does not read back, and then handed to `discard` unless it could not be opened at all.
    private static func readPlan(_ path: String, discarding discard: ((String, POSIX.Status) -> Void)?) -> PrefetchPlan? {
        let fd: Int32
        do throws(FileCacheStoreError) {
            fd = try POSIX.openForReading(path)
        } catch {
            if !error.isNoSuchPath, let info = try? POSIX.status(atPath: path), !info.isRegularFile {
                discard?(path, info)
            }
            return nil
        }
        defer { try? POSIX.closeFile(fd, path: path) }
        guard let info = try? POSIX.status(of: fd, path: path) else { return nil }
        guard info.isRegularFile, info.size <= PrefetchRecord.maxSize,
            let buffer = try? POSIX.readAll(fd, capacity: info.size, path: path),
            let plan = PrefetchRecord.decode(Data(buffer.bytes))
        else {
            discard?(path, info)
            return nil
        }
        return plan
    }

    /// Removes a plan file that does not read back (or whatever else is at its path), unless
    /// it was replaced since it was opened.
    private func discardPlan(_ path: String, _ opened: POSIX.Status) {
        guard let current = try? POSIX.status(atPath: path), current.isSameFile(as: opened) else { return }
        if current.isFolder { try? POSIX.removeTree(path) } else { try? POSIX.removeFile(path) }
        events?(CacheEvent(kind: .evict, endpoint: "", key: "", message: "unreadable prefetch plan removed"))
    }
}
