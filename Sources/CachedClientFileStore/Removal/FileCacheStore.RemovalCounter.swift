import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues
import Foundation

extension FileCacheStore {
    /// The number behind `removalCount`: shared by every store, in any process, that opens
    /// the same folder, so a client holding a value in memory learns of a removal made
    /// anywhere by comparing two numbers.
    ///
    /// It lives in `<directory>/removals`: eight bytes, a little-endian `UInt64`, mapped
    /// read-only and `MAP_SHARED` by each store that opens the folder, so every process
    /// sees the same page of the file. The rest of the file is the log of recent removals
    /// (see `RemovalLog`), read only once the number has moved.
    ///
    /// - Reading is two aligned 8-byte loads (the mapped file and this process's fallback
    ///   count, below) and an addition: no system call and no lock. Both are 8-byte aligned
    ///   (a mapping starts on a page, the fallback is its own allocation), and an aligned
    ///   8-byte load or store is single-copy atomic on the 64-bit processors the runtime
    ///   runs on (x86-64, arm64, arm64_32): a reader sees the old number or the new one,
    ///   never a mix. It needs no ordering beyond that: it compares the number with an
    ///   earlier one, and the store increments before a removal starts and again after it
    ///   ends, so a reader that loaded the old number while a removal ran sees the change
    ///   on its next load.
    /// - Incrementing takes the file's `flock` (excluding other processes and other stores
    ///   in this one, each with its own open file) and, for threads sharing this store's
    ///   descriptor, which `flock` does not exclude, an in-process lock; then reads the
    ///   number with `pread` and writes it plus one with `pwrite`. The mapping sees the
    ///   write at once (one page cache). No increment is lost, so the number only grows.
    ///   Writes go through `pwrite`, not the mapping, because a store to a shared mapping
    ///   that cannot reach the file (a full or read-only file system) kills the process
    ///   with `SIGBUS`, while `pwrite` just fails.
    /// - When the file cannot be written (an increment fails, or the file cannot be opened
    ///   for writing) the increment goes to a count kept in this process per folder path,
    ///   which every store in this process on the folder adds in; when it cannot be mapped
    ///   at all, that count is the whole number. So stores in this process always see each
    ///   other's removals, and other processes' removals are seen whenever the file exists;
    ///   what is lost is only other processes' removals when there is no file, in a folder
    ///   where this process can create none.
    /// - The file is the store's own, like any entry: truncating it while mapped makes the
    ///   next read fault (`SIGBUS`), as it would for SQLite's shared-memory index.
    package final class RemovalCounter: @unchecked Sendable {
        /// The file's name in the store's folder.
        package static let fileName = "removals"
        private static let length = MemoryLayout<UInt64>.size

        /// The mapped eight bytes, or `nil` when the file could not be mapped.
        private let mapping: UnsafeRawPointer?
        /// The mapped file's descriptor (for the log), or -1.
        private let fd: Int32
        /// Whether `fd` is open for writing.
        private let writable: Bool
        private let path: String
        /// Serializes this store's increments and log reads: `flock` does not exclude threads
        /// sharing a descriptor.
        private let incrementing = Locked(())
        /// This process's count for the folder, for increments the file did not take.
        private let local: LocalCount

        /// Opens or creates the counter file in `root` and maps it; never throws, falling back
        /// as described above.
        package init(root: String) {
            let path = root + "/" + Self.fileName
            self.path = path
            local = LocalCount.forFolder(root)
            let writable = Self.open(path, writable: true)
            let opened = writable ?? Self.open(path, writable: false)
            let mapping = opened.flatMap { try? POSIX.mapShared($0, length: Self.length, path: path) }
            self.mapping = mapping
            if let opened, mapping == nil { POSIX.closeQuietly(opened) }
            fd = mapping == nil ? -1 : opened ?? -1
            self.writable = fd >= 0 && opened == writable
        }

        deinit {
            if let mapping { POSIX.unmap(mapping, length: Self.length) }
            if fd >= 0 { POSIX.closeQuietly(fd) }
        }

        /// The current number; see the type's documentation for why plain loads are enough.
        @inline(__always)
        package var value: UInt64 {
            let shared = mapping.map { UInt64(littleEndian: $0.load(as: UInt64.self)) } ?? 0
            return shared &+ local.value
        }

        /// Adds one, with `scope` in the log for the new number: called before a removal
        /// starts and again after it ends. The log's slot is written before the number, under
        /// the same lock, so a reader that sees the number finds the scope; a slot that could
        /// not be written is one the log does not know (so: everything).
        package func increment(_ scope: RemovalScope) {
            let written = writable && incrementing.withLock { _ -> Bool in
                do throws(FileCacheStoreError) {
                    try POSIX.lockExclusively(fd, path: path)
                    defer { try? POSIX.unlock(fd, path: path) }
                    let number = try POSIX.readNumber(fd, path: path) &+ 1
                    try? RemovalLog.record(scope, as: number, fd: fd, path: path)
                    try POSIX.writeNumber(fd, number, path: path)
                    return true
                } catch {
                    return false
                }
            }
            if !written { local.increment() }
        }

        /// The scopes of the removals since `count`, from the log; `nil` when it does not know
        /// them all: a log overflowed, corrupt, foreign or missing, another process that does
        /// not log (an older version), or increments this process had to keep for itself.
        package func scopes(since count: UInt64) -> [RemovalScope]? {
            guard fd >= 0, local.value == 0 else { return nil }
            // Under the in-process lock too: a shared `flock` taken through the descriptor an
            // increment holds exclusively would turn that lock into a shared one, and release it.
            let read = incrementing.withLock { _ -> [UInt8]? in
                do throws(FileCacheStoreError) {
                    try POSIX.lockShared(fd, path: path)
                    defer { try? POSIX.unlock(fd, path: path) }
                    return try POSIX.readBytes(fd, count: RemovalLog.fileLength, path: path)
                } catch {
                    return nil
                }
            }
            guard let bytes = read, local.value == 0 else { return nil }
            return RemovalLog.scopes(in: bytes, since: count)
        }

        /// Opens the file and checks it is a regular one of at least eight bytes, sizing it
        /// (with room for the log) when it was just created or made by a version without the
        /// log; `nil` if any step fails.
        private static func open(_ path: String, writable: Bool) -> Int32? {
            guard let fd = try? POSIX.openShared(path, writable: writable) else { return nil }
            do throws(FileCacheStoreError) {
                let info = try POSIX.status(of: fd, path: path)
                // Growing keeps the number (and a log a longer file holds) as it is, and
                // fills the log's room with zeros, a log nobody has written yet.
                if info.isRegularFile, writable, info.size < RemovalLog.fileLength {
                    try POSIX.setLength(fd, RemovalLog.fileLength, path: path)
                    return fd
                }
                if info.isRegularFile, info.size >= length { return fd }
            } catch {}
            POSIX.closeQuietly(fd)
            return nil
        }
    }

    /// One count per folder path for the whole process, read with a plain aligned load
    /// (see `RemovalCounter`) and incremented under a lock.
    package final class LocalCount: @unchecked Sendable {
        private let storage: UnsafeMutablePointer<UInt64>
        private let lock = NSLock()

        private init() {
            // Never freed: one per folder path for the life of the process.
            storage = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
            storage.initialize(to: 0)
        }

        /// The current count.
        @inline(__always)
        package var value: UInt64 { UnsafeRawPointer(storage).load(as: UInt64.self) }

        /// Adds one.
        package func increment() {
            lock.lock()
            defer { lock.unlock() }
            storage.pointee &+= 1
        }

        /// The count of the folder at `root`, shared by every store on it in this process.
        package static func forFolder(_ root: String) -> LocalCount {
            counts.withLock { counts in
                if let count = counts[root] { return count }
                let count = LocalCount()
                counts[root] = count
                return count
            }
        }

        private static let counts = Locked<[String: LocalCount]>([:])
    }
}
