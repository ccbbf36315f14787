@_spi(Generated) import CachedClientRuntime
import Foundation

/// The entries the kill -9 test's child process writes, shared with the test (which
/// imports this module), so that the test can tell a whole entry from a torn one.
///
/// Every byte of an entry follows from its item and version, and the version is written
/// at the start of the body, so an entry read back is either exactly `entry(item, version)`
/// or damaged.
enum WriterFixture {
    /// The endpoint every entry belongs to.
    static let endpoint = "CrashTest.getItem"
    /// How many keys the writer cycles through; few enough that most are overwritten often.
    static let itemCount = 40

    /// Four items share each path, so path folders see overwrites, new files and removals.
    static func path(_ item: Int) -> String {
        "/items/\(item % 10)"
    }

    /// The key of one item; shared, so it lives in the `shared` partition folder.
    static func key(_ item: Int) -> CacheKey {
        CacheKey(
            text: "cachegen-key 1\nendpoint \(endpoint)\npath \(path(item))\nquery item=\(item)\npartition *shared*",
            endpoint: endpoint, partition: nil, path: path(item))
    }

    /// Version `version` of an item: from 500 bytes to about 64 KB of one byte value, so
    /// that writes take long enough to be killed halfway through while the writer spends
    /// little time making them. A mix of two versions differs in length or in bytes.
    static func entry(_ item: Int, _ version: UInt32) -> CacheEntry {
        var body = Data("item \(item) version \(version)\n".utf8)
        body.append(Data(repeating: UInt8(truncatingIfNeeded: Int(version) &* 31 ^ item), count: 500 + Int(version % 64) * 1_000))
        return CacheEntry(
            body: body, date: Date(timeIntervalSince1970: 1_700_000_000 + Double(version)), etag: "\"\(item)-\(version)\"")
    }

    /// The version an entry's body says it is, or `nil` if its first line is not a header
    /// for `item`.
    static func version(of body: Data, item: Int) -> UInt32? {
        guard let newline = body.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let header = String(decoding: body[body.startIndex..<newline], as: UTF8.self).split(separator: " ")
        guard header.count == 4, header[0] == "item", header[1] == "\(item)", header[2] == "version" else { return nil }
        return UInt32(header[3])
    }

    /// Writes entries to the store at `directory` until the process is killed: mostly new
    /// versions, sometimes a removal of one key or of one path folder. Prints `READY` after
    /// the first write so the test knows writing is under way.
    static func run(directory: URL) async throws -> Never {
        let store = try FileCacheStore(directory: directory)
        var announced = false
        while true {
            let item = Int.random(in: 0..<itemCount)
            switch Int.random(in: 0..<100) {
            case 0:
                try await store.removeAll(endpoint: endpoint, path: path(item))
            case 1...3:
                try await store.removeEntry(for: key(item))
            default:
                try await store.setEntry(entry(item, UInt32.random(in: 1...UInt32.max)), for: key(item))
            }
            if !announced {
                announced = true
                FileHandle.standardOutput.write(Data("READY\n".utf8))
            }
        }
    }

    /// Removes one partition of the store at `directory`, for the test that another
    /// process's removal moves this process's `removalCount`.
    static func removePartition(_ partition: String, directory: URL) async throws {
        let store = try FileCacheStore(directory: directory)
        try await store.removeAll(partition: partition)
    }
}
