import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// A `CacheStore` that keeps one file per entry in the app's cache folder, so cached
/// answers survive relaunches and can be shared with an app extension through a common
/// folder.
///
/// **Layout.** `<directory>/v2/<partition>/<endpoint>/<path>/<digest>`, where `<partition>`
/// is `shared` for shared entries or `p-` and the first 32 hex digits of the SHA-256 of the
/// partition (a user id never appears in a path), `<endpoint>` and `<path>` are the first 32
/// hex digits of the SHA-256 of the endpoint name and of `CacheKey.path` (so every page of
/// `/accounts?page=…` shares one folder, and `/accounts/42` has its own), and `<digest>` is
/// `CacheKey.digest`. Sign-out (`removeAll(partition:)`), `removeAll(endpoint:)` and an
/// invalidation (`removeAll(endpoint:path:)`) are therefore folder removals, not scans. A
/// folder of an older layout (`v1`, without the path level) is deleted in the background
/// when a store is opened on it. Each file is in the format described at `CacheFileFormat`. Folders are created
/// with mode 0700 and files with 0600 (on iOS, watchOS and visionOS also with data
/// protection until first unlock, so background refreshes can still read them).
///
/// **Writes** go to a uniquely named temporary file in the entry's folder, which is then
/// `rename(2)`d to the entry's name, so every reader, in this process or another one sharing
/// the folder, sees the old file or the new one, never a mix. On Linux the old file is
/// unlinked just before the rename (ext4 flushes a file renamed over an existing one, which
/// doubled the cost of a write), so a reader may also see no file for that moment: a miss.
/// There is no `fsync`: this is a cache, and after a power loss or a crash the checksum
/// turns a half-flushed file into a miss.
///
/// **Reads** are one `open` + `read` of the whole file, a header parse, an XXH64 checksum and
/// a comparison of the stored key text with `CacheKey.text`; the body is handed out without
/// a copy. Anything unreadable is a miss, is removed, and is reported through `events` as
/// an `.evict` event, never as a thrown error or a crash.
///
/// **Limits and size tracking.** The store keeps a running byte and entry count in memory.
/// It is unknown when the store is opened (opening lists nothing) and is learnt by the
/// first *sweep*: one walk over all entry files that removes entries unused for longer than
/// `maxAge`, then, if the total is over `maxBytes`, the least recently used entries until it
/// is under 90% of `maxBytes` (so the next sweep is not one write away). "Used" means last
/// read or written: the file's modification date is set to `now()` on each write and on a
/// read when it is an hour or more old (`touchGranularity`), so recency is known to the hour
/// and most reads write no metadata. When limits are set, a write starts a sweep in a
/// detached background-priority task when the count is unknown, when it exceeds
/// `maxBytes`, after every 1,000 writes, or when an hour has passed since the last sweep;
/// a request never waits for one. Between sweeps the count is kept by this process's
/// writes and removals; another process writing to the same folder makes it approximate
/// until the next sweep. `trim()` runs a sweep on demand.
///
/// **`maxAge`** counts from the entry's stored date on reads (an older entry is a miss and is
/// removed) and from the last use in sweeps (which read no file contents), so an entry older
/// than `maxAge` is never returned, and one nobody uses is deleted by the next sweep.
public final class FileCacheStore: CacheStore {
    /// The folder holding the store, for diagnostics and for pointing an extension at it.
    public let directory: URL
    /// The size the store is trimmed back under; `nil` for no limit.
    public let maxBytes: Int?
    /// The age, in seconds, after which an entry is dropped; `nil` for no limit.
    public let maxAge: TimeInterval?

    private let now: @Sendable () -> Date
    private let events: (@Sendable (CacheEvent) -> Void)?
    private let rootPath: String
    private let entriesPath: String
    private let folders = Locked<[FolderKey: String]>([:])
    private let state = Locked(State())

    /// Writes between two sweeps when limits are set, to catch drift and other processes' writes.
    static let sweepEveryWrites = 1_000
    /// Time between two sweeps when limits are set.
    static let sweepInterval: TimeInterval = 3_600
    /// A temporary file older than this (by the real clock) was left by a crashed writer.
    static let abandonedFileAge: TimeInterval = 600
    /// A read refreshes the last-use date only when it is at least this old, sparing a
    /// metadata write (`futimens`) on most reads: with many entries nearly every read would
    /// otherwise find its file's date older than a finer granularity.
    ///
    /// Coarse on purpose. Least-recently-used eviction needs only the order of uses to the
    /// hour, and `maxAge` loses nothing: reads judge it by the entry's stored date, which for
    /// what `CachedClient` writes (the answer's time) is no later than the file's write, so
    /// a sweep that drops a file untouched for longer than `maxAge` drops only what a read
    /// would refuse anyway.
    static let touchGranularity: TimeInterval = 3_600

    /// Opens (creating if needed) a store; lists and reads nothing, so opening is instant
    /// however many entries there are.
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
        Self.removeOlderLayouts(root: root)
    }

    // MARK: - CacheStore

    /// Its errors name hashed paths only, safe to log.
    public func eventDescription(of error: any Error) -> String? {
        (error as? FileCacheStoreError)?.description
    }

    /// Reads, checks and returns the entry; an unreadable file is removed and reported, not thrown.
    public func entry(for key: CacheKey) async throws -> CacheEntry? {
        let path = entryPath(for: key)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw FileCacheStoreError(operation: "open", path: path, code: code)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileCacheStoreError(operation: "inspect", path: path, code: errno) }
        guard Self.isRegularFile(info) else {
            discard(path, opened: info, key: key, message: "unreadable entry removed: \(CacheFileFormat.Problem.notAFile.reason)")
            return nil
        }
        let size = Int(info.st_size)
        guard size > 0 else {
            discard(path, opened: info, key: key, message: "unreadable entry removed: \(CacheFileFormat.Problem.empty.reason)")
            return nil
        }
        guard let base = malloc(size) else { throw FileCacheStoreError(operation: "read", path: path, code: ENOMEM) }
        var filled = 0
        while filled < size {
            let count = read(fd, base + filled, size - filled)
            if count > 0 {
                filled += count
            } else if count == 0 {
                break
            } else if errno != EINTR {
                let code = errno
                free(base)
                throw FileCacheStoreError(operation: "read", path: path, code: code)
            }
        }

        let now = self.now()
        let layout: CacheFileFormat.Layout
        switch CacheFileFormat.decode(UnsafeRawBufferPointer(start: base, count: filled), keyText: key.text) {
        case .failure(let problem):
            free(base)
            discard(path, opened: info, key: key, message: "unreadable entry removed: \(problem.reason)")
            return nil
        case .success(let found):
            layout = found
        }
        let age = now.timeIntervalSince(layout.date)
        if let maxAge, age > maxAge {
            free(base)
            discard(path, opened: info, key: key, message: "expired entry removed: older than maxAge", age: age)
            return nil
        }
        if abs(now.timeIntervalSince1970 - Self.modificationTime(info)) >= Self.touchGranularity {
            Self.setTimes(fd, now)
        }
        let body: Data
        if layout.bodyCount == 0 {
            free(base)
            body = Data()
        } else {
            let address = UInt(bitPattern: base)
            body = Data(
                bytesNoCopy: base + layout.bodyOffset, count: layout.bodyCount,
                deallocator: .custom { _, _ in free(UnsafeMutableRawPointer(bitPattern: address)) })
        }
        return CacheEntry(
            body: body, date: layout.date, etag: layout.etag, lastModified: layout.lastModified, freshness: layout.freshness)
    }

    /// Writes the entry to a temporary file and renames it into place, so no reader sees half of it.
    public func setEntry(_ entry: CacheEntry, for key: CacheKey) async throws {
        let folder = folderPath(for: key)
        let target = folder + "/" + key.digest
        guard let bytes = CacheFileFormat.encode(entry, key: key) else {
            throw FileCacheStoreError(operation: "encode", path: target, code: EFBIG)
        }
        let now = self.now()
        let (fd, temporary) = try Self.createTemporaryFile(in: folder)
        do {
            try Self.writeAll(fd, bytes, path: temporary)
            _ = fchmod(fd, 0o600)
            Self.setTimes(fd, now)
            Self.protect(temporary)
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        guard close(fd) == 0 else {
            let code = errno
            unlink(temporary)
            throw FileCacheStoreError(operation: "write", path: temporary, code: code)
        }
        let replaced = Self.regularFileSize(at: target)
        var unlinkedOld = false
        #if os(Linux) || os(Android)
        // ext4 (auto_da_alloc) starts writing the new file's blocks out when a rename replaces
        // an existing file, which doubles the cost of a write (about 190 µs instead of 90 for
        // 1 KB); removing the old file first avoids that. A reader in between sees no entry, a
        // miss, which the `CacheStore` contract allows; the client reads its own pending write.
        if replaced != nil { unlinkedOld = unlink(target) == 0 }
        #endif
        guard rename(temporary, target) == 0 else {
            let code = errno
            unlink(temporary)
            if unlinkedOld, let replaced { record(Usage(bytes: -replaced, count: -1), isWrite: false) }
            // The folder was removed while we wrote (removeAll, sign-out): the write lost a
            // race it should lose, so it is dropped rather than resurrected.
            if code == ENOENT, access(folder, F_OK) != 0 { return }
            throw FileCacheStoreError(operation: "rename", path: target, code: code)
        }
        record(Usage(bytes: bytes.count - (replaced ?? 0), count: replaced == nil ? 1 : 0), isWrite: true)
    }

    /// Deletes the entry's file.
    public func removeEntry(for key: CacheKey) async throws {
        let path = entryPath(for: key)
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return }
            throw FileCacheStoreError(operation: "remove", path: path, code: code)
        }
        guard unlink(path) == 0 else {
            let code = errno
            if code == ENOENT { return }
            throw FileCacheStoreError(operation: "remove", path: path, code: code)
        }
        record(Usage(bytes: -Int(info.st_size), count: -1), isWrite: false)
    }

    /// Moves the whole entry tree aside in one rename, then deletes it.
    public func removeAll() async throws {
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
        try removeFolder(entriesPath + "/" + Self.partitionFolderName(partition), depth: 2)
    }

    /// Deletes the endpoint's folder in every partition; lists partitions, not entries.
    public func removeAll(endpoint: String) async throws {
        try removeInEveryPartition(Self.endpointFolderName(endpoint), depth: 1)
    }

    /// Deletes the folder of one endpoint's path in every partition (an invalidation after a
    /// mutation); lists partitions, not entries, and leaves the endpoint's other paths.
    public func removeAll(endpoint: String, path: String) async throws {
        try removeInEveryPartition(
            Self.endpointFolderName(endpoint) + "/" + Self.pathFolderName(path), depth: 0)
    }

    /// Removes `relativePath` under each partition folder; tries them all, then throws the
    /// first failure.
    private func removeInEveryPartition(_ relativePath: String, depth: Int) throws {
        var firstError: (any Error)?
        for partition in Self.list(entriesPath) where !partition.hasPrefix(".") {
            do {
                try removeFolder(entriesPath + "/" + partition + "/" + relativePath, depth: depth)
            } catch {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
    }

    /// The bytes of all entry files, headers included; the first call after opening walks
    /// the entries once (see the type's notes), later ones are answered from memory.
    public func totalSize() async throws -> Int {
        await currentUsage().bytes
    }

    /// The number of entries; counted like `totalSize()`.
    public func entryCount() async throws -> Int {
        await currentUsage().count
    }

    // MARK: - Sweeps

    /// Applies `maxAge` and `maxBytes` now and recounts the store; for moments an app has
    /// time to spare, such as moving to the background. Waits for a running sweep first.
    public func trim() async {
        while true {
            let (task, isOurs) = state.withLock { state -> (Task<Void, Never>, Bool) in
                if let running = state.sweep { return (running, false) }
                return (startSweep(&state), true)
            }
            await task.value
            if isOurs { return }
        }
    }

    /// Waits for a sweep started by a write, so tests can look at its result.
    func waitForSweep() async {
        if let task = state.withLock({ $0.sweep }) { await task.value }
    }

    private func currentUsage() async -> Usage {
        for _ in 0..<3 {
            if let usage = state.withLock({ $0.usage }) { return usage.clamped }
            await trim()
        }
        return state.withLock { $0.usage }?.clamped ?? Usage()
    }

    /// Adds a change this process made to the running count, and starts a sweep when a write
    /// makes one due.
    private func record(_ change: Usage, isWrite: Bool) {
        let now = isWrite ? self.now() : Date.distantPast
        state.withLock { state in
            state.usage?.add(change)
            if state.sweep != nil { state.changesDuringSweep.add(change) }
            guard isWrite else { return }
            state.writesSinceSweep += 1
            if needsSweep(state, now: now) { _ = startSweep(&state) }
        }
    }

    private func needsSweep(_ state: State, now: Date) -> Bool {
        guard maxBytes != nil || maxAge != nil, state.sweep == nil else { return false }
        guard let usage = state.usage else { return true }
        if let maxBytes, usage.bytes > maxBytes { return true }
        if state.writesSinceSweep >= Self.sweepEveryWrites { return true }
        if maxAge != nil {
            guard let last = state.lastSweep else { return true }
            return now.timeIntervalSince(last) >= Self.sweepInterval
        }
        return false
    }

    /// Starts a sweep off the caller's path; called with the state locked so only one runs.
    private func startSweep(_ state: inout State) -> Task<Void, Never> {
        state.changesDuringSweep = Usage()
        state.bulkRemovalDuringSweep = false
        let task = Task.detached(priority: .background) { [self] in self.sweep() }
        state.sweep = task
        return task
    }

    /// One walk over every entry file: drops abandoned temporary files, entries unused for
    /// longer than `maxAge`, then least recently used entries while over `maxBytes`.
    private func sweep() {
        let now = self.now()
        removeAbandonedTrash()
        let files = scanEntries()
        var bytes = files.reduce(0) { $0 + $1.size }
        var count = files.count
        var kept: [EntryFile] = []
        kept.reserveCapacity(files.count)
        if let maxAge {
            let cutoff = now.timeIntervalSince1970 - maxAge
            for file in files {
                if file.lastUse < cutoff, evict(file, now: now, reason: "evicted: unused for longer than maxAge") {
                    bytes -= file.size
                    count -= 1
                } else {
                    kept.append(file)
                }
            }
        } else {
            kept = files
        }
        if let maxBytes, bytes > maxBytes {
            let goal = maxBytes - maxBytes / 10
            kept.sort { ($0.lastUse, $0.path) < ($1.lastUse, $1.path) }
            for file in kept {
                guard bytes > goal else { break }
                if evict(file, now: now, reason: "evicted: over maxBytes") {
                    bytes -= file.size
                    count -= 1
                }
            }
        }
        state.withLock { state in
            if state.bulkRemovalDuringSweep {
                state.usage = nil
            } else {
                var usage = Usage(bytes: bytes, count: count)
                usage.add(state.changesDuringSweep)
                state.usage = usage
            }
            state.changesDuringSweep = Usage()
            state.bulkRemovalDuringSweep = false
            state.writesSinceSweep = 0
            state.lastSweep = now
            state.sweep = nil
        }
    }

    /// Every entry file with its size and last use; removes empty folders and abandoned
    /// temporary files on the way.
    private func scanEntries() -> [EntryFile] {
        let abandonedBefore = Date().timeIntervalSince1970 - Self.abandonedFileAge
        var result: [EntryFile] = []
        // An empty folder is removed; a writer racing this recreates it (see
        // createTemporaryFile). A parent emptied this way goes in the next sweep.
        for partition in Self.list(entriesPath) where !partition.hasPrefix(".") {
            let partitionPath = entriesPath + "/" + partition
            let endpoints = Self.list(partitionPath)
            for endpoint in endpoints where !endpoint.hasPrefix(".") {
                let endpointPath = partitionPath + "/" + endpoint
                let paths = Self.list(endpointPath)
                for path in paths where !path.hasPrefix(".") {
                    let folder = endpointPath + "/" + path
                    let names = Self.list(folder)
                    if names.isEmpty {
                        _ = rmdir(folder)
                        continue
                    }
                    for name in names {
                        let file = folder + "/" + name
                        var info = stat()
                        guard lstat(file, &info) == 0 else { continue }
                        if name.hasPrefix(".tmp-") {
                            // The change time, unlike the modification time, is not set from `now()`.
                            if Self.changeTime(info) < abandonedBefore { _ = unlink(file) }
                            continue
                        }
                        guard Self.isDigest(name), Self.isRegularFile(info) else { continue }
                        result.append(EntryFile(
                            path: file, name: name, size: Int(info.st_size), lastUse: Self.modificationTime(info)))
                    }
                }
                if paths.isEmpty { _ = rmdir(endpointPath) }
            }
            if endpoints.isEmpty { _ = rmdir(partitionPath) }
        }
        return result
    }

    /// Removes a file the sweep chose, unless it changed since the scan; reports it.
    private func evict(_ file: EntryFile, now: Date, reason: String) -> Bool {
        var info = stat()
        guard lstat(file.path, &info) == 0, Int(info.st_size) == file.size,
            Self.modificationTime(info) == file.lastUse
        else { return false }
        let header = events == nil ? nil : Self.readHeader(file.path)
        guard unlink(file.path) == 0 else { return false }
        report(
            endpoint: header?.endpoint ?? "", digest: file.name,
            age: header.map { now.timeIntervalSince($0.date) }, message: reason)
        return true
    }

    // MARK: - Bulk removal

    private func removeFolder(_ path: String, depth: Int) throws {
        guard let trash = try moveToTrash(path) else { return }
        let removed = Self.measure(trash, depth: depth)
        state.withLock { state in
            state.usage?.add(Usage(bytes: -removed.bytes, count: -removed.count))
            if state.sweep != nil { state.bulkRemovalDuringSweep = true }
        }
        try deleteTrash(trash)
    }

    /// Renames a folder out of the store in one step, so readers and writers stop seeing it
    /// at once; `nil` if it did not exist.
    private func moveToTrash(_ path: String) throws -> String? {
        let trash = rootPath + "/" + Self.trashPrefix + Self.randomName()
        if rename(path, trash) == 0 { return trash }
        let code = errno
        if code == ENOENT { return nil }
        throw FileCacheStoreError(operation: "remove", path: path, code: code)
    }

    private func deleteTrash(_ trash: String) throws {
        do {
            try FileManager.default.removeItem(atPath: trash)
        } catch {
            throw FileCacheStoreError(operation: "delete removed entries in", path: trash, code: EIO)
        }
    }

    /// Deletes what a crashed `removeAll` left behind; only trees old enough that no
    /// other process can still be deleting them.
    private func removeAbandonedTrash() {
        let abandonedBefore = Date().timeIntervalSince1970 - Self.abandonedFileAge
        for name in Self.list(rootPath) where name.hasPrefix(Self.trashPrefix) {
            let path = rootPath + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, Self.changeTime(info) < abandonedBefore else { continue }
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    private static let trashPrefix = ".cachegen-trash-"

    /// Bytes and entries in a moved-away partition (`depth` 2), endpoint (`depth` 1) or path
    /// (`depth` 0) folder.
    private static func measure(_ path: String, depth: Int) -> Usage {
        var usage = Usage()
        if depth > 0 {
            for name in list(path) { usage.add(measure(path + "/" + name, depth: depth - 1)) }
            return usage
        }
        for name in list(path) where isDigest(name) {
            var info = stat()
            guard lstat(path + "/" + name, &info) == 0, isRegularFile(info) else { continue }
            usage.add(Usage(bytes: Int(info.st_size), count: 1))
        }
        return usage
    }

    // MARK: - Paths

    /// The entry's file; folder names are cached because SHA-256 costs more than the rest
    /// of building the path.
    func entryPath(for key: CacheKey) -> String {
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

    private func folderPath(for key: CacheKey) -> String {
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

    /// The folder of the current layout; bumped when the folder structure changes.
    static let layoutFolderName = "v2"

    /// Deletes the folders of older layouts in the background: one `stat` when nothing is
    /// there, so opening stays instant. Their entries are unreachable, so nothing is lost.
    private static func removeOlderLayouts(root: String) {
        let older = root + "/v1"
        var info = stat()
        guard lstat(older, &info) == 0 else { return }
        let trash = root + "/" + trashPrefix + randomName()
        guard rename(older, trash) == 0 else { return }
        Task.detached(priority: .background) { try? FileManager.default.removeItem(atPath: trash) }
    }

    /// `shared`, or `p-` and a hash, so that no user id is ever part of a path.
    static func partitionFolderName(_ partition: String?) -> String {
        partition.map { "p-" + shortHash($0) } ?? "shared"
    }

    /// A hash, so that any endpoint name is a safe folder name.
    static func endpointFolderName(_ endpoint: String) -> String {
        shortHash(endpoint)
    }

    /// A hash, so that no parameter value of a path (an account number) appears on disk.
    static func pathFolderName(_ path: String) -> String {
        shortHash(path)
    }

    private static func shortHash(_ text: String) -> String {
        String(SHA256.hex(of: text).prefix(32))
    }

    /// The default folder on Apple platforms, or from the XDG rules elsewhere.
    static func defaultDirectory() throws -> URL {
        #if canImport(Darwin)
        guard var caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first else {
            throw FileCacheStoreError(operation: "find the caches folder for", path: "cachegen", code: ENOENT)
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
    static func xdgDirectory(environment: [String: String], home: String) -> URL {
        if let cacheHome = environment["XDG_CACHE_HOME"], cacheHome.hasPrefix("/") {
            return URL(fileURLWithPath: cacheHome, isDirectory: true).appendingPathComponent("cachegen", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".cache", isDirectory: true)
            .appendingPathComponent("cachegen", isDirectory: true)
    }

    // MARK: - Files

    /// Removes an unreadable or expired file, unless another writer replaced it since we
    /// opened it, and reports it.
    private func discard(_ path: String, opened: stat, key: CacheKey, message: String, age: Double? = nil) {
        var current = stat()
        guard lstat(path, &current) == 0, current.st_dev == opened.st_dev, current.st_ino == opened.st_ino else {
            return
        }
        let isFile = Self.isRegularFile(current)
        let removed = isFile ? unlink(path) == 0 : (try? FileManager.default.removeItem(atPath: path)) != nil
        if removed {
            if isFile { record(Usage(bytes: -Int(current.st_size), count: -1), isWrite: false) }
            report(endpoint: key.endpoint, digest: key.digest, age: age, message: message)
        } else {
            events?(CacheEvent(
                kind: .error, endpoint: key.endpoint, key: key.description, age: age,
                message: message.replacingOccurrences(of: " removed:", with: " could not be removed:")))
        }
    }

    private func report(endpoint: String, digest: String, age: Double?, message: String) {
        events?(CacheEvent(kind: .evict, endpoint: endpoint, key: String(digest.prefix(16)), age: age, message: message))
    }

    /// Creates the folders of `path` that are missing, each with mode 0700.
    static func makeDirectories(_ path: String) throws {
        if mkdir(path, 0o700) == 0 {
            finishDirectory(path)
            return
        }
        let code = errno
        if code == EEXIST { return }
        guard code == ENOENT, let slash = path.lastIndex(of: "/"), slash != path.startIndex else {
            throw FileCacheStoreError(operation: "create folder", path: path, code: code)
        }
        try makeDirectories(String(path[..<slash]))
        if mkdir(path, 0o700) == 0 {
            finishDirectory(path)
            return
        }
        let retry = errno
        if retry == EEXIST { return }
        throw FileCacheStoreError(operation: "create folder", path: path, code: retry)
    }

    /// Sets 0700 whatever the umask, and data protection where the platform has it.
    private static func finishDirectory(_ path: String) {
        _ = chmod(path, 0o700)
        protect(path)
    }

    /// A new file named `.tmp-<random>` in `folder`, creating the folder if a sweep or a
    /// removal took it away.
    private static func createTemporaryFile(in folder: String) throws -> (Int32, String) {
        var attempt = 0
        while true {
            attempt += 1
            let path = folder + "/.tmp-" + randomName()
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd >= 0 { return (fd, path) }
            let code = errno
            guard attempt < 8 else {
                throw FileCacheStoreError(operation: "create a temporary file in", path: folder, code: code)
            }
            switch code {
            case ENOENT: try makeDirectories(folder)
            case EEXIST, EINTR: continue
            default: throw FileCacheStoreError(operation: "create a temporary file in", path: folder, code: code)
            }
        }
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws {
        try bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var written = 0
            while written < buffer.count {
                let count = write(fd, base + written, buffer.count - written)
                if count > 0 {
                    written += count
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    throw FileCacheStoreError(operation: "write", path: path, code: count < 0 ? errno : EIO)
                }
            }
        }
    }

    /// Records a use: sets the access and modification dates, which the sweep reads as "last used".
    private static func setTimes(_ fd: Int32, _ date: Date) {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 1e15 else { return }
        let whole = seconds.rounded(.down)
        let time = timespec(tv_sec: time_t(whole), tv_nsec: Int((seconds - whole) * 1_000_000_000))
        var times = [time, time]
        _ = futimens(fd, &times)
    }

    /// Keeps entries readable by background refreshes after the first unlock, and encrypted
    /// before it.
    private static func protect(_ path: String) {
        #if os(iOS) || os(watchOS) || os(visionOS)
        try? FileManager.default.setAttributes(
            [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication], ofItemAtPath: path)
        #endif
    }

    private static func readHeader(_ path: String) -> (endpoint: String, date: Date)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var prefix = [UInt8](repeating: 0, count: CacheFileFormat.headerPrefixSize)
        let count = prefix.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return prefix.withUnsafeBytes { CacheFileFormat.header(of: UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }

    private static func regularFileSize(at path: String) -> Int? {
        var info = stat()
        guard lstat(path, &info) == 0, isRegularFile(info) else { return nil }
        return Int(info.st_size)
    }

    private static func list(_ path: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    }

    private static func isDigest(_ name: String) -> Bool {
        name.utf8.count == 64
            && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    private static func isRegularFile(_ info: stat) -> Bool {
        Int(info.st_mode) & Int(S_IFMT) == Int(S_IFREG)
    }

    private static func modificationTime(_ info: stat) -> Double {
        #if canImport(Darwin)
        seconds(info.st_mtimespec)
        #else
        seconds(info.st_mtim)
        #endif
    }

    private static func changeTime(_ info: stat) -> Double {
        #if canImport(Darwin)
        seconds(info.st_ctimespec)
        #else
        seconds(info.st_ctim)
        #endif
    }

    private static func seconds(_ time: timespec) -> Double {
        Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
    }

    private static func randomName() -> String {
        String(UInt64.random(in: .min ... .max), radix: 16)
    }
}

/// A file operation of `FileCacheStore` failed (disk full, permissions, a folder that went
/// away); it names the operation, the path and the system's reason so a log line is enough
/// to act on. Unreadable entries are never reported this way: they are misses.
public struct FileCacheStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the store was doing, such as `write` or `rename`.
    public var operation: String
    /// The file or folder involved; its names are hashes, so it is safe to log.
    public var path: String
    /// The `errno` value the system reported.
    public var code: Int32

    /// Creates an error; the store builds these, tests may compare against them.
    public init(operation: String, path: String, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// `FileCacheStore could not write /…/.tmp-1f: No space left on device (errno 28)`.
    public var description: String {
        "FileCacheStore could not \(operation) \(path): \(String(cString: strerror(code))) (errno \(code))"
    }
}

/// Bytes and entries, as counted by the store.
private struct Usage: Equatable {
    var bytes = 0
    var count = 0

    mutating func add(_ other: Usage) {
        bytes += other.bytes
        count += other.count
    }

    /// Never negative, even when another process's removals made the count drift.
    var clamped: Usage { Usage(bytes: max(0, bytes), count: max(0, count)) }
}

/// What the store tracks between calls.
private struct State {
    /// The running count; `nil` until the first sweep.
    var usage: Usage?
    /// The running sweep, if any; there is never more than one.
    var sweep: Task<Void, Never>?
    /// This process's changes while a sweep runs, added to the sweep's count when it ends.
    var changesDuringSweep = Usage()
    /// A folder was removed while a sweep ran, so its count cannot be trusted.
    var bulkRemovalDuringSweep = false
    var writesSinceSweep = 0
    var lastSweep: Date?
}

/// The cache key of `FileCacheStore`'s folder-path cache.
private struct FolderKey: Hashable {
    var partition: String?
    var endpoint: String
    var path: String
}

/// One entry file as a sweep saw it.
private struct EntryFile {
    var path: String
    var name: String
    var size: Int
    var lastUse: Double
}
