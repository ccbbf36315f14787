@_spi(Generated) import CachedClientRuntime
import FixtureServerSupport
import Foundation
import PostgresCacheStore
import PostgresNIO

/// The benchmark rows: hit latency against a bare query and `FileCacheStore`, fleet collapsing,
/// hits per second from several processes.
struct Benchmarks {
    let url: String

    struct Account: Codable, Sendable {
        var id: String
        var name: String
        var balance: Double
        var tags: [String]
    }

    static let endpoint = Endpoint(
        name: "Accounts.get", cache: CacheRule(ttl: 3_600, maxStale: 86_400, policy: .cacheFirst, scope: .shared),
        shape: "Account{id,name,balance,tags}")
    static let request = EndpointRequest(method: "GET", path: "/accounts/1")
    static let account = Account(
        id: "1", name: String(repeating: "n", count: 64), balance: 12.5, tags: (0..<20).map { "tag-\($0)" })

    func run() async throws {
        let server = try await FixtureServer.start()
        defer { server.stop() }
        try await server.setRoute("/accounts/1", json: Self.account)
        print("| measure | figure |")
        print("| --- | --- |")
        try await latency(server)
        try await collapsing(server)
        try await hitsPerSecond(server)
    }

    // MARK: - Hit latency

    /// Medians of `count` timed runs of each body after `warmup` untimed ones, in
    /// microseconds. The bodies take turns, so a change in the machine's load (other
    /// processes, the server's caches) weighs on each alike and their ratio stays fair.
    static func medians(count: Int = 2_000, warmup: Int = 200, _ bodies: [() async throws -> Void]) async throws -> [Double] {
        for _ in 0..<warmup { for body in bodies { try await body() } }
        var samples = Array(repeating: [Double](), count: bodies.count)
        let clock = ContinuousClock()
        for _ in 0..<count {
            for (index, body) in bodies.enumerated() {
                let start = clock.now
                try await body()
                let elapsed = clock.now - start
                samples[index].append(Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12)
            }
        }
        return samples.map { $0.sorted()[$0.count / 2] }
    }

    static func format(_ microseconds: Double) -> String { String(format: "%.1f µs", microseconds) }

    func latency(_ server: FixtureServer) async throws {
        let namespace = "bench_" + UUID().uuidString.prefix(8).lowercased()
        let store = try PostgresCacheStore(url: url, namespace: namespace)
        try await store.ready()
        // 10,000 other entries, so the index has some depth.
        let filler = CacheEntry(body: Data(repeating: 0x20, count: 600), date: Date())
        for index in 0..<10_000 {
            try await store.setEntry(
                filler, for: CacheKey(text: "filler \(index)", endpoint: "Filler.get", partition: nil, path: "/f/\(index)"))
        }
        let noMemory = CachedClient(baseURL: server.baseURL, store: store, memoryCacheLimit: 0)
        _ = try await noMemory.value(for: Self.request, endpoint: Self.endpoint, policy: .networkOnly, as: Account.self)
        await noMemory.flush()
        let withMemory = CachedClient(baseURL: server.baseURL, store: store)

        // The bare read: the same row by the same digest with postgres-nio, decoded the same way.
        let bare = PostgresClient(configuration: try PostgresCacheStore.configuration(url: url))
        let runBare = Task { await bare.run() }
        var digest = ""
        for try await value in try await bare.query("SELECT digest FROM \(unescaped: namespace)_entries WHERE endpoint = 'Accounts.get'")
            .decode(String.self)
        {
            digest = value
        }
        let decoder = JSONDecoder()
        let storeKey = CacheKey(text: "filler 7", endpoint: "Filler.get", partition: nil, path: "/f/7")
        let figures = try await Self.medians([
            {
                for try await body in try await bare.query(
                    "SELECT body FROM \(unescaped: namespace)_entries WHERE digest = \(digest)"
                ).decode(ByteBuffer.self) {
                    _ = try decoder.decode(Account.self, from: Data(buffer: body))
                }
            },
            { _ = try await store.entry(for: storeKey) },
            { _ = try await noMemory.value(for: Self.request, endpoint: Self.endpoint, as: Account.self) },
            { _ = try await withMemory.value(for: Self.request, endpoint: Self.endpoint, as: Account.self) },
        ])
        let (bareQuery, storeRead, clientStore, clientMemory) = (figures[0], figures[1], figures[2], figures[3])
        // The cost of the removal rule: a read of `removalCount` (on every hit from memory),
        // and a removal that waits for the acknowledgements of three listening stores.
        let reads = 10_000_000
        let clock = ContinuousClock()
        let readStart = clock.now
        var sum: UInt64 = 0
        for _ in 0..<reads { sum &+= store.removalCount }
        let readTime = clock.now - readStart
        let nanosecondsPerRead =
            (Double(readTime.components.seconds) * 1e9 + Double(readTime.components.attoseconds) / 1e9) / Double(reads)
        var others: [PostgresCacheStore] = []
        for _ in 0..<2 {
            let other = try PostgresCacheStore(url: url, namespace: namespace)
            try await other.ready()
            others.append(other)
        }
        let removal = try await Self.medians(count: 200, warmup: 20, [{ try await store.removeAll(partition: "nobody") }])[0]
        for other in others { await other.shutdown() }
        runBare.cancel()
        await store.shutdown()

        // The same through FileCacheStore, beside its own baseline.
        let folder = FileManager.default.temporaryDirectory.appending(path: "pg-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fileStore = try FileCacheStore(directory: folder)
        let fileClient = CachedClient(baseURL: server.baseURL, store: fileStore, memoryCacheLimit: 0)
        _ = try await fileClient.value(for: Self.request, endpoint: Self.endpoint, policy: .networkOnly, as: Account.self)
        await fileClient.flush()
        let fileHit = try await Self.medians([
            { _ = try await fileClient.value(for: Self.request, endpoint: Self.endpoint, as: Account.self) }
        ])[0]

        print("| bare postgres-nio query of the row + JSONDecoder (baseline) | \(Self.format(bareQuery)) |")
        print("| `PostgresCacheStore.entry(for:)` of a 600-byte row | \(Self.format(storeRead)) |")
        print("| hit through `CachedClient` on PostgresCacheStore, memory layer off | \(Self.format(clientStore)) |")
        print("| **ratio: client hit ÷ bare query (goal ≤ 1.1×)** | **\(String(format: "%.2f×", clientStore / bareQuery))** |")
        print("| hit through `CachedClient` on PostgresCacheStore, from memory | \(Self.format(clientMemory)) |")
        print("| hit through `CachedClient` on FileCacheStore, memory layer off | \(Self.format(fileHit)) |")
        print("| a read of `removalCount` (on every hit from memory) | \(String(format: "%.1f ns", nanosecondsPerRead)) (checksum \(sum % 10)) |")
        print("| `removeAll(partition:)` with 3 listening stores acknowledging | \(Self.format(removal)) |")
    }

    // MARK: - Many processes

    /// Starts `count` children with `arguments`, waits for each `READY`, starts them together
    /// and returns what each printed after `DONE`.
    func children(_ count: Int, _ arguments: [String]) async throws -> [String] {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appending(path: "PostgresStoreChild")
        var processes: [(Process, Pipe, Pipe)] = []
        for _ in 0..<count {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            let output = Pipe()
            let input = Pipe()
            process.standardOutput = output
            process.standardInput = input
            try process.run()
            processes.append((process, output, input))
        }
        for (_, output, _) in processes { _ = output.fileHandleForReading.readLine() }
        for (_, _, input) in processes { try input.fileHandleForWriting.write(contentsOf: Data("GO\n".utf8)) }
        var results: [String] = []
        for (process, output, _) in processes {
            results.append(String(output.fileHandleForReading.readLine().dropFirst("DONE ".count)))
            process.waitUntilExit()
        }
        return results
    }

    func collapsing(_ server: FixtureServer) async throws {
        try await server.setRoute("/accounts/9", json: Self.account, delayMilliseconds: 300)
        let namespace = "bench_" + UUID().uuidString.prefix(8).lowercased()
        let start = ContinuousClock.now
        _ = try await children(
            4, ["fetch", url, namespace, server.baseURL.absoluteString, "/accounts/9", "100", "30", "10"])
        let elapsed = ContinuousClock.now - start
        let upstream = try await server.requests().filter { $0.path == "/accounts/9" }.count
        print("| 4 processes × 100 concurrent identical calls → upstream requests (goal 1) | \(upstream) (all answered in \(elapsed.formatted(.units(allowed: [.milliseconds])))) |")
    }

    func hitsPerSecond(_ server: FixtureServer) async throws {
        let namespace = "bench_" + UUID().uuidString.prefix(8).lowercased()
        let store = try PostgresCacheStore(url: url, namespace: namespace)
        let client = CachedClient(baseURL: server.baseURL, store: store)
        // The endpoint as the child defines it (its shape is part of the key).
        let childEndpoint = Endpoint(
            name: "Accounts.get", cache: CacheRule(ttl: 600, maxStale: 3_600, policy: .networkFirst, scope: .shared),
            shape: "Account{id}")
        _ = try await client.value(for: Self.request, endpoint: childEndpoint, policy: .networkOnly, as: Account.self)
        await client.flush()
        await store.shutdown()
        let seconds = 5.0
        for (memory, label) in [(0, "from PostgreSQL (memory layer off)"), (100, "from memory")] {
            let counts = try await children(
                4, ["hits", url, namespace, server.baseURL.absoluteString, "/accounts/1", "64", "\(seconds)", "\(memory)"])
            let total = counts.compactMap { Int($0) }.reduce(0, +)
            print("| hits per second, 4 processes × 64 tasks, \(label) | \(Int(Double(total) / seconds)) |")
        }
    }
}

extension FileHandle {
    /// The next line, without its break; "" at the end. Blocking.
    func readLine() -> String {
        var line = Data()
        while true {
            let byte = readData(ofLength: 1)
            if byte.isEmpty || byte.first == UInt8(ascii: "\n") { break }
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
    }
}
