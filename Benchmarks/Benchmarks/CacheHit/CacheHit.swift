// Items 2 and 6 of the benchmark plan: a cache hit against its physical floor, the
// in-memory store, and the same hit and write workloads against a SQLite key-value table
// (GRDB), as many apps cache API responses today. Every figure is one call; compare the
// medians of benchmarks that share a size (Scripts/bench/report.py prints the ratios).

@_spi(Generated) import BenchSupport
import Benchmark
@_spi(Generated) import CachedClientRuntime
import Foundation
import GRDB

/// Everything the benchmarks of one payload size share, built once.
final class HitFixture: Sendable {
    let body: Data
    let directory: URL
    let floorFile: URL
    let fileStore: FileCacheStore
    let fileRepository: LiveFeedRepository
    let memoryStore: MemoryCacheStore
    let memoryRepository: LiveFeedRepository
    let layeredRepository: LiveFeedRepository
    let key: CacheKey
    let database: DatabasePool
    let writeKeys: [CacheKey]

    init(bytes: Int) async throws {
        body = Payloads.feed(bytes: bytes)
        directory = try makeTemporaryDirectory("hit-\(bytes)")
        floorFile = directory.appendingPathComponent("floor.json")
        try body.write(to: floorFile)

        fileStore = try FileCacheStore(directory: directory.appendingPathComponent("store"))
        try await fill(fileStore, body: body, feeds: ["home"], pages: 0..<1_000)
        fileRepository = offlineRepository(fileStore)
        // The client's own in-memory layer of decoded values (its default size), over the file store.
        layeredRepository = offlineRepository(fileStore, memoryCacheLimit: 100)

        memoryStore = MemoryCacheStore()
        try await fill(memoryStore, body: body, feeds: ["home"], pages: 0..<1_000)
        memoryRepository = offlineRepository(memoryStore)

        key = benchKey(feed: "direct", page: 1)
        try await fileStore.setEntry(CacheEntry(body: body, date: Date()), for: key)
        memoryStore.setEntry(CacheEntry(body: body, date: Date()), for: key)
        writeKeys = (0..<64).map { benchKey(feed: "write", page: $0) }

        // The usual app setup: a WAL database pool, one key-value table, the key text as
        // primary key. synchronous=NORMAL: no fsync per commit, like FileCacheStore.
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        database = try DatabasePool(path: directory.appendingPathComponent("cache.sqlite").path, configuration: configuration)
        try await database.write { db in
            try db.execute(sql: """
                CREATE TABLE cache (key TEXT PRIMARY KEY NOT NULL, body BLOB NOT NULL, date DOUBLE NOT NULL,
                                    etag TEXT, last_modified TEXT)
                """)
            for page in 0..<1_000 {
                try db.execute(
                    sql: "INSERT INTO cache (key, body, date) VALUES (?, ?, ?)",
                    arguments: [benchKey(feed: "home", page: page).text, body, Date().timeIntervalSince1970])
            }
            try db.execute(
                sql: "INSERT INTO cache (key, body, date) VALUES (?, ?, ?)",
                arguments: [key.text, body, Date().timeIntervalSince1970])
        }
    }
}

/// Builds each size's fixture once, whichever benchmark asks first.
actor Fixtures {
    static let shared = Fixtures()
    private var fixtures: [Int: HitFixture] = [:]

    func fixture(bytes: Int) async throws -> HitFixture {
        if let fixture = fixtures[bytes] { return fixture }
        let fixture = try await HitFixture(bytes: bytes)
        fixtures[bytes] = fixture
        return fixture
    }

    /// Deletes the fixtures' folders (each benchmark runs in its own process).
    func removeAll() {
        for fixture in fixtures.values { try? FileManager.default.removeItem(at: fixture.directory) }
        fixtures = [:]
    }
}

struct Miss: Error {}

/// The two sides of a paired measurement, in nanoseconds.
let cachegenMetric = BenchmarkMetric.custom("cachegen_ns", useScalingFactor: false)
let floorMetric = BenchmarkMetric.custom("floor_ns", useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
    let timed = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 20,
        maxDuration: .seconds(2),
        maxIterations: 20_000)
    let paired = Benchmark.Configuration(
        metrics: [.wallClock, cachegenMetric, floorMetric],
        timeUnits: .nanoseconds,
        units: [cachegenMetric: .count, floorMetric: .count],
        warmupIterations: 20,
        maxDuration: .seconds(4),
        maxIterations: 20_000)
    // Sub-microsecond operations: a thousand calls per measured iteration, reported per call.
    let tiny = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 5,
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 2_000)

    for (label, bytes) in Payloads.sizes {
        func fixture() async throws -> HitFixture { try await Fixtures.shared.fixture(bytes: bytes) }

        // The figure for the target: both sides in every iteration, in alternating order.
        Benchmark("Paired hit \(label): client cacheFirst FileCacheStore vs floor", configuration: paired) {
            benchmark, f in
            for iteration in benchmark.scaledIterations {
                do {
                    let (cachegen, floor) = try await BenchSupport.paired(benchmark.currentIteration &+ iteration) {
                        let value = try await f.fileRepository.getItems(feedId: "home", page: 7, policy: .cacheFirst)
                        guard value.isCached else { throw Miss() }
                        blackHole(value)
                    } _: {
                        let data = try Data(contentsOf: f.floorFile)
                        blackHole(try Payloads.plainDecoder().decode([FeedItem].self, from: data))
                    }
                    benchmark.measurement(cachegenMetric, cachegen)
                    benchmark.measurement(floorMetric, floor)
                } catch { benchmark.error("\(error)") }
            }
        } setup: { try await fixture() } teardown: { await Fixtures.shared.removeAll() }

        Benchmark("Hit \(label): floor Data(contentsOf:) + JSONDecoder", configuration: timed) { benchmark, f in
            for _ in benchmark.scaledIterations {
                do {
                    let data = try Data(contentsOf: f.floorFile)
                    blackHole(try Payloads.plainDecoder().decode([FeedItem].self, from: data))
                } catch { benchmark.error("\(error)") }
            }
        } setup: { try await fixture() } teardown: { await Fixtures.shared.removeAll() }

        Benchmark("Hit \(label): client cacheFirst, FileCacheStore", configuration: timed) { benchmark, f in
            for _ in benchmark.scaledIterations {
                do {
                    let value = try await f.fileRepository.getItems(feedId: "home", page: 7, policy: .cacheFirst)
                    guard value.isCached else { throw Miss() }
                    blackHole(value)
                } catch { benchmark.error("\(error)") }
            }
        } setup: { try await fixture() } teardown: { await Fixtures.shared.removeAll() }

        Benchmark("Hit \(label): store.entry + decode, FileCacheStore", configuration: timed) { benchmark, f in
            for _ in benchmark.scaledIterations {
                do {
                    guard let entry = try await f.fileStore.entry(for: f.key) else { throw Miss() }
                    blackHole(try benchEndpoint.coding.makeDecoder().decode([FeedItem].self, from: entry.body))
                } catch { benchmark.error("\(error)") }
            }
        } setup: { try await fixture() } teardown: { await Fixtures.shared.removeAll() }

        Benchmark("Hit \(label): store.entry only, FileCacheStore", configuration: timed) { benchmark, f in
            for _ in benchmark.scaledIterations {
                do {
                    guard let entry = try await f.fileStore.entry(for: f.key) else { throw Miss() }
                    blackHole(entry)
                } catch { benchmark.error("\(error)") }
            }
        } setup: { try await fixture() } teardown: { await Fixtures.shared.removeAll() }

        Benchmark("Hit \(label): floor Data(contentsOf:) only", configuration: timed) { benchmark, f in
            for _ in benchmark.scaledIterations {
                do {
                    blackHole(try Data(contentsOf: f.floorFile))
                } catch { benchmark.error("\(error)") }
            }
        } setup: { try await fixture() } teardown: { await Fixtures.shared.removeAll() }

        Benchmark("Hit \(label): decode only, JSONDecoder .iso8601", configuration: timed) { benchmark, f in
            for _ in benchmark.scaledIterations {
                do {
                    blackHole(try Payloads.plainDecoder().decode([FeedItem].self, from: f.body))
                } catch { benchmark.error("\(error)") }
            }
        } setup: { try await fixture() } teardown: { await Fixtures.shared.removeAll() }

        Benchmark("Hit \(label): decode only, runtime decoder", configuration: timed) { benchmark, f in
            for _ in benchmark.scaledIterations {
                do {
                    blackHole(try benchEndpoint.coding.makeDecoder().decode([FeedItem].self, from: f.body))
                } catch { benchmark.error("\(error)") }
            }
        } setup: { try await fixture() } teardown: { await Fixtures.shared.removeAll() }

        Benchmark("Hit \(label): GRDB read + decode", configuration: timed) { benchmark, f in
            for _ in benchmark.scaledIterations {
                do {
                    let body = try f.database.read { db in
                        try Data.fetchOne(db, sql: "SELECT body FROM cache WHERE key = ?", arguments: [f.key.text])
                    }
                    guard let body else { throw Miss() }
                    blackHole(try Payloads.plainDecoder().decode([FeedItem].self, from: body))
                } catch { benchmark.error("\(error)") }
            }
        } setup: { try await fixture() } teardown: { await Fixtures.shared.removeAll() }

        Benchmark("Hit \(label): GRDB async read + decode", configuration: timed) { benchmark, f in
            for _ in benchmark.scaledIterations {
                do {
                    let body = try await f.database.read { db in
                        try Data.fetchOne(db, sql: "SELECT body FROM cache WHERE key = ?", arguments: [f.key.text])
                    }
                    guard let body else { throw Miss() }
                    blackHole(try Payloads.plainDecoder().decode([FeedItem].self, from: body))
                } catch { benchmark.error("\(error)") }
            }
        } setup: { try await fixture() } teardown: { await Fixtures.shared.removeAll() }

        Benchmark("Hit \(label): client cacheFirst, MemoryCacheStore", configuration: timed) { benchmark, f in
            for _ in benchmark.scaledIterations {
                do {
                    let value = try await f.memoryRepository.getItems(feedId: "home", page: 7, policy: .cacheFirst)
                    guard value.isCached else { throw Miss() }
                    blackHole(value)
                } catch { benchmark.error("\(error)") }
            }
        } setup: { try await fixture() } teardown: { await Fixtures.shared.removeAll() }

        Benchmark("Hit \(label): client cacheFirst, in-memory layer over FileCacheStore", configuration: timed) {
            benchmark, f in
            for _ in benchmark.scaledIterations {
                do {
                    let value = try await f.layeredRepository.getItems(feedId: "home", page: 7, policy: .cacheFirst)
                    guard value.isCached else { throw Miss() }
                    blackHole(value)
                } catch { benchmark.error("\(error)") }
            }
        } setup: { try await fixture() } teardown: { await Fixtures.shared.removeAll() }

        Benchmark("Write \(label): FileCacheStore.setEntry", configuration: timed) { benchmark, f in
            for iteration in benchmark.scaledIterations {
                do {
                    let key = f.writeKeys[(benchmark.currentIteration &+ iteration) % f.writeKeys.count]
                    try await f.fileStore.setEntry(CacheEntry(body: f.body, date: Date()), for: key)
                } catch { benchmark.error("\(error)") }
            }
        } setup: { try await fixture() } teardown: { await Fixtures.shared.removeAll() }

        Benchmark("Write \(label): GRDB upsert", configuration: timed) { benchmark, f in
            for iteration in benchmark.scaledIterations {
                do {
                    let key = f.writeKeys[(benchmark.currentIteration &+ iteration) % f.writeKeys.count]
                    try f.database.write { db in
                        try db.execute(
                            sql: "INSERT OR REPLACE INTO cache (key, body, date) VALUES (?, ?, ?)",
                            arguments: [key.text, f.body, Date().timeIntervalSince1970])
                    }
                } catch { benchmark.error("\(error)") }
            }
        } setup: { try await fixture() } teardown: { await Fixtures.shared.removeAll() }
    }

    // The in-memory layer: a lookup in MemoryCacheStore with a ready key, and key building.
    Benchmark("Memory: MemoryCacheStore.entry (ready key)", configuration: tiny) { benchmark, f in
        for _ in benchmark.scaledIterations {
            blackHole(f.memoryStore.entry(for: f.key))
        }
    } setup: { try await Fixtures.shared.fixture(bytes: 1_024) } teardown: { await Fixtures.shared.removeAll() }

    Benchmark("Memory: CacheKey init", configuration: tiny) { benchmark in
        for index in benchmark.scaledIterations {
            blackHole(benchKey(feed: "home", page: index))
        }
    }
}
