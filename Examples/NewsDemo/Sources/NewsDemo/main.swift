import CachedClientRuntime
import Foundation

// Fresh → server gone → cached with its date, against a local fixture server.
// Run from the repository root: swift run --package-path Examples/NewsDemo

let demoFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let server = try FixtureServer.start(
    script: demoFolder.appendingPathComponent("../../Tests/Fixtures/fixture_server.py").standardizedFileURL,
    routes: demoFolder.appendingPathComponent("routes.json"))
let cacheFolder = FileManager.default.temporaryDirectory.appendingPathComponent("cachegen-demo-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: cacheFolder) }

let client = CachedClient(
    baseURL: server.baseURL.appendingPathComponent("api"),
    store: try FileCacheStore(directory: cacheFolder),
    events: { event in print("    [cache] \(event)") })
let news = LiveNewsRepository(client: client)

func show(_ result: CachedValue<[ArticleSummary]>) {
    switch result {
    case .fresh(let headlines):
        print("  fresh from the server: \(headlines.count) headlines")
    case .cached(let headlines, let date):
        let age = Int(Date().timeIntervalSince(date))
        print("  offline: showing \(headlines.count) headlines saved at \(date) (\(age)s ago)")
    }
    for headline in result.value { print("   • \(headline.headline)") }
}

print("1. Server up, networkFirst:")
let fresh = try await news.getHeadlines(sectionId: "world", policy: .networkFirst)
await client.flush()  // the call returned before its entry was written; let it land, so the log reads in order
show(fresh)

print("2. Server stopped (connection refused), networkFirst falls back to disk:")
server.stop()
show(try await news.getHeadlines(sectionId: "world", policy: .networkFirst))

print("3. cacheOnly for a section never fetched:")
do {
    _ = try await news.getHeadlines(sectionId: "science", policy: .cacheOnly)
} catch {
    print("  \(error)")
}

/// Runs `Tests/Fixtures/fixture_server.py` on a free loopback port.
final class FixtureServer: Sendable {
    let baseURL: URL
    private let process: Process

    private init(process: Process, baseURL: URL) {
        self.process = process
        self.baseURL = baseURL
    }

    static func start(script: URL, routes: URL) throws -> FixtureServer {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, "--routes", routes.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = Pipe()
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 10 {
            line.append(first)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)),
            let url = URL(string: "http://127.0.0.1:\(port)")
        else {
            process.terminate()
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "fixture server said \(text)"])
        }
        return FixtureServer(process: process, baseURL: url)
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
