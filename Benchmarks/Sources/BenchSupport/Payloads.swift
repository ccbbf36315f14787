@_spi(Generated) import CachedClientRuntime
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Deterministic JSON payloads of the generated `[FeedItem]` type, close to a given size.
public enum Payloads {
    /// The sizes the hit benchmarks use, in bytes.
    public static let sizes: [(label: String, bytes: Int)] = [("1 KB", 1_024), ("10 KB", 10_240), ("100 KB", 102_400)]

    /// A JSON array of feed items of exactly `bytes` bytes (at least one item): whole items
    /// while they fit, and the first item's title lengthened by what is left.
    public static func feed(bytes target: Int) -> Data {
        var items: [String] = []
        var size = 2
        var index = 0
        while true {
            let item = Self.item(index)
            let added = item.utf8.count + (items.isEmpty ? 0 : 1)
            if !items.isEmpty, size + added > target { break }
            items.append(item)
            size += added
            index += 1
        }
        if size < target {
            items[0] = Self.item(0, titlePadding: target - size)
        }
        return Data(("[" + items.joined(separator: ",") + "]").utf8)
    }

    /// One item; every field of `FeedItem` is present, optionals sometimes absent.
    static func item(_ index: Int, titlePadding: Int = 0) -> String {
        let kinds = ["story", "link", "question", "poll"]
        let day = 1 + index % 28
        let summary = index % 3 == 0
            ? "null"
            : "\"A short summary of item \(index), long enough to look like a real standfirst on a list screen.\""
        let url = index % 4 == 1 ? "null" : "\"https://example.org/items/\(index)?ref=feed\""
        return """
            {"id":"item-\(index)","title":"Item \(index): what happened, and why it matters\(String(repeating: "!", count: titlePadding))",\
            "summary":\(summary),"published_at":"2026-05-\(day < 10 ? "0" : "")\(day)T10:\(10 + index % 50):00Z",\
            "url":\(url),"author":{"name":"Author \(index % 17)","handle":"author\(index % 17)",\
            "avatar_url":"https://example.org/a/\(index % 17).png"},"tags":["swift","cache","t\(index % 9)"],\
            "score":\(Double(index % 1000) / 10 + 0.25),"comment_count":\(index * 7 % 311),\
            "kind":"\(kinds[index % kinds.count])","is_pinned":\(index % 11 == 0)}
            """
    }

    /// A decoder as an app writes it for this API (`.iso8601` dates), for the floor measurements.
    public static func plainDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

/// A transport that answers every request with the same 200 JSON body, without a socket;
/// used to fill stores through the real client path.
public struct FixedTransport: HTTPTransport {
    public let body: Data

    public init(body: Data) {
        self.body = body
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        HTTPResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: body)
    }
}

/// A transport that must never be reached: hit benchmarks use it, so a miss fails loudly.
public struct UnreachableTransport: HTTPTransport {
    public struct Reached: Error {}

    public init() {}

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        throw Reached()
    }
}

/// A fresh, empty folder under the system's temporary folder.
public func makeTemporaryDirectory(_ name: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("cachegen-bench-\(name)-\(UInt32.random(in: 0 ... .max))", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A base URL the benchmarks' clients are configured with.
public let benchBaseURL = URL(string: "http://127.0.0.1:9/api")!
