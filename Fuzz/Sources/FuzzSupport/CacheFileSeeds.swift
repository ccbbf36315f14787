import CachedClientRuntime
import Foundation

/// The keys the cache file seeds are written for (by `MakeSeeds`) and the cache file target
/// decodes with: real key texts of the form `CacheKey` builds, one per kind of entry.
public enum CacheFileSeeds {
    /// Keys, each with the entry the seed maker stores under it.
    public static let entries: [(key: CacheKey, entry: CacheEntry)] = {
        let date = Date(timeIntervalSinceReferenceDate: 786_000_000.25)
        func key(_ endpoint: String, _ path: String, _ extra: String) -> CacheKey {
            CacheKey(
                text: "endpoint \(endpoint)\nmethod GET\nbase https://api.example.com\npath \(path)\n\(extra)shape 3f2a9c",
                endpoint: endpoint, partition: nil, path: path)
        }
        return [
            (key("getThing", "/things/1", ""), CacheEntry(body: Data(#"{"id":"1"}"#.utf8), date: date)),
            (key("getThing", "/things/2", "query limit=10\n"),
             CacheEntry(body: Data(#"{"id":"2","parts":[]}"#.utf8), date: date, etag: #""v2""#)),
            (key("listThings", "/things", "partition user%2042\n"),
             CacheEntry(
                body: Data("[]".utf8), date: date, etag: #"W/"abc""#, lastModified: "Sun, 06 Nov 1994 08:49:37 GMT",
                freshness: ServerFreshness(lifetime: 60, initialAge: 1.5, noCache: false, mustRevalidate: true,
                                           staleIfError: 300, staleWhileRevalidate: 30))),
            (key("search", "/search", "query q=%C3%A9t%C3%A9\n"),
             CacheEntry(
                body: Data(repeating: 0x41, count: 700), date: date, lastModified: "Mon, 01 Jan 2024 00:00:00 GMT",
                freshness: ServerFreshness(lifetime: nil, initialAge: 0, noCache: true))),
            (key("empty", "/", ""), CacheEntry(body: Data(), date: date, freshness: ServerFreshness(lifetime: 0))),
        ]
    }()
}

extension CacheFileSeeds {
    /// Stores every entry with a `FileCacheStore` in a temporary folder, checks that each
    /// reads back, and copies the entry files into `output`; returns the exit status.
    public static func write(to output: URL) async -> Int32 {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cachegen-seeds-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let store = try FileCacheStore(directory: folder)
            for (key, entry) in entries {
                try await store.setEntry(entry, for: key)
                guard try await store.entry(for: key) == entry else {
                    print("the store did not read back \(key.text.debugDescription)")
                    return 1
                }
            }
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
            var written = 0
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            while let url = files?.nextObject() as? URL {
                let digest = url.lastPathComponent
                guard digest.count == 64, digest.allSatisfy(\.isHexDigit) else { continue }
                let target = output.appendingPathComponent("entry-\(digest.prefix(12))")
                try? FileManager.default.removeItem(at: target)
                try FileManager.default.copyItem(at: url, to: target)
                written += 1
            }
            print("wrote \(written) cache files to \(output.path)")
            return written == entries.count ? 0 : 1
        } catch {
            print("error: \(error)")
            return 1
        }
    }
}
