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

/// The file system calls of `FileCacheStore`, and the only place that makes them: each
/// retries `EINTR`, reports a failure as a `FileCacheStoreError` naming the operation and
/// the path, and frees what it allocates.
///
/// `operation` is a `StaticString` so that a call that succeeds builds no text; the error's
/// wording is made only when it is thrown. Callers that expect a failure (a missing file
/// is a miss) catch the error and ask it (`isNoSuchPath`, `isAlreadyThere`).
package enum POSIX {
    /// Runs a system call until it is not interrupted; `-1` means it failed with `errno`.
    /// Internal (not private) for the extensions of `POSIX` in other files, and only them.
    @inline(__always)
    package static func call<Result: FixedWidthInteger>(
        _ operation: StaticString, _ path: String, _ body: () -> Result
    ) throws(FileCacheStoreError) -> Result {
        while true {
            let code: Int32
            if let injected = injectedFailure(operation) {
                code = injected
            } else {
                let result = body()
                if result != -1 { return result }
                code = errno
            }
            if code == EINTR { continue }
            throw FileCacheStoreError(operation: operation.description, path: path, code: code)
        }
    }

    /// `call` for a write of `count` bytes: `body` writes the bytes it is given the count
    /// of (fewer when a test's fault cuts the write short) and returns how many it wrote.
    @inline(__always)
    package static func callWriting(
        _ operation: StaticString, _ path: String, count: Int, _ body: (Int) -> Int
    ) throws(FileCacheStoreError) -> Int {
        while true {
            var count = count
            var killsAfter = false
            var injected: Int32?
            if let faults = activeFaults {
                switch faults.next(operation, isWrite: true) {
                case .proceed: break
                case .fail(let code): injected = code
                case .shorten: count /= 2
                case .shortenThenKill:
                    count /= 2
                    killsAfter = true
                }
            }
            let code: Int32
            if let injected {
                code = injected
            } else {
                let result = body(count)
                if killsAfter { SystemCallFaults.killProcess() }
                if result != -1 { return result }
                code = errno
            }
            if code == EINTR { continue }
            throw FileCacheStoreError(operation: operation.description, path: path, code: code)
        }
    }

    /// Opens an existing file for reading and returns its descriptor. A symbolic link is
    /// not followed (the call fails), and the open never waits: a FIFO opens at once instead
    /// of blocking until a writer comes, so the caller can see what it opened and refuse it.
    @inline(__always)
    package static func openForReading(_ path: String) throws(FileCacheStoreError) -> Int32 {
        try call("open", path) { open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
    }

    /// Creates a file that must not exist yet, for writing only by its owner, and returns
    /// its descriptor.
    @inline(__always)
    package static func createForWriting(_ path: String, operation: StaticString) throws(FileCacheStoreError) -> Int32 {
        try call(operation, path) { open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
    }

    /// Closes a descriptor. An interrupted `close` has closed it already (retrying could
    /// close another file opened in the meantime), so `EINTR` counts as success here.
    @inline(__always)
    package static func closeFile(_ fd: Int32, path: String, operation: StaticString = "close") throws(FileCacheStoreError) {
        // A close that fails has closed the descriptor all the same (Linux, and POSIX after
        // `EINTR`), so a test's fault is reported after a real close.
        let injected = injectedFailure("close")
        guard close(fd) != 0 || injected != nil else { return }
        let code = injected ?? errno
        if code == EINTR { return }
        throw FileCacheStoreError(operation: operation.description, path: path, code: code)
    }

    /// The status of an open file.
    @inline(__always)
    package static func status(of fd: Int32, path: String, operation: StaticString = "inspect") throws(FileCacheStoreError) -> Status {
        var info = stat()
        _ = try call(operation, path) { fstat(fd, &info) }
        return Status(info)
    }

    /// The status of a path, without following a final symbolic link.
    @inline(__always)
    package static func status(atPath path: String, operation: StaticString = "inspect") throws(FileCacheStoreError) -> Status {
        var info = stat()
        _ = try call(operation, path) { lstat(path, &info) }
        return Status(info)
    }

    /// Whether anything exists at `path`: `false` when nothing is there (`ENOENT`,
    /// `ENOTDIR`), and a failure to find out (an I/O error, no permission) thrown.
    package static func isPresent(_ path: String, operation: StaticString = "inspect") throws(FileCacheStoreError) -> Bool {
        do throws(FileCacheStoreError) {
            _ = try call(operation, path) { access(path, F_OK) }
            return true
        } catch {
            if error.isNoSuchPath { return false }
            throw error
        }
    }

    /// Reads from the start of the file until its end or `capacity` bytes, into memory that
    /// the returned buffer owns.
    package static func readAll(_ fd: Int32, capacity: Int, path: String) throws(FileCacheStoreError) -> FileBuffer {
        var buffer = try FileBuffer(capacity: capacity, path: path)
        try readMore(fd, into: &buffer, upTo: capacity, path: path)
        return buffer
    }

    /// Grows `buffer` to `capacity` bytes and reads on from where it stopped, until the end
    /// of the file or `capacity` bytes, so a header can be checked before the rest is read.
    package static func readMore(
        _ fd: Int32, into buffer: inout FileBuffer, upTo capacity: Int, path: String
    ) throws(FileCacheStoreError) {
        try buffer.reserve(capacity, path: path)
        while buffer.count < capacity {
            let start = buffer.count
            let base = buffer.base
            let count = try call("read", path) { read(fd, base + start, capacity - start) }
            if count == 0 { break }
            buffer.count += count
        }
    }

    /// Up to `capacity` bytes from the start of the file, for a look at its header.
    package static func readPrefix<Result>(
        of path: String, capacity: Int, _ body: (UnsafeRawBufferPointer) -> Result
    ) throws(FileCacheStoreError) -> Result {
        let fd = try openForReading(path)
        defer { try? closeFile(fd, path: path) }
        return try withUnsafeTemporaryAllocation(byteCount: capacity, alignment: 8) { buffer throws(FileCacheStoreError) in
            let count = try call("read", path) { pread(fd, buffer.baseAddress, capacity, 0) }
            return body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// Writes every byte; a write that makes no progress is an I/O error.
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(FileCacheStoreError) {
        // `withUnsafeBytes` rethrows untyped errors, so the failure comes out as a value.
        let failure = bytes.withUnsafeBytes { buffer -> FileCacheStoreError? in
            guard let base = buffer.baseAddress else { return nil }
            var written = 0
            while written < buffer.count {
                do throws(FileCacheStoreError) {
                    let count = try callWriting("write", path, count: buffer.count - written) { write(fd, base + written, $0) }
                    guard count > 0 else { return FileCacheStoreError(operation: "write", path: path, code: EIO) }
                    written += count
                } catch {
                    return error
                }
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// Sets the access and modification dates of an open file; a date a `timespec` cannot
    /// hold is left unset.
    package static func setTimes(_ fd: Int32, _ date: Date, path: String) throws(FileCacheStoreError) {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 1e15 else { return }
        let whole = seconds.rounded(.down)
        let time = timespec(tv_sec: time_t(whole), tv_nsec: Int((seconds - whole) * 1_000_000_000))
        _ = try withUnsafeTemporaryAllocation(of: timespec.self, capacity: 2) { times throws(FileCacheStoreError) in
            times.initialize(repeating: time)
            return try call("set the dates of", path) { futimens(fd, times.baseAddress) }
        }
    }

    /// Flushes an open file's bytes to the device, for records that must survive a crash
    /// of the machine, not only of the process (queued mutations; entries never need it).
    @inline(__always)
    package static func synchronize(_ fd: Int32, path: String) throws(FileCacheStoreError) {
        _ = try call("flush", path) { fsync(fd) }
    }

    /// Sets an open file's permissions.
    @inline(__always)
    package static func setPermissions(_ fd: Int32, _ mode: mode_t, path: String) throws(FileCacheStoreError) {
        _ = try call("set the permissions of", path) { fchmod(fd, mode) }
    }

    /// Sets a path's permissions.
    @inline(__always)
    package static func setPermissions(atPath path: String, _ mode: mode_t) throws(FileCacheStoreError) {
        _ = try call("set the permissions of", path) { chmod(path, mode) }
    }

    /// Creates one folder.
    @inline(__always)
    package static func makeFolder(_ path: String, _ mode: mode_t) throws(FileCacheStoreError) {
        _ = try call("create folder", path) { mkdir(path, mode) }
    }

    /// Removes an empty folder.
    @inline(__always)
    package static func removeEmptyFolder(_ path: String) throws(FileCacheStoreError) {
        _ = try call("remove", path) { rmdir(path) }
    }

    /// Removes a file.
    @inline(__always)
    package static func removeFile(_ path: String, operation: StaticString = "remove") throws(FileCacheStoreError) {
        _ = try call(operation, path) { unlink(path) }
    }

    /// Renames in one step; what was at `target` is replaced.
    @inline(__always)
    package static func move(_ source: String, to target: String, operation: StaticString = "rename") throws(FileCacheStoreError) {
        _ = try call(operation, target) { rename(source, target) }
    }

    /// The names in a folder, without `.` and `..`; none when it cannot be read, for
    /// housekeeping that may skip a folder. What must not take a failure for an empty
    /// folder uses `names(in:)`.
    package static func list(_ path: String) -> [String] {
        (try? names(in: path)) ?? []
    }

    /// The names in a folder, without `.` and `..`: none when there is no folder
    /// (`ENOENT`, `ENOTDIR`), and a folder that cannot be read thrown.
    package static func names(in path: String, operation: StaticString = "list") throws(FileCacheStoreError) -> [String] {
        var folder: FolderStream?
        do throws(FileCacheStoreError) {
            _ = try call(operation, path) { () -> Int32 in
                folder = opendir(path)
                return folder == nil ? -1 : 0
            }
        } catch {
            if error.isNoSuchPath { return [] }
            throw error
        }
        guard let stream = folder else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                let code = errno
                guard code == 0 else { throw FileCacheStoreError(operation: operation.description, path: path, code: code) }
                return names
            }
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
                    String(cString: $0)
                }
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    /// Deletes a folder and everything in it, and is done only when the folder is gone.
    ///
    /// Safe while other processes delete the same tree (what is already gone is skipped)
    /// or still add to it: a process that looked a folder up before it was moved away can
    /// create a file in it a moment later, so a folder found not empty is listed again.
    /// Once a folder is removed nothing more can be created in it, so when this returns no
    /// byte of the tree is left.
    package static func removeTree(_ path: String, operation: StaticString = "remove") throws(FileCacheStoreError) {
        for _ in 0..<64 {
            for name in list(path) {
                let child = path + "/" + name
                guard let info = try? status(atPath: child) else { continue }
                do throws(FileCacheStoreError) {
                    if info.isFolder {
                        try removeTree(child, operation: operation)
                    } else {
                        try removeFile(child, operation: operation)
                    }
                } catch {
                    if !error.isNoSuchFile { throw error }
                }
            }
            do throws(FileCacheStoreError) {
                _ = try call(operation, path) { rmdir(path) }
                return
            } catch {
                if error.isNoSuchFile { return }
                guard error.code == ENOTEMPTY || error.code == EEXIST else { throw error }
            }
        }
        throw FileCacheStoreError(operation: operation.description, path: path, code: ENOTEMPTY)
    }

    /// What `opendir` returns: a pointer to a `DIR` on Apple platforms, where the type is
    /// complete, and an opaque pointer elsewhere.
    #if canImport(Darwin)
    package typealias FolderStream = UnsafeMutablePointer<DIR>
    #else
    package typealias FolderStream = OpaquePointer
    #endif

    /// What the store needs of a file's `stat`.
    package struct Status {
        /// The size in bytes.
        package var size: Int
        /// The device and inode: the same pair means the same file, even after a rename.
        package var identity: (device: UInt64, inode: UInt64)
        /// Whether it is a regular file (not a folder, a link, a FIFO, a socket or a device).
        package var isRegularFile: Bool
        /// Whether it is a folder.
        package var isFolder: Bool
        /// The modification date, in seconds since 1970; the store keeps an entry's last use in it.
        package var modificationTime: Double
        /// The status change date, in seconds since 1970; unlike the modification date,
        /// nobody can set it.
        package var changeTime: Double

        @inline(__always)
        package init(_ info: stat) {
            size = Int(info.st_size)
            identity = (UInt64(info.st_dev), UInt64(info.st_ino))
            isRegularFile = Int(info.st_mode) & Int(S_IFMT) == Int(S_IFREG)
            isFolder = Int(info.st_mode) & Int(S_IFMT) == Int(S_IFDIR)
            #if canImport(Darwin)
            modificationTime = Self.seconds(info.st_mtimespec)
            changeTime = Self.seconds(info.st_ctimespec)
            #else
            modificationTime = Self.seconds(info.st_mtim)
            changeTime = Self.seconds(info.st_ctim)
            #endif
        }

        /// Whether both describe the same file.
        package func isSameFile(as other: Status) -> Bool {
            identity == other.identity
        }

        private static func seconds(_ time: timespec) -> Double {
            Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
        }
    }
}

extension FileCacheStoreError {
    /// Nothing at the path: `ENOENT`.
    package var isNoSuchFile: Bool { code == ENOENT }
    /// Nothing at the path, or a part of it is not a folder: `ENOENT` or `ENOTDIR`.
    package var isNoSuchPath: Bool { code == ENOENT || code == ENOTDIR }
    /// Something is already at the path: `EEXIST`.
    package var isAlreadyThere: Bool { code == EEXIST }

    /// An entry too large for the file format.
    package static func tooLarge(operation: String, path: String) -> FileCacheStoreError {
        FileCacheStoreError(operation: operation, path: path, code: EFBIG)
    }

    /// Something the store looked for is missing.
    package static func notFound(operation: String, path: String) -> FileCacheStoreError {
        FileCacheStoreError(operation: operation, path: path, code: ENOENT)
    }
}

/// Bytes read from a file, in memory this value owns: freed when it goes away, unless
/// handed on to a `Data` by `data(in:)`, which then frees it.
package struct FileBuffer: ~Copyable {
    fileprivate private(set) var base: UnsafeMutableRawPointer
    /// The bytes allocated.
    private var capacity: Int
    /// The bytes filled so far.
    package fileprivate(set) var count = 0

    fileprivate init(capacity: Int, path: String) throws(FileCacheStoreError) {
        guard let base = malloc(max(capacity, 1)) else {
            throw FileCacheStoreError(operation: "read", path: path, code: ENOMEM)
        }
        self.base = base
        self.capacity = max(capacity, 1)
    }

    deinit { free(base) }

    /// Makes room for `capacity` bytes, keeping those read.
    fileprivate mutating func reserve(_ capacity: Int, path: String) throws(FileCacheStoreError) {
        guard capacity > self.capacity else { return }
        guard let grown = realloc(base, capacity) else {
            throw FileCacheStoreError(operation: "read", path: path, code: ENOMEM)
        }
        base = grown
        self.capacity = capacity
    }

    /// The bytes read.
    package var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// `range` of the bytes as `Data`, without a copy: the `Data` takes the memory over.
    consuming func data(in range: Range<Int>) -> Data {
        let base = self.base
        discard self
        guard !range.isEmpty else {
            free(base)
            return Data()
        }
        // An address, not a pointer, because the deallocator must be `Sendable`.
        let address = UInt(bitPattern: base)
        return Data(
            bytesNoCopy: base + range.lowerBound, count: range.count,
            deallocator: .custom { _, _ in free(UnsafeMutableRawPointer(bitPattern: address)) })
    }
}
