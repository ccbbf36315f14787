import FixtureServerSupport
import Foundation
import Testing

import CachedClientFileStore
import CachedClientStore
@_spi(RuntimeLayers) import CachedClientValues

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A settable clock, so ages and last-use dates are exact.
package final class StoreTestClock: Sendable {
    package init() {}

    private let value = Locked(Date(timeIntervalSince1970: 1_700_000_000))
    package var now: Date { value.withLock { $0 } }
    package func advance(_ seconds: TimeInterval) { value.withLock { $0 += seconds } }
}

package func storeKey(
    _ id: String, endpoint: String = "Accounts.get", partition: String? = "user-1", path: String? = nil, query: String = ""
) -> CacheKey {
    let path = path ?? "/items/\(id)"
    return CacheKey(
        text: "cachegen-key 1\nendpoint \(endpoint)\npath \(path)\nquery \(query)\nitem \(id)\npartition \(partition ?? "*shared*")",
        endpoint: endpoint, partition: partition, path: path)
}

package func storeEntry(_ body: String, date: Date = Date(timeIntervalSince1970: 1_700_000_000)) -> CacheEntry {
    CacheEntry(body: Data(body.utf8), date: date, etag: "\"\(body.count)\"")
}

package func withStoreDirectory(_ body: (URL) async throws -> Void) async throws {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("cachegen-store-tests-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try await body(directory)
}

/// A store without limits over a fresh folder, with its event log and clock.
package func withStore(_ body: (FileCacheStore, URL, EventLog, StoreTestClock) async throws -> Void) async throws {
    try await withStoreDirectory { directory in
        let clock = StoreTestClock()
        let events = EventLog()
        let store = try FileCacheStore(directory: directory, events: events.record, now: { clock.now })
        try await body(store, directory, events, clock)
    }
}


package func allPaths(under directory: URL) throws -> [String] {
    try FileManager.default.subpathsOfDirectory(atPath: directory.path).map { directory.path + "/" + $0 }.sorted()
}

package func entryFiles(under directory: URL) throws -> [String] {
    try allPaths(under: directory).filter { path in
        var info = stat()
        return (path as NSString).lastPathComponent.count == 64 && lstat(path, &info) == 0
            && Int(info.st_mode) & Int(S_IFMT) == Int(S_IFREG)
    }
}

package func sizeOfEntryFiles(under directory: URL) throws -> Int {
    try entryFiles(under: directory).reduce(0) { total, path in
        var info = stat()
        _ = lstat(path, &info)
        return total + Int(info.st_size)
    }
}

/// Runs `StoreWriter` with `arguments` to its end: its exit status and what it wrote.
package func runStoreWriter(_ arguments: [String]) async throws -> (status: Int32, output: String, errors: String) {
    try await ChildProcess.run("StoreWriter", arguments)
}
