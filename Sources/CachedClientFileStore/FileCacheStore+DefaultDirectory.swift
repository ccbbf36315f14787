import Foundation

// Where a store lives when the app names no folder.
extension FileCacheStore {
    /// The default folder on Apple platforms, or from the XDG rules elsewhere.
    package static func defaultDirectory() throws -> URL {
        #if canImport(Darwin)
        guard var caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first else {
            throw FileCacheStoreError.notFound(operation: "find the caches folder for", path: "cachegen")
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
    package static func xdgDirectory(environment: [String: String], home: String) -> URL {
        if let cacheHome = environment["XDG_CACHE_HOME"], cacheHome.hasPrefix("/") {
            return URL(fileURLWithPath: cacheHome, isDirectory: true).appendingPathComponent("cachegen", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".cache", isDirectory: true)
            .appendingPathComponent("cachegen", isDirectory: true)
    }
}
