import Foundation

extension FileCacheStore {
    /// The number behind `removalCount`: shared by every store, in any process, that opens
    /// the same folder, so a client holding a value in memory learns of a removal made
    /// anywhere by comparing two numbers.
    ///
    /// It lives in `<directory>/removals`, eight bytes (a little-endian `UInt64` on every
    /// platform the runtime supports), mapped `MAP_SHARED` by each store that opens the
    /// folder, so every process sees the same memory.
    ///
    /// - Reading is one aligned 8-byte load from the mapping: no system call and no lock.
    ///   The mapping starts on a page boundary, so the load is aligned, and an aligned 8-byte
    ///   load or store is single-copy atomic on the 64-bit processors the runtime runs on
    ///   (x86-64, arm64, arm64_32): a reader sees the old number or the new one, never a mix.
    ///   A reader needs no ordering beyond that: it compares the number with an earlier one,
    ///   and the store increments before a removal starts and again after it ends, so a
    ///   reader that loaded the old number while a removal ran sees the change on its next load.
    /// - Incrementing takes the file's `flock` (excluding other processes and other stores
    ///   in this one, each with its own open file) and, for threads sharing this store's
    ///   descriptor, which `flock` does not exclude, an in-process lock; then loads, adds
    ///   one and stores. No increment is lost, so the number only grows.
    /// - If the file cannot be created or mapped (a read-only folder, a file system without
    ///   shared mappings), the count falls back to a counter kept in this process per folder
    ///   path, so every store in this process on the folder still sees the others' removals,
    ///   added to the mapped file's number when the file exists and can only be read (so
    ///   removals by processes that can write the folder are still seen). What is lost is
    ///   only seeing other processes' removals when there is no file at all, in a folder
    ///   this process cannot write.
    /// - The file is the store's own, like any entry: truncating it while mapped makes the
    ///   next read fault (`SIGBUS`), as it would for SQLite's shared-memory index.
    final class RemovalCounter: @unchecked Sendable {
        /// The file's name in the store's folder.
        static let fileName = "removals"
        private static let length = MemoryLayout<UInt64>.size

        /// The mapped eight bytes, or `nil` when the file could not be mapped.
        private let mapping: UnsafeMutableRawPointer?
        /// Whether this store increments the mapped number (else its own removals go to `local`).
        private let writable: Bool
        private let fd: Int32
        private let path: String
        /// Serializes this store's increments: `flock` does not exclude threads sharing a descriptor.
        private let incrementing = Locked(())
        /// This process's count for the folder when the file cannot be written.
        private let local: Locked<UInt64>

        /// Opens or creates the counter file in `root` and maps it; never throws, falling back
        /// as described above.
        init(root: String) {
            path = root + "/" + Self.fileName
            local = Self.localCounter(for: root)
            var opened: (fd: Int32, mapping: UnsafeMutableRawPointer, writable: Bool)?
            for writable in [true, false] where opened == nil {
                opened = Self.map(path, writable: writable)
            }
            fd = opened?.fd ?? -1
            mapping = opened?.mapping
            writable = opened?.writable ?? false
        }

        deinit {
            if let mapping { POSIX.unmap(mapping, length: Self.length) }
            if fd >= 0 { POSIX.closeQuietly(fd) }
        }

        /// The current number; see the type's documentation for why a plain load is enough.
        @inline(__always)
        var value: UInt64 {
            guard let mapping else { return local.withLock { $0 } }
            let shared = UInt64(littleEndian: mapping.load(as: UInt64.self))
            return writable ? shared : shared &+ local.withLock { $0 }
        }

        /// Adds one: called before a removal starts and again after it ends.
        func increment() {
            guard let mapping, writable else {
                local.withLock { $0 &+= 1 }
                return
            }
            incrementing.withLock { _ in
                // Without the file lock (it cannot fail on a local file but for `ENOLCK`) an
                // increment racing another process's could be lost, yet the number still
                // changes, which is what readers look for.
                let locked = (try? POSIX.lockExclusively(fd, path: path)) != nil
                let next = UInt64(littleEndian: mapping.load(as: UInt64.self)) &+ 1
                mapping.storeBytes(of: next.littleEndian, as: UInt64.self)
                if locked { try? POSIX.unlock(fd, path: path) }
            }
        }

        /// Opens, sizes and maps the file; `nil` if any step fails or it is not a regular file.
        private static func map(
            _ path: String, writable: Bool
        ) -> (fd: Int32, mapping: UnsafeMutableRawPointer, writable: Bool)? {
            guard let fd = try? POSIX.openShared(path, writable: writable) else { return nil }
            do throws(FileCacheStoreError) {
                let info = try POSIX.status(of: fd, path: path)
                guard info.isRegularFile else {
                    POSIX.closeQuietly(fd)
                    return nil
                }
                if info.size < length {
                    // Growing from zero keeps the number at zero; a file another process has
                    // already sized is left alone, so its number is never reset.
                    guard writable else {
                        POSIX.closeQuietly(fd)
                        return nil
                    }
                    try POSIX.setLength(fd, length, path: path)
                }
                let mapping = try POSIX.mapShared(fd, length: length, writable: writable, path: path)
                return (fd, mapping, writable)
            } catch {
                POSIX.closeQuietly(fd)
                return nil
            }
        }

        /// One in-process counter per folder path, shared by every store on it.
        private static func localCounter(for root: String) -> Locked<UInt64> {
            localCounters.withLock { counters in
                if let counter = counters[root] { return counter }
                let counter = Locked<UInt64>(0)
                counters[root] = counter
                return counter
            }
        }

        private static let localCounters = Locked<[String: Locked<UInt64>]>([:])
    }
}
