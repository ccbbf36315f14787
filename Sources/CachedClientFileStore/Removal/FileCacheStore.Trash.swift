extension FileCacheStore {
    /// Folders moved out of the store to be deleted: `<directory>/.cachegen-trash-<random>`.
    ///
    /// A removal renames a folder here in one step, so readers and writers stop seeing it at
    /// once, then deletes it. Deleting goes on until it is gone (see `POSIX.removeTree`), and
    /// so does every other trash folder found in the store's folder, whether a crashed process
    /// left it or another process is still deleting it (both may delete the same tree at once).
    /// Trash left by a crash is also deleted in the background when a store is opened.
    package struct Trash: Sendable {
        /// The name prefix of moved-away folders in `directory`.
        package static let prefix = ".cachegen-trash-"

        /// The store's folder, which holds the trash.
        package let rootPath: String

        /// Renames a folder out of the store in one step; `nil` if it did not exist.
        package func move(_ path: String) throws(FileCacheStoreError) -> String? {
            let trash = rootPath + "/" + Self.prefix + Folder.randomName()
            do throws(FileCacheStoreError) {
                try POSIX.move(path, to: trash)
                return trash
            } catch {
                if error.isNoSuchFile { return nil }
                throw FileCacheStoreError(operation: "remove", path: path, code: error.code)
            }
        }

        /// Deletes one folder `move(_:)` returned.
        package func delete(_ trash: String) throws(FileCacheStoreError) {
            try POSIX.removeTree(trash, operation: "delete removed entries in")
        }

        /// Deletes every trash folder in the store's folder, listing it again until a listing
        /// finds none (a few times at most, so a store that never stops removing cannot keep
        /// it here); throws the first failure after trying them all.
        package func deleteAll() throws(FileCacheStoreError) {
            let root = rootPath
            var firstError: FileCacheStoreError?
            for _ in 0..<8 {
                let trash = try POSIX.names(in: root, operation: "delete removed entries in").filter { $0.hasPrefix(Self.prefix) }
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

        /// When opening a store finds trash in its folder (a process crashed in the middle of a
        /// removal), deletes it in the background, so opening stays one listing of the folder.
        package func startDeletingLeftovers() -> Task<Void, Never>? {
            guard POSIX.list(rootPath).contains(where: { $0.hasPrefix(Self.prefix) }) else { return nil }
            return Task.detached(priority: .background) { [self] in try? self.deleteAll() }
        }
    }
}
