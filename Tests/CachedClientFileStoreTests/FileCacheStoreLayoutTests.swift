import StoreTestSupport
import Foundation
import Testing

import CachedClientFileStore
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where entries live: hashed folders, private permissions, the platform's cache folder.
@Suite("FileCacheStore: folder layout")
struct FileCacheStoreLayoutTests {
    @Test func entriesLiveInHashedPartitionEndpointAndPathFolders() async throws {
        try await withStore { store, directory, _, _ in
            try await store.setEntry(storeEntry("a"), for: storeKey("1", partition: "alice@example.com"))
            try await store.setEntry(storeEntry("b"), for: storeKey("1", partition: nil))

            let user = storeKey("1", partition: "alice@example.com")
            let expectedUser = directory.path + "/v2/p-" + String(SHA256.hex(of: Data("alice@example.com".utf8)).prefix(32))
                + "/" + String(SHA256.hex(of: Data("Accounts.get".utf8)).prefix(32))
                + "/" + String(SHA256.hex(of: Data("/items/1".utf8)).prefix(32)) + "/" + user.digest
            #expect(store.entryPath(for: user) == expectedUser)
            #expect(FileManager.default.fileExists(atPath: expectedUser))

            let shared = storeKey("1", partition: nil)
            let expectedShared = directory.path + "/v2/shared/"
                + String(SHA256.hex(of: Data("Accounts.get".utf8)).prefix(32))
                + "/" + String(SHA256.hex(of: Data("/items/1".utf8)).prefix(32)) + "/" + shared.digest
            #expect(store.entryPath(for: shared) == expectedShared)
            #expect(FileManager.default.fileExists(atPath: expectedShared))

            let paths = try allPaths(under: directory)
            #expect(!paths.isEmpty)
            #expect(!paths.contains { $0.contains("alice") || $0.contains("Accounts") || $0.contains("items") })
            // No temporary file is left behind by a write.
            #expect(!paths.contains { $0.contains(".tmp-") })
        }
    }

    @Test func foldersAre0700AndFiles0600() async throws {
        try await withStoreDirectory { temporary in
            let root = temporary.appendingPathComponent("nested/store", isDirectory: true)
            let store = try FileCacheStore(directory: root)
            let key = storeKey("1")
            try await store.setEntry(storeEntry("x"), for: key)

            let file = URL(fileURLWithPath: store.entryPath(for: key))
            let pathFolder = file.deletingLastPathComponent()
            let endpointFolder = pathFolder.deletingLastPathComponent()
            let partitionFolder = endpointFolder.deletingLastPathComponent()
            let layoutFolder = partitionFolder.deletingLastPathComponent()
            #expect(layoutFolder.lastPathComponent == "v2")
            for folder in [temporary.appendingPathComponent("nested"), root, layoutFolder, partitionFolder, endpointFolder, pathFolder] {
                #expect(permissions(of: folder) == 0o700, "\(folder.path)")
            }
            #expect(permissions(of: file) == 0o600)
        }
    }

    @Test func defaultFolderFollowsXDGRules() {
        #expect(
            FileCacheStore.xdgDirectory(environment: ["XDG_CACHE_HOME": "/var/cache/app"], home: "/home/me").path
                == "/var/cache/app/cachegen")
        #expect(
            FileCacheStore.xdgDirectory(environment: ["XDG_CACHE_HOME": "relative/cache"], home: "/home/me").path
                == "/home/me/.cache/cachegen")
        #expect(
            FileCacheStore.xdgDirectory(environment: ["HOME": "/home/env"], home: "/home/me").path
                == "/home/env/.cache/cachegen")
        #expect(FileCacheStore.xdgDirectory(environment: [:], home: "/home/me").path == "/home/me/.cache/cachegen")
    }
}

private func permissions(of url: URL) -> Int {
    var info = stat()
    guard lstat(url.path, &info) == 0 else { return -1 }
    return Int(info.st_mode) & 0o777
}
