// Items 4 and 5 of the benchmark plan, over loopback (127.0.0.1 only) against
// BenchSupport's LoopbackServer:
// - the fresh path: a generated client's networkFirst call (request, decode, store)
//   beside a raw URLSession call + JSONDecoder of the same response, on the same session
//   and server, in the same run;
// - in-flight merging: 100 concurrent identical calls, and the requests the server saw.

@_spi(Generated) import BenchSupport
import Benchmark
@_spi(Generated) import CachedClientRuntime
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

final class NetworkFixture: Sendable {
    let server: LoopbackServer
    let session: URLSession
    let fileClient: CachedClient
    let fileRepository: LiveFeedRepository
    let memoryRepository: LiveFeedRepository
    let rawRequest: URLRequest
    let directory: URL

    init(bytes: Int, delay: Duration = .zero) async throws {
        let body = Payloads.feed(bytes: bytes)
        server = try LoopbackServer(body: body, delay: delay)
        // The transport's default session: ephemeral, no URLCache. Both sides share it.
        session = URLSessionTransport.defaultSession
        let transport = URLSessionTransport(session: session)
        directory = try makeTemporaryDirectory("network-\(bytes)")
        let fileStore = try FileCacheStore(directory: directory)
        fileClient = CachedClient(baseURL: server.baseURL, store: fileStore, transport: transport, partition: "user-1")
        fileRepository = LiveFeedRepository(client: fileClient)
        memoryRepository = LiveFeedRepository(client: CachedClient(
            baseURL: server.baseURL, store: MemoryCacheStore(), transport: transport, partition: "user-1"))
        var request = URLRequest(url: server.baseURL.appendingPathComponent("feeds/home/items"))
        request.url = URL(string: request.url!.absoluteString + "?page=1")
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        rawRequest = request
    }
}

actor Fixtures {
    static let shared = Fixtures()
    private var fixtures: [String: NetworkFixture] = [:]

    func fixture(bytes: Int, delay: Duration = .zero) async throws -> NetworkFixture {
        let name = "\(bytes) \(delay)"
        if let fixture = fixtures[name] { return fixture }
        let fixture = try await NetworkFixture(bytes: bytes, delay: delay)
        fixtures[name] = fixture
        return fixture
    }

    /// Lets the clients' writes land, then stops the servers and deletes the stores' folders
    /// (each benchmark runs in its own process).
    func removeAll() async {
        for fixture in fixtures.values {
            await fixture.fileClient.flush()
            fixture.server.stop()
            try? FileManager.default.removeItem(at: fixture.directory)
        }
        fixtures = [:]
    }
}

struct BadAnswer: Error {}

/// The two sides of a paired measurement, in nanoseconds.
let cachegenMetric = BenchmarkMetric.custom("cachegen_ns", useScalingFactor: false)
let rawMetric = BenchmarkMetric.custom("raw_ns", useScalingFactor: false)

func rawCall(_ f: NetworkFixture) async throws -> [FeedItem] {
    let (data, response) = try await f.session.data(for: f.rawRequest)
    guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw BadAnswer() }
    return try Payloads.plainDecoder().decode([FeedItem].self, from: data)
}

let benchmarks: @Sendable () -> Void = {
    let timed = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 50,
        maxDuration: .seconds(3),
        maxIterations: 10_000)

    let pairedConfiguration = Benchmark.Configuration(
        metrics: [.wallClock, cachegenMetric, rawMetric],
        timeUnits: .nanoseconds,
        units: [cachegenMetric: .count, rawMetric: .count],
        warmupIterations: 50,
        maxDuration: .seconds(4),
        maxIterations: 10_000)

    for (label, bytes) in [("1 KB", 1_024), ("10 KB", 10_240)] {
        func fixture() async throws -> NetworkFixture { try await Fixtures.shared.fixture(bytes: bytes) }

        // The figure for the target: both sides in every iteration, in alternating order. The
        // client writes its entry behind the call; the write lands untimed after the client's
        // side (`afterA`), so it is neither in the client's time nor in the raw call's when that
        // comes next. What the writes cost calls made back to back, on 2 cores, is in the
        // separate "Fresh … FileCacheStore" benchmark below, which never waits for them.
        Benchmark("Paired fresh \(label): client networkFirst FileCacheStore vs raw URLSession", configuration: pairedConfiguration) {
            benchmark, f in
            for iteration in benchmark.scaledIterations {
                do {
                    let (cachegen, raw) = try await paired(benchmark.currentIteration &+ iteration) {
                        let value = try await f.fileRepository.getItems(feedId: "home", page: 1, policy: .networkFirst)
                        guard !value.isCached else { throw BadAnswer() }
                        blackHole(value)
                    } _: {
                        blackHole(try await rawCall(f))
                    } afterA: {
                        await f.fileClient.flush()
                    }
                    benchmark.measurement(cachegenMetric, cachegen)
                    benchmark.measurement(rawMetric, raw)
                } catch { benchmark.error("\(error)") }
            }
        } setup: { try await fixture() } teardown: { await Fixtures.shared.removeAll() }

        Benchmark("Fresh \(label): raw URLSession + JSONDecoder", configuration: timed) { benchmark, f in
            for _ in benchmark.scaledIterations {
                do {
                    blackHole(try await rawCall(f))
                } catch { benchmark.error("\(error)") }
            }
        } setup: { try await fixture() } teardown: { await Fixtures.shared.removeAll() }

        // Back to back: each call's write runs behind it while the next calls are timed.
        Benchmark("Fresh \(label): client networkFirst, FileCacheStore", configuration: timed) { benchmark, f in
            for _ in benchmark.scaledIterations {
                do {
                    let value = try await f.fileRepository.getItems(feedId: "home", page: 1, policy: .networkFirst)
                    guard !value.isCached else { throw BadAnswer() }
                    blackHole(value)
                } catch { benchmark.error("\(error)") }
            }
        } setup: { try await fixture() } teardown: { await Fixtures.shared.removeAll() }

        Benchmark("Fresh \(label): client networkFirst, MemoryCacheStore", configuration: timed) { benchmark, f in
            for _ in benchmark.scaledIterations {
                do {
                    let value = try await f.memoryRepository.getItems(feedId: "home", page: 1, policy: .networkFirst)
                    guard !value.isCached else { throw BadAnswer() }
                    blackHole(value)
                } catch { benchmark.error("\(error)") }
            }
        } setup: { try await fixture() } teardown: { await Fixtures.shared.removeAll() }
    }

    // 100 concurrent identical calls; the server answers after 20 ms, as a fast network would.
    let merging = Benchmark.Configuration(
        metrics: [.wallClock, .custom("requests seen by server", useScalingFactor: false)],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(5),
        maxIterations: 20)
    for (label, isClient) in [("client networkFirst", true), ("raw URLSession", false)] {
        Benchmark("Merge: 100 concurrent identical calls, \(label)", configuration: merging) { benchmark, f in
            f.server.resetCount()
            do {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<100 {
                        group.addTask {
                            if isClient {
                                blackHole(try await f.fileRepository.getItems(feedId: "home", page: 2, policy: .networkFirst))
                            } else {
                                blackHole(try await rawCall(f))
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            } catch { benchmark.error("\(error)") }
            benchmark.measurement(.custom("requests seen by server", useScalingFactor: false), f.server.requestCount)
        } setup: { try await Fixtures.shared.fixture(bytes: 10_240, delay: .milliseconds(20)) } teardown: {
            await Fixtures.shared.removeAll()
        }
    }
}
