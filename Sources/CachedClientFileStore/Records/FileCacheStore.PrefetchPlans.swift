import CachedClientStore
@_spi(RuntimeLayers) import CachedClientValues
import Foundation

extension FileCacheStore {
    /// The plans of calls fetched ahead of a store (its `CachePinning`) and the entries they pin.
    ///
    /// One file per plan in `.prefetch` inside the partition's folder (`<directory>/v2/<partition>/
    /// .prefetch/<hash of the name>`), so that sign-out's folder removal and `removeAll()` take
    /// the pins with the entries, while invalidations and sweeps, which skip names starting with
    /// a dot, never touch them. No name, user or path appears in a file name.
    ///
    /// A file is the JSON of `PrefetchRecord` (a format number and the plan), written as a
    /// `PrivateRecord` (flushed, 0600, renamed into place), so a reader, or the next launch
    /// after `kill -9`, sees the whole plan or none. A file that does not read back (damaged,
    /// truncated, of a later format, not a file) is removed and left out: its entries are simply
    /// no longer pinned, never a crash and never an error.
    ///
    /// Sweeps and reads past `maxAge` leave the entries the plans pin. The set of pinned entry
    /// paths is read from every partition's plans once and kept until a `.prefetch` folder
    /// changes (its modification time, one `stat` per partition), so a sweep or an expired read
    /// costs one listing of the partitions when no plan changed.
    package struct PrefetchPlans: Sendable {
        private let folder: Folder
        private let events: (@Sendable (CacheEvent) -> Void)?
        /// The entry files the plans pin, as last read.
        private let pins = Locked<PinnedPaths?>(nil)

        /// The plans of the store in `folder`; reads nothing. `events` hears of each plan file
        /// removed because it does not read back.
        package init(folder: Folder, events: (@Sendable (CacheEvent) -> Void)?) {
            self.folder = folder
            self.events = events
        }

        /// Writes the plan's file over the one of the same name and partition; durable when it returns.
        package func save(_ plan: PrefetchPlan) throws {
            let path = folder.prefetchPath(partition: plan.partition)
            try Folder.makeDirectories(path)
            let bytes = try [UInt8](PrefetchRecord.encode(plan))
            try PrivateRecord.write(bytes, named: Self.fileName(plan.name), in: path, operation: "create a prefetch plan in")
            pins.withLock { $0 = nil }
        }

        /// Reads the plan's one file; `nil` when there is none or it does not read back.
        package func plan(named name: String, partition: String?) -> PrefetchPlan? {
            let path = folder.prefetchPath(partition: partition) + "/" + Self.fileName(name)
            let plan = Self.read(path, discarding: discard)
            return plan?.name == name && plan?.partition == partition ? plan : nil
        }

        /// Every partition's plans, sorted by partition and name; damaged files are removed and
        /// left out.
        package func all() -> [PrefetchPlan] {
            Self.plans(in: folder, discarding: discard)
                .sorted { ($0.partition ?? "", $0.name) < ($1.partition ?? "", $1.name) }
        }

        /// Deletes the plan's file; its entries are no longer pinned.
        package func remove(named name: String, partition: String?) throws {
            do throws(FileCacheStoreError) {
                try POSIX.removeFile(folder.prefetchPath(partition: partition) + "/" + Self.fileName(name))
            } catch {
                if !error.isNoSuchPath { throw error }
            }
            pins.withLock { $0 = nil }
        }

        /// A hash of the plan's name: no name an app chose appears on disk.
        package static func fileName(_ name: String) -> String {
            Folder.pathFolderName("prefetch\u{0}" + name)
        }

        /// Whether a plan pins the entry of `key`.
        package func isPinned(_ key: CacheKey) -> Bool {
            pinnedPaths().contains(folder.uncachedEntryPath(for: key))
        }

        /// The paths of every entry file a plan pins, read again only when a `.prefetch` folder
        /// changed since they were last read.
        package func pinnedPaths() -> Set<String> {
            var signature: [String: Double] = [:]
            for partition in folder.partitionFolders() {
                if let info = try? POSIX.status(atPath: folder.entriesPath + "/" + partition + "/" + Folder.prefetchFolderName) {
                    signature[partition] = info.modificationTime
                }
            }
            if let cached = pins.withLock({ $0 }), cached.signature == signature { return cached.paths }
            var paths = Set<String>()
            if !signature.isEmpty {
                for plan in Self.plans(in: folder, discarding: discard) {
                    for key in plan.pinnedKeys { paths.insert(folder.uncachedEntryPath(for: key)) }
                }
            }
            pins.withLock { $0 = PinnedPaths(signature: signature, paths: paths) }
            return paths
        }

        /// Every readable plan in every partition's folder of `folder` (the store's, or one an
        /// inspection reads), each checked to be in its own partition's folder under its own
        /// name; `discard`, when given, is told of each plan file that does not read back.
        package static func plans(
            in folder: Folder, discarding discard: ((String, POSIX.Status) -> Void)? = nil
        ) -> [PrefetchPlan] {
            var plans: [PrefetchPlan] = []
            for partition in folder.partitionFolders() {
                let path = folder.entriesPath + "/" + partition + "/" + Folder.prefetchFolderName
                for name in POSIX.list(path) where !name.hasPrefix(".") {
                    if let plan = read(path + "/" + name, discarding: discard),
                        Folder.partitionFolderName(plan.partition) == partition, fileName(plan.name) == name
                    {
                        plans.append(plan)
                    }
                }
            }
            return plans
        }

        /// The plan in a file, opened without following a link or blocking; `nil` when it is gone
        /// or does not read back, and then handed to `discard` unless it could not be opened at all.
        private static func read(_ path: String, discarding discard: ((String, POSIX.Status) -> Void)?) -> PrefetchPlan? {
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
        private func discard(_ path: String, _ opened: POSIX.Status) {
            guard let current = try? POSIX.status(atPath: path), current.isSameFile(as: opened) else { return }
            if current.isFolder { try? POSIX.removeTree(path) } else { try? POSIX.removeFile(path) }
            events?(CacheEvent(kind: .evict, endpoint: "", key: "", message: "unreadable prefetch plan removed"))
        }
    }
}
