// A plain executable for profilers (valgrind --tool=callgrind, perf): runs one workload
// many times with no benchmark harness around it, and prints the time per call.
//
//   swift build --package-path Benchmarks -c release --product Profile
//   valgrind --tool=callgrind Benchmarks/.build/release/Profile client-hit 1024 2000
//
// On a shared, noisy machine, instruction counts compare two builds better than times do:
// run callgrind at two call counts and divide the difference of the `I refs` totals by the
// difference of the counts, which leaves out the setup.
//
// Workloads:
//   key N                      build N CacheKeys (what every client call does first)
//   client-hit BYTES N         N cacheFirst hits through the generated client, FileCacheStore
//   layer-hit BYTES N          the same with the client's in-memory layer of decoded values on
//   store-hit BYTES N          N FileCacheStore.entry(for:) + decode
//   floor BYTES N              N Data(contentsOf:) + JSONDecoder.decode of the same bytes
//   write replace|new|remove-first BYTES N
//                              N FileCacheStore.setEntry: over an existing entry, to a new
//                              key, or after removing the old entry
//   generate SPEC N            N Generator.generate runs on a spec file
//   validate SPEC N            N Generator.validate runs (parse + validate, no output)
//   fresh-client|fresh-memory|fresh-raw BYTES N
//                              N networkFirst calls over 127.0.0.1 (FileCacheStore, or
//                              MemoryCacheStore), or N raw URLSession calls + decode, back to
//                              back: each call's write (behind the call) competes with the
//                              next calls for the cores
//   fresh-paired|fresh-paired-memory BYTES N
//                              N pairs of a fresh-client (or fresh-memory) call and a raw call,
//                              in alternating order, the client's write landing untimed after
//                              its call (as the paired benchmark); prints both medians and
//                              their ratio
//   scale ENTRIES N            N store.entry(for:) of random keys in the store the Scale
//                              benchmark left in the temporary folder (run it first)
//   query-update BYTES N       N updates of a live query (CachedQuery) through an in-memory hit:
//                              from the main actor, load (cacheFirst, the value held decoded by
//                              the client) until the observer of `value` is told, as a screen's
//                              query is updated; compare with `layer-hit`, the same hit without
//                              a query. The main thread runs its run loop (the main actor's
//                              queue) instead of waiting on a semaphore. The hit answers with
//                              the value already shown, so no observer is told (only real
//                              changes notify; the comparison meets the arrays' identity).

@_spi(Generated) import BenchSupport
import CacheGenCore
@_spi(Generated) import CachedClientRuntime
import Foundation
import Observation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@inline(never)
func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

func report(_ label: String, _ count: Int, _ start: ContinuousClock.Instant) {
    let elapsed = ContinuousClock.now - start
    let (seconds, attoseconds) = elapsed.components
    let microseconds = (Double(seconds) * 1e6 + Double(attoseconds) / 1e12) / Double(max(count, 1))
    print("\(label): \(count) calls, \(String(format: "%.2f", microseconds)) µs per call")
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else {
    print("usage: Profile key|client-hit|store-hit|floor|write|generate …")
    exit(2)
}
let number = { (index: Int, fallback: Int) -> Int in
    arguments.count > index ? Int(arguments[index]) ?? fallback : fallback
}

/// Runs the workload the arguments name.
func run() async throws {
    switch command {
    case "key":
        let count = number(1, 10_000)
        let start = ContinuousClock.now
        for index in 0..<count { consume(benchKey(feed: "home", page: index)) }
        report("CacheKey init", count, start)

    case "client-hit", "layer-hit", "store-hit", "floor":
        let bytes = number(1, 1_024)
        let count = number(2, 10_000)
        let body = Payloads.feed(bytes: bytes)
        let directory = try makeTemporaryDirectory("profile")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileCacheStore(directory: directory.appendingPathComponent("store"))
        try await fill(store, body: body, feeds: ["home"], pages: 0..<1)
        let key = benchKey(feed: "home", page: 0)
        try await store.setEntry(CacheEntry(body: body, date: Date()), for: key)
        let file = directory.appendingPathComponent("floor.json")
        try body.write(to: file)
        let repository = offlineRepository(store, memoryCacheLimit: command == "layer-hit" ? 100 : 0)
        // Off the main actor, as the benchmarks run: from the main actor every await of the
        // client would add two thread switches.
        let start = ContinuousClock.now
        try await Task.detached {
            for _ in 0..<count {
                switch command {
                case "client-hit", "layer-hit":
                    consume(try await repository.getItems(feedId: "home", page: 0, policy: .cacheFirst))
                case "store-hit":
                    let entry = try await store.entry(for: key)!
                    consume(try benchEndpoint.coding.makeDecoder().decode([FeedItem].self, from: entry.body))
                default:
                    consume(try Payloads.plainDecoder().decode([FeedItem].self, from: Data(contentsOf: file)))
                }
            }
        }.value
        report("\(command) \(body.count) bytes", count, start)

    case "write":
        let mode = arguments.count > 1 ? arguments[1] : "replace"
        let bytes = number(2, 1_024)
        let count = number(3, 2_000)
        let body = Payloads.feed(bytes: bytes)
        let directory = try makeTemporaryDirectory("profile-write")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileCacheStore(directory: directory)
        let keys = (0..<(mode == "new" ? count : 64)).map { benchKey(feed: "write", page: $0) }
        for key in keys.prefix(64) { try await store.setEntry(CacheEntry(body: body, date: Date()), for: key) }
        let start = ContinuousClock.now
        for index in 0..<count {
            let key = keys[index % keys.count]
            if mode == "remove-first" { try await store.removeEntry(for: key) }
            try await store.setEntry(CacheEntry(body: body, date: Date()), for: key)
        }
        report("setEntry (\(mode)) \(body.count) bytes", count, start)

    case "generate", "validate":
        let path = arguments.count > 1 ? arguments[1] : "/tmp/Large.cachegen.json"
        let count = number(2, 5)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let start = ContinuousClock.now
        for _ in 0..<count {
            if command == "generate" {
                consume(Generator.generate(data, path: path, options: .init()))
            } else {
                consume(Generator.validate(data, path: path))
            }
        }
        report("Generator.\(command)", count, start)

    case "scale":
        let entries = number(1, 100_000)
        let count = number(2, 10_000)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("cachegen-bench-scale-\(entries)/store")
        let store = try FileCacheStore(directory: directory)
        let keys = (0..<entries).map { benchKey(feed: "direct", page: $0) }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let start = ContinuousClock.now
        for _ in 0..<count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            guard let entry = try await store.entry(for: keys[Int((state >> 33) % UInt64(entries))]) else {
                print("miss: run the Scale benchmark first")
                exit(1)
            }
            consume(entry)
        }
        report("store.entry, \(entries) entries, random keys", count, start)

    case "fresh-client", "fresh-memory", "fresh-raw", "fresh-paired", "fresh-paired-memory":
        let bytes = number(1, 1_024)
        let count = number(2, 2_000)
        let server = try LoopbackServer(body: Payloads.feed(bytes: bytes))
        let session = URLSessionTransport.defaultSession
        let directory = try makeTemporaryDirectory("profile-fresh")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store: any CacheStore = command.hasSuffix("-memory") ? MemoryCacheStore() : try FileCacheStore(directory: directory)
        let client = CachedClient(
            baseURL: server.baseURL, store: store, transport: URLSessionTransport(session: session), partition: "user-1")
        let repository = LiveFeedRepository(client: client)
        var request = URLRequest(url: URL(string: server.baseURL.absoluteString + "/feeds/home/items?page=1")!)
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let raw = { () async throws -> Void in
            let (data, _) = try await session.data(for: request)
            consume(try Payloads.plainDecoder().decode([FeedItem].self, from: data))
        }
        let cached = { () async throws -> Void in
            consume(try await repository.getItems(feedId: "home", page: 1, policy: .networkFirst))
        }
        for _ in 0..<20 {
            if command != "fresh-raw" { try await cached() }
            if command != "fresh-client" && command != "fresh-memory" { try await raw() }
        }
        await client.flush()
        if command.hasPrefix("fresh-paired") {
            // As the paired benchmark: both sides in every iteration, in alternating order, the
            // client's write landing untimed right after its call, so neither side pays for it.
            var clientTimes: [Double] = []
            var rawTimes: [Double] = []
            for iteration in 0..<count {
                let (a, b) = try await paired(iteration, cached, raw, afterA: { await client.flush() })
                clientTimes.append(Double(a) / 1_000)
                rawTimes.append(Double(b) / 1_000)
            }
            func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
            let (c, r) = (median(clientTimes), median(rawTimes))
            print(
                "\(command) \(bytes) bytes: \(count) pairs, medians: client \(String(format: "%.2f", c)) µs, "
                    + "raw \(String(format: "%.2f", r)) µs, ratio \(String(format: "%.3f", c / r))")
        } else {
            let call = command == "fresh-raw" ? raw : cached
            let start = ContinuousClock.now
            for _ in 0..<count { try await call() }
            report("\(command) \(bytes) bytes", count, start)
        }
        await client.flush()
        server.stop()

    case "query-update":
        try await queryUpdate(bytes: number(1, 1_024), count: number(2, 10_000))

    default:
        print("unknown workload \(command)")
        exit(2)
    }
}

/// N query updates, each an in-memory hit observed through Observation (see the usage above).
@MainActor
func queryUpdate(bytes: Int, count: Int) async throws {
    let body = Payloads.feed(bytes: bytes)
    let directory = try makeTemporaryDirectory("profile-query")
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try FileCacheStore(directory: directory.appendingPathComponent("store"))
    try await fill(store, body: body, feeds: ["home"], pages: 0..<1)
    let repository = offlineRepository(store, memoryCacheLimit: 100)
    // What `repository.getItemsQuery(feedId:page:)` makes, with the cacheFirst policy that
    // answers from memory (the spec's default is networkFirst).
    let query = CachedQuery { _ in try await repository.getItems(feedId: "home", page: 0, policy: .cacheFirst) }
    await query.load()  // The first load decodes and holds the value; the loop measures hits.
    let told = Counter()
    let start = ContinuousClock.now
    for _ in 0..<count {
        withObservationTracking { _ = query.value } onChange: { told.add() }
        await query.load()
    }
    report("query-update \(body.count) bytes (\(told.value) observed)", count, start)
}

/// Observer calls, counted on the main actor.
final class Counter: @unchecked Sendable {
    private(set) var value = 0
    func add() { value += 1 }
}

// The main thread waits on a semaphore instead of running top-level `await` code: under an
// async main it parks in libdispatch's `sigsuspend`, where valgrind 3.19 dies with SIGSEGV,
// so callgrind could profile none of the async workloads.
let finished = DispatchSemaphore(value: 0)
let done = Flag()
Task.detached {
    do {
        try await run()
    } catch {
        print("error: \(error)")
        exit(1)
    }
    done.set()
    finished.signal()
}
if command == "query-update" {
    // The main actor's jobs run on the main thread's run loop.
    while !done.isSet { _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05)) }
} else {
    finished.wait()
}

/// A flag set once, from any thread.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    var isSet: Bool { lock.withLock { flag } }
    func set() { lock.withLock { flag = true } }
}
