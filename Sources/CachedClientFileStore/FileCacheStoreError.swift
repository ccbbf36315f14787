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
