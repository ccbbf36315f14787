import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues
import Foundation

// A look inside a store's folder (`CacheInspection`), for a debug screen and for
// `cachegen-cache inspect`, which reads a folder another process writes. Read-only: it opens
// no store (which would create folders and delete trash), takes no lock (an app's calls never
// wait for it), removes nothing and never sets a file's last-use date. Every file is opened
// without following links and without blocking, checked like a read checks it (header,
// size, checksum) and reported as unreadable, with the reason a read would give, when it is
// not a whole entry; so a damaged, foreign or hostile file (a link, a FIFO, a folder, a file
// longer than its header says) is a row of the table, never a crash or a hang.
extension FileCacheStore: InspectableCacheStore {
    /// What the store holds; see `inspect(directory:options:)`.
    public func inspect(_ options: CacheInspection.Options) async throws -> CacheInspection {
        try Self.inspect(directory: directory, options: options)
    }

    /// What the store in `directory` holds, read without opening it, so another process
    /// may use it meanwhile: per partition and endpoint, entries, bytes, ages, freshness and
    /// pins; the queued mutations; the files that could not be read. A file written or
    /// removed during the walk is counted or not, never an error.
    ///
    /// - Throws: `FileCacheStoreError` when `directory` holds no store (no `v2` folder) or
    ///   its top folder cannot be listed.
    public static func inspect(
        directory: URL, options: CacheInspection.Options = CacheInspection.Options()
    ) throws -> CacheInspection {
        try FolderReader(directory: directory).inspect(options)
    }
}
