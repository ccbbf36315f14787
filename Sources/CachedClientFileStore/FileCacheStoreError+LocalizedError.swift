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

/// `error.localizedDescription` names the operation, the path and the system's reason, then
/// what to do.
extension FileCacheStoreError: LocalizedError {
    /// What failed, then what to do (`recoverySuggestion` on its own).
    public var errorDescription: String? {
        "\(description). \(recoverySuggestion ?? "")"
    }

    /// The next step, by the system's reason.
    public var recoverySuggestion: String? {
        switch code {
        case ENOSPC, EDQUOT:
            "Free disk space or give the store a smaller maxBytes; calls keep working from the network meanwhile."
        case EACCES, EPERM, EROFS:
            "Give the store a folder this process may write (the default cache folder is), or check its permissions."
        default:
            "Calls keep working from the network; if it persists, clear the store with client.removeAll()."
        }
    }
}
