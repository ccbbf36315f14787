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
    /// `directory` as a file system path, without a trailing slash.
    package let rootPath: String
    /// The folder of the current layout, which holds every entry.
    package let entriesPath: String
    /// Folder paths by partition, endpoint and path (see `folderPath(for:)`).
    package let folders = Locked<[FolderKey: String]>([:])
    /// The running count and the sweep bookkeeping.
    package let state = Locked(State())
    /// The removal counter shared by every store on the folder, in any process.
    package let removals: RemovalCounter
    /// The last sequence number given to a queued mutation, by outbox folder (see
    /// `FileCacheStore+MutationOutbox.swift`).
    package let outboxSequences = Locked<[String: UInt64]>([:])
    /// The entry files the prefetch plans pin, as last read (see `FileCacheStore+Pinning.swift`).
    package let pins = Locked<PinnedPaths?>(nil)
    /// The deletion of trash found when the store was opened, if there was any; for tests.
    package let trashCleanup: Task<Void, Never>?

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
        var root = directory.withUnsafeFileSystemRepresentation { $0.map { String(cString: $0) } } ?? directory.path
        while root.count > 1, root.hasSuffix("/") { root.removeLast() }
        rootPath = root
        entriesPath = root + "/" + Self.layoutFolderName
        try Self.makeDirectories(rootPath)
        try Self.makeDirectories(entriesPath)
        removals = RemovalCounter(root: root)
        Self.removeOlderLayouts(root: root)
        trashCleanup = Self.startDeletingTrash(in: root)
    }

    /// Grows with every `removeAll…` through any store on this folder, in this process or
    /// another: each adds one before it starts and one after it ends. One aligned
    /// load from a shared mapping, no system call and no lock (see `RemovalCounter`).
    public var removalCount: UInt64 { removals.value }

    /// The scopes of the removals since `count` through any store on this folder, in this
    /// process or another, from the log beside the count (`RemovalLog`: the last 63 removals
    /// or so); `nil` when the log does not know them all. One shared `flock` and one read.
    public func removals(since count: UInt64) -> [RemovalScope]? {
        removals.scopes(since: count)
    }

    /// Runs a removal of `scope` between two increments of the removal count, so a reader
    /// that saw the count before or during the removal sees it change, and finds the scope.
    package func removing<T>(
        _ scope: RemovalScope, _ body: () throws(FileCacheStoreError) -> T
    ) throws(FileCacheStoreError) -> T {
        removals.increment(scope)
        defer { removals.increment(scope) }
        return try body()
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
        let path = entryPath(for: key)
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
        if let maxAge, age > maxAge, !isPinned(key) {
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
        let folder = folderPath(for: key)
        let target = folder + "/" + key.digest
        guard let bytes = CacheFileFormat.encode(entry, key: key) else {
            throw FileCacheStoreError.tooLarge(operation: "encode", path: target)
        }
        let now = self.now()
        // `nil`: removals kept taking the folder away; the write loses to them.
        guard let (fd, temporary) = try Self.createTemporaryFile(in: folder) else { return }
        do {
            try POSIX.writeAll(fd, bytes, path: temporary)
            try? POSIX.setPermissions(fd, 0o600, path: temporary)
            try? POSIX.setTimes(fd, now, path: temporary)  // the last use, which sweeps read
            Self.protect(temporary)
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
            if unlinkedOld, let replaced { record(Usage(bytes: -replaced, count: -1), isWrite: false) }
            // The folder was moved away while we wrote (a removal, a sign-out, maybe in another
            // process; it may have been made anew since): the write lost a race it should
            // lose, so it is dropped rather than resurrected.
            if error.isNoSuchFile { return }
            throw error
        }
        record(Usage(bytes: bytes.count - (replaced ?? 0), count: replaced == nil ? 1 : 0), isWrite: true)
    }

    /// Deletes the entry's file. Not counted in `removalCount`: one key's housekeeping,
    /// which the client does itself (see `CacheStore.removalCount`).
    public func removeEntry(for key: CacheKey) async throws {
        let path = entryPath(for: key)
        let info: POSIX.Status
        do throws(FileCacheStoreError) {
            info = try POSIX.status(atPath: path, operation: "remove")
            try POSIX.removeFile(path)
        } catch {
            if error.isNoSuchPath { return }
            throw error
        }
        record(Usage(bytes: -info.size, count: -1), isWrite: false)
    }

    /// Removes an unreadable or expired file (or whatever else is at the path), unless
    /// another writer replaced it since we opened it, and reports it.
    private func discard(_ path: String, opened: POSIX.Status, key: CacheKey, message: String, age: Double? = nil) {
        guard let current = try? POSIX.status(atPath: path), current.isSameFile(as: opened) else { return }
        let isFile = current.isRegularFile
        // `unlink` removes a link, FIFO, socket or device node itself, never what a link points to.
        let removed = current.isFolder ? (try? POSIX.removeTree(path)) != nil : (try? POSIX.removeFile(path)) != nil
        if removed {
            if isFile { record(Usage(bytes: -current.size, count: -1), isWrite: false) }
            report(endpoint: key.endpoint, digest: key.digest, age: age, message: message)
        } else {
            events?(CacheEvent(
                kind: .error, endpoint: key.endpoint, key: key.description, age: age,
                message: message.replacingOccurrences(of: " removed:", with: " could not be removed:")))
        }
    }

    /// Bytes read before the header is checked: most entries are smaller, so most reads
    /// take one `read`.
    package static let firstReadSize = 64 * 1024

    /// Sends an `.evict` event naming the entry by the start of its digest.
    package func report(endpoint: String, digest: String, age: Double?, message: String) {
        events?(CacheEvent(kind: .evict, endpoint: endpoint, key: String(digest.prefix(16)), age: age, message: message))
    }

    /// A new file named `.tmp-<random>` in `folder`, creating the folder if a sweep or a
    /// removal took it away; `nil` if removals (in any process) took it away on every try,
    /// which drops the write rather than failing it.
    private static func createTemporaryFile(in folder: String) throws(FileCacheStoreError) -> (Int32, String)? {
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

    /// Keeps entries readable by background refreshes after the first unlock, and encrypted
    /// before it.
    package static func protect(_ path: String) {
        #if os(iOS) || os(watchOS) || os(visionOS)
        try? FileManager.default.setAttributes(
            [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication], ofItemAtPath: path)
        #endif
    }

    private static func regularFileSize(at path: String) -> Int? {
        guard let info = try? POSIX.status(atPath: path), info.isRegularFile else { return nil }
        return info.size
    }

    /// A random name part for temporary files and trash folders.
    package static func randomName() -> String {
        String(UInt64.random(in: .min ... .max), radix: 16)
    }
}
