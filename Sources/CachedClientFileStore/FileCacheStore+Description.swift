import Foundation

/// `FileCacheStore at /…/Caches/cachegen (maxBytes 50000000, maxAge 604800s)`: which folder
/// a client uses, when a log or a debugger prints it.
extension FileCacheStore: CustomStringConvertible {
    /// The folder and the limits that are set.
    public var description: String {
        var limits: [String] = []
        if let maxBytes { limits.append("maxBytes \(maxBytes)") }
        if let maxAge { limits.append("maxAge \(Int(maxAge))s") }
        return "FileCacheStore at \(folder.rootPath)" + (limits.isEmpty ? "" : " (\(limits.joined(separator: ", ")))")
    }
}
