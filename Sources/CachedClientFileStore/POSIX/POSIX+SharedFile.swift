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

// The calls behind the removal counter (`FileCacheStore.RemovalCounter`): a small file
// shared between processes, mapped for reading, written with `pwrite` under `flock`.
extension POSIX {
    /// Opens (creating it, 0600, if `writable`) a small file shared between processes;
    /// never follows a link or waits on a FIFO.
    package static func openShared(_ path: String, writable: Bool) throws(FileCacheStoreError) -> Int32 {
        let flags = O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | (writable ? O_RDWR | O_CREAT : O_RDONLY)
        return try call("open", path) { open(path, flags, 0o600) }
    }

    /// Sets an open file's length.
    package static func setLength(_ fd: Int32, _ length: Int, path: String) throws(FileCacheStoreError) {
        _ = try call("set the length of", path) { ftruncate(fd, off_t(length)) }
    }

    /// Maps the first `length` bytes of an open file for reading, shared with every process
    /// that maps it. Read-only on purpose: a store through a shared mapping that cannot reach
    /// the file (a full or read-only file system) kills the process with `SIGBUS`, where
    /// `pwrite` returns an error.
    package static func mapShared(_ fd: Int32, length: Int, path: String) throws(FileCacheStoreError) -> UnsafeRawPointer {
        while true {
            if let injected = injectedFailure("map") {
                if injected == EINTR { continue }
                throw FileCacheStoreError(operation: "map", path: path, code: injected)
            }
            // `MAP_FAILED` is `(void *)-1`, a macro Swift does not import.
            if let address = mmap(nil, length, PROT_READ, MAP_SHARED, fd, 0),
                address != UnsafeMutableRawPointer(bitPattern: -1)
            {
                return UnsafeRawPointer(address)
            }
            let code = errno
            if code == EINTR { continue }
            throw FileCacheStoreError(operation: "map", path: path, code: code)
        }
    }

    /// Unmaps what `mapShared` mapped.
    package static func unmap(_ address: UnsafeRawPointer, length: Int) {
        _ = injectedFailure("unmap")  // counted; a failure is ignored as the real one's is
        _ = munmap(UnsafeMutableRawPointer(mutating: address), length)
    }

    /// The little-endian `UInt64` at the start of an open file; a short read is an I/O error.
    package static func readNumber(_ fd: Int32, path: String) throws(FileCacheStoreError) -> UInt64 {
        var value: UInt64 = 0
        let count = try call("read", path) { pread(fd, &value, 8, 0) }
        guard count == 8 else { throw FileCacheStoreError(operation: "read", path: path, code: EIO) }
        return UInt64(littleEndian: value)
    }

    /// Writes a little-endian `UInt64` at the start of an open file; a short write is an I/O error.
    package static func writeNumber(_ fd: Int32, _ number: UInt64, path: String) throws(FileCacheStoreError) {
        var value = number.littleEndian
        let count = try callWriting("write", path, count: 8) { pwrite(fd, &value, $0, 0) }
        guard count == 8 else { throw FileCacheStoreError(operation: "write", path: path, code: EIO) }
    }

    /// Up to `count` bytes from the start of an open file (fewer when it is shorter).
    package static func readBytes(_ fd: Int32, count: Int, path: String) throws(FileCacheStoreError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let read = try call("read", path) { bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, 0) } }
        return Array(bytes.prefix(read))
    }

    /// Writes `bytes` at `offset` of an open file; a short write is an I/O error.
    package static func writeBytes(_ fd: Int32, _ bytes: [UInt8], at offset: Int, path: String) throws(FileCacheStoreError) {
        let written = try callWriting("write", path, count: bytes.count) { count in
            bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, count, off_t(offset)) }
        }
        guard written == bytes.count else { throw FileCacheStoreError(operation: "write", path: path, code: EIO) }
    }

    /// Takes the shared `flock` of an open file, waiting while another holds it exclusively.
    package static func lockShared(_ fd: Int32, path: String) throws(FileCacheStoreError) {
        _ = try call("lock", path) { flock(fd, LOCK_SH) }
    }

    /// Takes the exclusive `flock` of an open file, waiting for other holders; it excludes
    /// other open file descriptions (other processes, other opens), not other threads using
    /// this descriptor.
    package static func lockExclusively(_ fd: Int32, path: String) throws(FileCacheStoreError) {
        _ = try call("lock", path) { flock(fd, LOCK_EX) }
    }

    /// Releases the `flock` taken by `lockExclusively` or `lockShared`.
    package static func unlock(_ fd: Int32, path: String) throws(FileCacheStoreError) {
        _ = try call("unlock", path) { flock(fd, LOCK_UN) }
    }

    /// Closes a descriptor, ignoring failure, for clean-up paths.
    package static func closeQuietly(_ fd: Int32) {
        _ = injectedFailure("close")  // counted; the descriptor is closed whatever it says
        _ = close(fd)
    }
}
