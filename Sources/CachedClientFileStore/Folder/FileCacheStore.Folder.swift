import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues
import Foundation

extension FileCacheStore {
    /// Where a store's files live under its folder, and the walk over its entries.
    ///
    /// Entries live at `<directory>/v2/<partition>/<endpoint>/<path>/<digest>`, where
    /// `<partition>` is `shared` for shared entries or `p-` and the first 32 hex digits of the
    /// SHA-256 of the partition, `<endpoint>` and `<path>` are the first 32 hex digits of the
    /// SHA-256 of the endpoint name and of `CacheKey.path` (so every page of `/accounts?page=…`
    /// shares one folder, and `/accounts/42` has its own), and `<digest>` is `CacheKey.digest`.
    /// Sign-out, `removeAll(endpoint:)` and an invalidation are therefore folder removals, not
    /// scans. Each file is in the format described at `CacheFileFormat`. Beside the endpoints
    /// in a partition's folder live its `.outbox` (`Outbox`) and `.prefetch` (`PrefetchPlans`)
    /// folders, which names starting with a dot keep out of sweeps and invalidations. Next to
    /// `v2` live `removals` (the removal counter, see `RemovalCounter`) and, while a removal
    /// runs, `.cachegen-trash-<random>` folders (`Trash`).
    package struct Folder: Sendable {
        /// The folder of the current layout; bumped when the folder structure changes.
        package static let layoutFolderName = "v2"
        /// The name of the outbox folder inside a partition's folder.
        package static let outboxFolderName = ".outbox"
        /// The name of the plans' folder inside a partition's folder.
        package static let prefetchFolderName = ".prefetch"

        /// The store's folder as a file system path, without a trailing slash.
        package let rootPath: String
        /// The folder of the current layout, which holds every entry.
        package let entriesPath: String
        /// Folder paths by partition, endpoint and path (see `folderPath(for:)`).
        private let folders = Locked<[FolderKey: String]>([:])

        /// The cache key of `folderPath(for:)`.
        private struct FolderKey: Hashable {
            var partition: String?
            var endpoint: String
            var path: String
        }

        /// The layout under `directory`; reads nothing.
        package init(directory: URL) {
            var root = directory.withUnsafeFileSystemRepresentation { $0.map { String(cString: $0) } } ?? directory.path
            while root.count > 1, root.hasSuffix("/") { root.removeLast() }
            rootPath = root
            entriesPath = root + "/" + Self.layoutFolderName
        }

        /// The entry's file.
        package func entryPath(for key: CacheKey) -> String {
            // One string built once; `folder + "/" + digest` made two, on every read.
            let folder = folderPath(for: key)
            let digest = key.digest
            return String(unsafeUninitializedCapacity: folder.utf8.count + 1 + digest.utf8.count) { buffer in
                var writer = UTF8Writer(buffer)
                writer.write(folder)
                writer.write(UInt8(ascii: "/"))
                writer.write(digest)
                return writer.count
            }
        }

        /// The folder of the key's partition, endpoint and path; cached, because SHA-256 costs
        /// more than the rest of building the path.
        package func folderPath(for key: CacheKey) -> String {
            let folderKey = FolderKey(partition: key.partition, endpoint: key.endpoint, path: key.path)
            if let path = folders.withLock({ $0[folderKey] }) { return path }
            let path = partitionPath(key.partition) + "/" + Self.endpointFolderName(key.endpoint) + "/"
                + Self.pathFolderName(key.path)
            folders.withLock { folders in
                if folders.count >= 4_096 { folders.removeAll(keepingCapacity: true) }
                folders[folderKey] = path
            }
            return path
        }

        /// The path of `key`'s entry file, built without the folder cache (a sweep asks for
        /// every pinned entry's, and would crowd out the ones reads use).
        package func uncachedEntryPath(for key: CacheKey) -> String {
            partitionPath(key.partition) + "/" + Self.endpointFolderName(key.endpoint) + "/"
                + Self.pathFolderName(key.path) + "/" + key.digest
        }

        /// The folder of a partition (`nil`: signed out, in `shared`).
        package func partitionPath(_ partition: String?) -> String {
            entriesPath + "/" + Self.partitionFolderName(partition)
        }

        /// The outbox folder of a partition (`nil`: signed out, in `shared`).
        package func outboxPath(partition: String?) -> String {
            partitionPath(partition) + "/" + Self.outboxFolderName
        }

        /// The plans' folder of a partition (`nil`: signed out, in `shared`).
        package func prefetchPath(partition: String?) -> String {
            partitionPath(partition) + "/" + Self.prefetchFolderName
        }

        /// The names of the partition folders, as listed now (none when the listing fails).
        package func partitionFolders() -> [String] {
            POSIX.list(entriesPath).filter { !$0.hasPrefix(".") }
        }

        /// `shared`, or `p-` and a hash, so that no user id is ever part of a path.
        package static func partitionFolderName(_ partition: String?) -> String {
            partition.map { "p-" + shortHash($0) } ?? "shared"
        }

        /// A hash, so that any endpoint name is a safe folder name.
        package static func endpointFolderName(_ endpoint: String) -> String {
            shortHash(endpoint)
        }

        /// A hash, so that no parameter value of a path (an account number) appears on disk.
        package static func pathFolderName(_ path: String) -> String {
            shortHash(path)
        }

        private static func shortHash(_ text: String) -> String {
            String(SHA256.hex(of: text).prefix(32))
        }

        /// Whether a file name is an entry's: a digest of 64 lowercase hex digits.
        package static func isDigest(_ name: String) -> Bool {
            name.utf8.count == 64
                && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        }

        /// Every entry file with its size and last use; removes empty folders and temporary
        /// files changed before `abandonedBefore` (seconds since 1970) on the way.
        package func entryFiles(abandonedBefore: Double) -> [EntryFile] {
            var result: [EntryFile] = []
            // An empty folder is removed; a writer racing this recreates it (see
            // createTemporaryFile). A parent emptied this way goes in the next walk.
            for partition in POSIX.list(entriesPath) where !partition.hasPrefix(".") {
                let partitionPath = entriesPath + "/" + partition
                let endpoints = POSIX.list(partitionPath)
                for endpoint in endpoints where !endpoint.hasPrefix(".") {
                    let endpointPath = partitionPath + "/" + endpoint
                    let paths = POSIX.list(endpointPath)
                    for path in paths where !path.hasPrefix(".") {
                        let folder = endpointPath + "/" + path
                        let names = POSIX.list(folder)
                        if names.isEmpty {
                            try? POSIX.removeEmptyFolder(folder)
                            continue
                        }
                        for name in names {
                            let file = folder + "/" + name
                            guard let info = try? POSIX.status(atPath: file) else { continue }
                            if name.hasPrefix(".tmp-") {
                                // The change time, unlike the modification time, is not set from `now()`.
                                if info.changeTime < abandonedBefore { try? POSIX.removeFile(file) }
                                continue
                            }
                            guard Self.isDigest(name), info.isRegularFile else { continue }
                            result.append(EntryFile(
                                path: file, name: name, size: info.size, lastUse: info.modificationTime))
                        }
                    }
                    if paths.isEmpty { try? POSIX.removeEmptyFolder(endpointPath) }
                }
                if endpoints.isEmpty { try? POSIX.removeEmptyFolder(partitionPath) }
            }
            return result
        }

        /// A new file named `.tmp-<random>` in `folder`, creating the folder if a sweep or a
        /// removal took it away; `nil` if removals (in any process) took it away on every try,
        /// which drops the write rather than failing it.
        package static func createTemporaryFile(in folder: String) throws(FileCacheStoreError) -> (Int32, String)? {
            for _ in 0..<8 {
                let path = folder + "/.tmp-" + randomName()
                do throws(FileCacheStoreError) {
                    let fd = try POSIX.createForWriting(path, operation: "create a temporary file in")
                    return (fd, path)
                } catch {
                    let failure = FileCacheStoreError(operation: error.operation, path: folder, code: error.code)
                    if error.isNoSuchFile {
                        do throws(FileCacheStoreError) {
                            try makeDirectories(folder)
                        } catch {
                            // A removal took a parent away between two `mkdir`s: try again.
                            guard error.isNoSuchFile else { throw error }
                        }
                    } else if !error.isAlreadyThere {
                        throw failure
                    }
                }
            }
            return nil
        }

        /// Creates the folders of `path` that are missing, each with mode 0700 (whatever the
        /// umask) and, on iOS, watchOS and visionOS, data protection until first unlock.
        package static func makeDirectories(_ path: String) throws(FileCacheStoreError) {
            do throws(FileCacheStoreError) {
                try makeDirectory(path)
                return
            } catch {
                if error.isAlreadyThere { return }
                guard error.isNoSuchFile, let slash = path.lastIndex(of: "/"), slash != path.startIndex else { throw error }
                try makeDirectories(String(path[..<slash]))
            }
            do throws(FileCacheStoreError) {
                try makeDirectory(path)
            } catch {
                if error.isAlreadyThere { return }
                throw error
            }
        }

        private static func makeDirectory(_ path: String) throws(FileCacheStoreError) {
            try POSIX.makeFolder(path, 0o700)
            try? POSIX.setPermissions(atPath: path, 0o700)
            protect(path)
        }

        /// Keeps entries readable by background refreshes after the first unlock, and encrypted
        /// before it.
        package static func protect(_ path: String) {
            #if os(iOS) || os(watchOS) || os(visionOS)
            try? FileManager.default.setAttributes(
                [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication], ofItemAtPath: path)
            #endif
        }

        /// A random name part for temporary files and trash folders.
        package static func randomName() -> String {
            String(UInt64.random(in: .min ... .max), radix: 16)
        }

        /// Deletes the folders of older layouts (`v1`, without the path level) in the
        /// background: one `stat` when nothing is there, so opening stays instant. Their entries
        /// are unreachable, so nothing is lost.
        package func removeOlderLayouts() {
            let older = rootPath + "/v1"
            guard (try? POSIX.status(atPath: older)) != nil else { return }
            let trash = rootPath + "/" + Trash.prefix + Self.randomName()
            guard (try? POSIX.move(older, to: trash)) != nil else { return }
            Task.detached(priority: .background) { try? POSIX.removeTree(trash) }
        }
    }
}
