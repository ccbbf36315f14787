import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues
import Foundation

/// A `CacheStore` that keeps one file per entry in a folder, so cached answers survive
/// relaunches and can be shared with an app extension through a common folder.
///
/// - A reader, in this process or another sharing the folder, sees a whole entry or none,
///   never a mix of two writes.
/// - A file that is unreadable, damaged or of another key is a miss: it is removed and
///   reported through `events` as an `.evict` event, never thrown.
/// - No user id, endpoint name or path parameter appears in a file or folder name, and
///   folders are private to the user (0700, files 0600).
/// - With `maxAge`, an entry stored longer ago is never returned; with `maxBytes`, the
///   least recently used entries are removed in the background once the store is over it.
///   A request never waits for that. Entries a prefetch plan pins (`CachePinning`) are
///   exempt from both until the plan is removed.
/// - Removing a partition, an endpoint or one of its paths costs the same however many
///   entries it holds. When a removal returns, nothing it removed is left under the folder,
///   trash included; a write racing it is dropped or lands afresh, and never throws.
/// - Only regular files are read: anything else at an entry's path is a miss, removed and
///   reported, and never blocks.
/// - `removalCount` is shared by every store on the folder, in every process, through the
///   small mapped file `<directory>/removals` (see `RemovalCounter`).
public final class FileCacheStore: CacheStore {
    /// The folder holding the store, for diagnostics and for pointing an extension at it.
    public let directory: URL
    /// The size the store is trimmed back under; `nil` for no limit.
    public let maxBytes: Int?
    /// The age, in seconds, after which an entry is dropped; `nil` for no limit.
    public let maxAge: TimeInterval?

    package let now: @Sendable () -> Date
    package let events: (@Sendable (CacheEvent) -> Void)?
    /// Where every file lives under `directory`.
    package let folder: Folder
    /// The running count and the sweeps that apply the limits.
    package let sweeper: Sweeper
    /// The removal counter shared by every store on the folder, in any process.
    package let removals: RemovalCounter
    /// The `removeAll…` calls.
    package let bulkRemoval: BulkRemoval
    /// The queued mutations (`FileCacheStore+MutationOutbox.swift`).
    package let outbox: Outbox
    /// The prefetch plans and the entries they pin (`FileCacheStore+Pinning.swift`).
    package let plans: PrefetchPlans
    /// The deletion of trash found when the store was opened, if there was any; for tests.
    package let trashCleanup: Task<Void, Never>?

    /// The folder of the current layout under `directory`; for tests and tools.
    package static let layoutFolderName = Folder.layoutFolderName
    /// Bytes read before the header is checked: most entries are smaller, so most reads
    /// take one `read`.
    package static let firstReadSize = 64 * 1024

    /// Opens (creating if needed) a store; lists its folder but no entry and reads none, so
    /// opening is instant however many entries there are. Trash a crashed removal left is
    /// deleted in the background.
    ///
    /// - Parameters:
    ///   - directory: the store's folder; `nil` for the platform cache folder plus
    ///     `cachegen` (`Library/Caches[/<bundle id> on macOS]/cachegen` on Apple
    ///     platforms, `$XDG_CACHE_HOME/cachegen` or `~/.cache/cachegen` elsewhere). Pass an
    ///     app group container's folder to share entries with an extension.
    ///   - maxBytes: trim the least recently used entries when the files exceed this size.
    ///   - maxAge: drop entries stored or last used longer ago than this, in seconds.
    ///   - events: receives an `.evict` event for each entry removed for age, size or
    ///     because it was unreadable; called on the store's caller's thread or a background
    ///     one, so it must be quick and thread-safe.
    ///   - now: the clock, injectable for tests.
    public init(
        directory: URL? = nil,
        maxBytes: Int? = nil,
        maxAge: TimeInterval? = nil,
        events: (@Sendable (CacheEvent) -> Void)? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        let directory = try directory ?? Self.defaultDirectory()
        self.directory = directory
        self.maxBytes = maxBytes
        self.maxAge = maxAge
        self.events = events
        self.now = now
        let folder = Folder(directory: directory)
        self.folder = folder
        try Folder.makeDirectories(folder.rootPath)
        try Folder.makeDirectories(folder.entriesPath)
        let removals = RemovalCounter(root: folder.rootPath)
        self.removals = removals
        folder.removeOlderLayouts()
        let trash = Trash(rootPath: folder.rootPath)
        trashCleanup = trash.startDeletingLeftovers()
        outbox = Outbox(folder: folder)
        plans = PrefetchPlans(folder: folder, events: events)
        sweeper = Sweeper(
            maxBytes: maxBytes, maxAge: maxAge, folder: folder, trash: trash, plans: plans, events: events, now: now)
        bulkRemoval = BulkRemoval(folder: folder, trash: trash, removals: removals, sweeper: sweeper)
    }

    /// Its errors name hashed paths only, safe to log.
    public func eventDescription(of error: any Error) -> String? {
        (error as? FileCacheStoreError)?.description
    }

    /// Reads, checks and returns the entry; an unreadable file is removed and reported, not thrown.
    ///
    /// Only a regular file is read: a symbolic link, FIFO, socket, device or folder at the
    /// entry's path is a miss, removed and reported, and never blocks the call. The header
    /// is checked against the file's size before the body is read, so a file longer or
    /// shorter than its header says costs one small read, whatever its size.
    public func entry(for key: CacheKey) async throws -> CacheEntry? {
        // One `open`, one `fstat` and, for a file up to `firstReadSize`, one `read`; a header
        // parse, an XXH64 checksum and a comparison of the stored key text; the body is
        // handed out without a copy.
        let path = folder.entryPath(for: key)
        let fd: Int32
        do throws(FileCacheStoreError) {
            fd = try POSIX.openForReading(path)
        } catch {
            if error.isNoSuchPath { return nil }
            // A symbolic link (`ELOOP`), a socket (`ENXIO`) and the like fail to open; what
            // is at the path decides whether that is a miss or an error.
            guard let info = try? POSIX.status(atPath: path), !info.isRegularFile else { throw error }
            discard(path, opened: info, key: key, message: "unreadable entry removed: \(CacheFileFormat.Problem.notAFile.reason)")
            return nil
        }
        defer { try? POSIX.closeFile(fd, path: path) }
        let info = try POSIX.status(of: fd, path: path)
        guard info.isRegularFile else {
            discard(path, opened: info, key: key, message: "unreadable entry removed: \(CacheFileFormat.Problem.notAFile.reason)")
            return nil
        }
        let size = info.size
        var buffer = try POSIX.readAll(fd, capacity: min(size, Self.firstReadSize), path: path)
        switch CacheFileFormat.fileSize(header: buffer.bytes) {
        case .failure(let problem):
            discard(path, opened: info, key: key, message: "unreadable entry removed: \(problem.reason)")
            return nil
        case .success(let expected) where expected != size:
            let problem: CacheFileFormat.Problem = expected < size ? .longerThanHeader : .truncated
            discard(path, opened: info, key: key, message: "unreadable entry removed: \(problem.reason)")
            return nil
        case .success:
            if size > buffer.count { try POSIX.readMore(fd, into: &buffer, upTo: size, path: path) }
        }

        let now = self.now()
        let layout: CacheFileFormat.Layout
        switch CacheFileFormat.decode(buffer.bytes, keyText: key.text) {
        case .failure(let problem):
            discard(path, opened: info, key: key, message: "unreadable entry removed: \(problem.reason)")
            return nil
        case .success(let found):
            layout = found
        }
        // `maxAge` counts from the stored date here, and from the last use in sweeps.
        let age = now.timeIntervalSince(layout.date)
        if let maxAge, age > maxAge, !plans.isPinned(key) {
            discard(path, opened: info, key: key, message: "expired entry removed: older than maxAge", age: age)
            return nil
        }
        // The modification date is the entry's last use, which sweeps read.
        if abs(now.timeIntervalSince1970 - info.modificationTime) >= Self.touchGranularity {
            try? POSIX.setTimes(fd, now, path: path)
        }
        let body = buffer.data(in: layout.bodyOffset..<layout.bodyOffset + layout.bodyCount)
        return CacheEntry(
            body: body, date: layout.date, etag: layout.etag, lastModified: layout.lastModified, freshness: layout.freshness)
    }

    /// Writes the entry to a temporary file and renames it into place, so no reader sees half of it.
    public func setEntry(_ entry: CacheEntry, for key: CacheKey) async throws {
        // No `fsync`: this is a cache, and after a power loss or a crash the checksum turns a
        // half-flushed file into a miss.
        let entryFolder = folder.folderPath(for: key)
        let target = entryFolder + "/" + key.digest
        guard let bytes = CacheFileFormat.encode(entry, key: key) else {
            throw FileCacheStoreError.tooLarge(operation: "encode", path: target)
        }
        let now = self.now()
        // `nil`: removals kept taking the folder away; the write loses to them.
        guard let (fd, temporary) = try Folder.createTemporaryFile(in: entryFolder) else { return }
        do {
            try POSIX.writeAll(fd, bytes, path: temporary)
            try? POSIX.setPermissions(fd, 0o600, path: temporary)
            try? POSIX.setTimes(fd, now, path: temporary)  // the last use, which sweeps read
            Folder.protect(temporary)
        } catch {
            try? POSIX.closeFile(fd, path: temporary)
            try? POSIX.removeFile(temporary)
            throw error
        }
        do {
            try POSIX.closeFile(fd, path: temporary, operation: "write")
        } catch {
            try? POSIX.removeFile(temporary)
            throw error
        }
        let replaced = Self.regularFileSize(at: target)
        var unlinkedOld = false
        #if os(Linux) || os(Android)
        // ext4 (auto_da_alloc) starts writing the new file's blocks out when a rename replaces
        // an existing file, which doubles the cost of a write (about 190 µs instead of 90 for
        // 1 KB); removing the old file first avoids that. A reader in between sees no entry, a
        // miss, which the `CacheStore` contract allows; the client reads its own pending write.
        if replaced != nil { unlinkedOld = (try? POSIX.removeFile(target)) != nil }
        #endif
        do throws(FileCacheStoreError) {
            try POSIX.move(temporary, to: target)
        } catch {
            try? POSIX.removeFile(temporary)
            if unlinkedOld, let replaced { sweeper.record(Usage(bytes: -replaced, count: -1), isWrite: false) }
            // The folder was moved away while we wrote (a removal, a sign-out, maybe in another
            // process; it may have been made anew since): the write lost a race it should
            // lose, so it is dropped rather than resurrected.
            if error.isNoSuchFile { return }
            throw error
        }
        sweeper.record(Usage(bytes: bytes.count - (replaced ?? 0), count: replaced == nil ? 1 : 0), isWrite: true)
    }

    /// Deletes the entry's file. Not counted in `removalCount`: one key's housekeeping,
    /// which the client does itself (see `CacheStore.removalCount`).
    public func removeEntry(for key: CacheKey) async throws {
        let path = folder.entryPath(for: key)
        let info: POSIX.Status
        do throws(FileCacheStoreError) {
            info = try POSIX.status(atPath: path, operation: "remove")
            try POSIX.removeFile(path)
        } catch {
            if error.isNoSuchPath { return }
            throw error
        }
        sweeper.record(Usage(bytes: -info.size, count: -1), isWrite: false)
    }

    /// Removes an unreadable or expired file (or whatever else is at the path), unless
    /// another writer replaced it since we opened it, and reports it.
    private func discard(_ path: String, opened: POSIX.Status, key: CacheKey, message: String, age: Double? = nil) {
        guard let current = try? POSIX.status(atPath: path), current.isSameFile(as: opened) else { return }
        let isFile = current.isRegularFile
        // `unlink` removes a link, FIFO, socket or device node itself, never what a link points to.
        let removed = current.isFolder ? (try? POSIX.removeTree(path)) != nil : (try? POSIX.removeFile(path)) != nil
        if removed {
            if isFile { sweeper.record(Usage(bytes: -current.size, count: -1), isWrite: false) }
            events?(.evicted(endpoint: key.endpoint, digest: key.digest, age: age, message: message))
        } else {
            events?(CacheEvent(
                kind: .error, endpoint: key.endpoint, key: key.description, age: age,
                message: message.replacingOccurrences(of: " removed:", with: " could not be removed:")))
        }
    }

    /// The entry's file; for tests and tools.
    package func entryPath(for key: CacheKey) -> String {
        folder.entryPath(for: key)
    }

    /// The name of a partition's folder (`shared` for `nil`); for tests and tools.
    package static func partitionFolderName(_ partition: String?) -> String {
        Folder.partitionFolderName(partition)
    }

    private static func regularFileSize(at path: String) -> Int? {
        guard let info = try? POSIX.status(atPath: path), info.isRegularFile else { return nil }
        return info.size
    }
}
