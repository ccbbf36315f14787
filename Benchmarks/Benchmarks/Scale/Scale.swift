// Item 3 of the benchmark plan: hit latency and store-open time with 1,000 and with
// 100,000 entries (1 KB each, all of one endpoint and user, so in one folder: the worst
// case for the file system). Keys are read in a fixed pseudo-random order, so the
// large store is not measured on a handful of hot files.
//
// The filled stores are kept in the temporary folder between runs
// (cachegen-bench-scale-<count>) and rebuilt when a probe read misses (for example after
// a change of the file format); delete them to measure from scratch. Before measuring,
// every entry is read once (the steady state of a store in use).

@_spi(Generated) import BenchSupport
import Benchmark
@_spi(Generated) import CachedClientRuntime
import Foundation

final class ScaleFixture: Sendable {
    let count: Int
    let directory: URL
    let store: FileCacheStore
    let repository: LiveFeedRepository
    let keys: [CacheKey]
    let order: [Int]

    init(count: Int) async throws {
        self.count = count
        let body = Payloads.feed(bytes: 1_024)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("cachegen-bench-scale-\(count)")
        let marker = directory.appendingPathComponent("complete")
        var store = try FileCacheStore(directory: directory.appendingPathComponent("store"))
        let probe = offlineRepository(store)
        var ready = false
        if FileManager.default.fileExists(atPath: marker.path) {
            ready = (try? await probe.getItems(feedId: "home", page: count - 1, policy: .cacheOnly)) != nil
        }
        if !ready {
            try? FileManager.default.removeItem(at: directory)
            store = try FileCacheStore(directory: directory.appendingPathComponent("store"))
            try await fill(store, body: body, feeds: ["home"], pages: 0..<count)
            for page in 0..<count {
                try await store.setEntry(CacheEntry(body: body, date: Date()), for: benchKey(feed: "direct", page: page))
            }
            try Data().write(to: marker)
        }
        self.store = store
        repository = offlineRepository(store)
        keys = (0..<count).map { benchKey(feed: "direct", page: $0) }
        // Steady state: every entry read once, so that the system holds the folder's and the
        // files' metadata, as it does for a store in use. (A store untouched since the system
        // dropped its caches pays a disk read per first access, 1,000 entries or 100,000.)
        for key in keys { _ = try await store.entry(for: key) }
        for page in 0..<count { _ = try await repository.getItems(feedId: "home", page: page, policy: .cacheFirst) }
        // A fixed permutation (LCG), the same on every run.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        order = (0..<65_536).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(count))
        }
    }

    var storeDirectory: URL { directory.appendingPathComponent("store") }
}

actor Fixtures {
    static let shared = Fixtures()
    private var fixtures: [Int: ScaleFixture] = [:]

    func fixture(count: Int) async throws -> ScaleFixture {
        if let fixture = fixtures[count] { return fixture }
        let fixture = try await ScaleFixture(count: count)
        fixtures[count] = fixture
        return fixture
    }
}

struct Miss: Error {}

/// The two sides of the paired measurement, in nanoseconds.
let largeMetric = BenchmarkMetric.custom("entries_100000_ns", useScalingFactor: false)
let smallMetric = BenchmarkMetric.custom("entries_1000_ns", useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
    let timed = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 20,
        maxDuration: .seconds(3),
        maxIterations: 30_000)

    // The figure for the target: a hit in each store in every iteration, in alternating order.
    Benchmark(
        "Paired scale: hit, client cacheFirst, 100,000 vs 1,000 entries",
        configuration: .init(
            metrics: [.wallClock, largeMetric, smallMetric], timeUnits: .nanoseconds,
            units: [largeMetric: .count, smallMetric: .count], warmupIterations: 20,
            maxDuration: .seconds(4), maxIterations: 30_000)
    ) { benchmark, fixtures in
        let (small, large) = fixtures
        for iteration in benchmark.scaledIterations {
            do {
                let index = (benchmark.currentIteration &+ iteration) & 0xFFFF
                let (largeTime, smallTime) = try await paired(index) {
                    let value = try await large.repository.getItems(feedId: "home", page: large.order[index], policy: .cacheFirst)
                    guard value.isCached else { throw Miss() }
                    blackHole(value)
                } _: {
                    let value = try await small.repository.getItems(feedId: "home", page: small.order[index], policy: .cacheFirst)
                    guard value.isCached else { throw Miss() }
                    blackHole(value)
                }
                benchmark.measurement(largeMetric, largeTime)
                benchmark.measurement(smallMetric, smallTime)
            } catch { benchmark.error("\(error)") }
        }
    } setup: {
        (try await Fixtures.shared.fixture(count: 1_000), try await Fixtures.shared.fixture(count: 100_000))
    }

    for (label, count) in [("1,000", 1_000), ("100,000", 100_000)] {
        func fixture() async throws -> ScaleFixture { try await Fixtures.shared.fixture(count: count) }

        Benchmark("Scale \(label) entries: hit, client cacheFirst", configuration: timed) { benchmark, f in
            for iteration in benchmark.scaledIterations {
                do {
                    let page = f.order[(benchmark.currentIteration &+ iteration) & 0xFFFF]
                    let value = try await f.repository.getItems(feedId: "home", page: page, policy: .cacheFirst)
                    guard value.isCached else { throw Miss() }
                    blackHole(value)
                } catch { benchmark.error("\(error)") }
            }
        } setup: { try await fixture() }

        Benchmark("Scale \(label) entries: store.entry only", configuration: timed) { benchmark, f in
            for iteration in benchmark.scaledIterations {
                do {
                    let key = f.keys[f.order[(benchmark.currentIteration &+ iteration) & 0xFFFF]]
                    guard let entry = try await f.store.entry(for: key) else { throw Miss() }
                    blackHole(entry)
                } catch { benchmark.error("\(error)") }
            }
        } setup: { try await fixture() }

        Benchmark("Scale \(label) entries: open store", configuration: timed) { benchmark, f in
            for _ in benchmark.scaledIterations {
                do {
                    blackHole(try FileCacheStore(directory: f.storeDirectory))
                } catch { benchmark.error("\(error)") }
            }
        } setup: { try await fixture() }

        Benchmark("Scale \(label) entries: open store + first hit", configuration: timed) { benchmark, f in
            for iteration in benchmark.scaledIterations {
                do {
                    let store = try FileCacheStore(directory: f.storeDirectory)
                    let key = f.keys[f.order[(benchmark.currentIteration &+ iteration) & 0xFFFF]]
                    guard let entry = try await store.entry(for: key) else { throw Miss() }
                    blackHole(entry)
                } catch { benchmark.error("\(error)") }
            }
        } setup: { try await fixture() }
    }
}
