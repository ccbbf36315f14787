import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues
import Foundation

// Where entries live: `<directory>/v2/<partition>/<endpoint>/<path>/<digest>`, where
// `<partition>` is `shared` for shared entries or `p-` and the first 32 hex digits of the
// SHA-256 of the partition, `<endpoint>` and `<path>` are the first 32 hex digits of the
// SHA-256 of the endpoint name and of `CacheKey.path` (so every page of `/accounts?page=…`
// shares one folder, and `/accounts/42` has its own), and `<digest>` is `CacheKey.digest`.
// Sign-out, `removeAll(endpoint:)` and an invalidation are therefore folder removals, not
// scans. Each file is in the format described at `CacheFileFormat`. Next to `v2` live
// `removals` (the removal counter, see `RemovalCounter`) and, while a removal runs,
// `.cachegen-trash-<random>` folders.
extension FileCacheStore {
    /// The folder of the current layout; bumped when the folder structure changes.
    package static let layoutFolderName = "v2"

    /// The cache key of `folderPath(for:)`.
    package struct FolderKey: Hashable {
        package var partition: String?
        package var endpoint: String
        package var path: String
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
        let path = entriesPath + "/" + Self.partitionFolderName(key.partition) + "/"
            + Self.endpointFolderName(key.endpoint) + "/" + Self.pathFolderName(key.path)
        folders.withLock { folders in
            if folders.count >= 4_096 { folders.removeAll(keepingCapacity: true) }
            folders[folderKey] = path
        }
        return path
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

    /// Deletes the folders of older layouts (`v1`, without the path level) in the
    /// background: one `stat` when nothing is there, so opening stays instant. Their entries
    /// are unreachable, so nothing is lost.
    package static func removeOlderLayouts(root: String) {
        let older = root + "/v1"
        guard (try? POSIX.status(atPath: older)) != nil else { return }
        let trash = root + "/" + trashPrefix + randomName()
        guard (try? POSIX.move(older, to: trash)) != nil else { return }
        Task.detached(priority: .background) { try? POSIX.removeTree(trash) }
    }

    /// The default folder on Apple platforms, or from the XDG rules elsewhere.
    package static func defaultDirectory() throws -> URL {
        #if canImport(Darwin)
        guard var caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first else {
            throw FileCacheStoreError.notFound(operation: "find the caches folder for", path: "cachegen")
        }
        #if os(macOS)
        // ~/Library/Caches is shared by every unsandboxed app; Apple's convention is a
        // folder per bundle, so one app's removeAll() never touches another's entries.
        if let bundle = Bundle.main.bundleIdentifier {
            caches = caches.appendingPathComponent(bundle, isDirectory: true)
        }
        #endif
        return caches.appendingPathComponent("cachegen", isDirectory: true)
        #else
        let environment = ProcessInfo.processInfo.environment
        return xdgDirectory(environment: environment, home: FileManager.default.homeDirectoryForCurrentUser.path)
        #endif
    }

    /// `$XDG_CACHE_HOME/cachegen` when that is an absolute path (the XDG spec says to ignore
    /// relative ones), else `$HOME/.cache/cachegen`.
    package static func xdgDirectory(environment: [String: String], home: String) -> URL {
        if let cacheHome = environment["XDG_CACHE_HOME"], cacheHome.hasPrefix("/") {
            return URL(fileURLWithPath: cacheHome, isDirectory: true).appendingPathComponent("cachegen", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".cache", isDirectory: true)
            .appendingPathComponent("cachegen", isDirectory: true)
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
}
