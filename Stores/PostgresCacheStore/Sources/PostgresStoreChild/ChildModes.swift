@_spi(Generated) import CachedClientRuntime
import Foundation
import PostgresCacheStore
import Synchronization

/// What the child does, by its first argument; see `main.swift`.
enum ChildModes {
    struct Usage: Error, CustomStringConvertible {
        var description: String {
            """
            usage: PostgresStoreChild remove-partition <url> <namespace> <partition>
                   PostgresStoreChild fetch <url> <namespace> <base URL> <path> <tasks> <lease seconds> <max wait seconds>
                   PostgresStoreChild hits <url> <namespace> <base URL> <path> <tasks> <seconds> <memory entries>
                   PostgresStoreChild enqueue <url> <namespace> <partition> <count, 0: until killed> <tasks> <body bytes>
            """
        }
    }

    /// The endpoint every mode calls: a shared `GET` whose answer is `{"id": …}`.
    static let endpoint = Endpoint(
        name: "Accounts.get", cache: CacheRule(ttl: 600, maxStale: 3_600, policy: .networkFirst, scope: .shared),
        shape: "Account{id}")

    struct Account: Codable, Sendable {
        var id: String
    }

    /// A store with a few connections: the tests start many children beside many stores of
    /// their own, all on one server.
    static func openStore(url: String, namespace: String) throws -> PostgresCacheStore {
        var configuration = try PostgresCacheStore.configuration(url: url)
        configuration.options.maximumConnections = 4
        return try PostgresCacheStore(configuration: configuration, namespace: namespace)
    }

    /// Writes a line to standard output at once (the parent waits for it; `print` may buffer).
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func run(_ arguments: [String]) async throws {
        switch (arguments.first, arguments.count) {
        case ("remove-partition", 4):
            let store = try openStore(url: arguments[1], namespace: arguments[2])
            try await store.ready()
            try await store.removeAll(partition: arguments[3])
            await store.shutdown()
            say("DONE")

        case ("fetch", 8):
            guard let baseURL = URL(string: arguments[3]), let tasks = Int(arguments[5]),
                let lease = Double(arguments[6]), let maxWait = Double(arguments[7])
            else { throw Usage() }
            try await fetch(
                url: arguments[1], namespace: arguments[2], baseURL: baseURL, path: arguments[4], tasks: tasks,
                collapsing: RequestCollapsing(leaseDuration: lease, maxWait: maxWait, pollInterval: 0.01))

        case ("hits", 8):
            guard let baseURL = URL(string: arguments[3]), let tasks = Int(arguments[5]),
                let seconds = Double(arguments[6]), let memory = Int(arguments[7])
            else { throw Usage() }
            try await hits(
                url: arguments[1], namespace: arguments[2], baseURL: baseURL, path: arguments[4], tasks: tasks,
                seconds: seconds, memoryEntries: memory)

        case ("enqueue", 7):
            guard let count = Int(arguments[4]), let tasks = Int(arguments[5]), let bodyBytes = Int(arguments[6]) else {
                throw Usage()
            }
            try await enqueue(
                url: arguments[1], namespace: arguments[2], partition: arguments[3], count: count, tasks: tasks,
                bodyBytes: bodyBytes)

        default:
            throw Usage()
        }
    }

    /// Prints `READY`, waits for a line on standard input (so that many children start at the
    /// same moment), makes `tasks` concurrent `networkFirst` calls of one key and prints
    /// `DONE <ids> <collapsed events>`.
    static func fetch(
        url: String, namespace: String, baseURL: URL, path: String, tasks: Int, collapsing: RequestCollapsing
    ) async throws {
        let store = try openStore(url: url, namespace: namespace)
        try await store.ready()
        let collapsed = Atomic<Int>(0)
        let client = CachedClient(
            baseURL: baseURL, store: store,
            events: { event in
                if event.kind == .collapsed { collapsed.wrappingAdd(1, ordering: .relaxed) }
                // For the parent's failure messages.
                FileHandle.standardError.write(Data("event: \(event)\n".utf8))
            },
            memoryCacheLimit: 0, collapsing: collapsing)
        say("READY")
        _ = readLine()
        let request = EndpointRequest(method: "GET", path: path)
        let ids = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<tasks {
                group.addTask { try await client.value(for: request, endpoint: endpoint, as: Account.self).value.id }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        await client.flush()
        await store.shutdown()
        say("DONE \(ids.sorted().joined(separator: ",")) \(collapsed.load(ordering: .relaxed))")
    }

    /// Prints `READY`, waits for a line on standard input, then for `seconds` makes `cacheFirst`
    /// calls of one stored key from `tasks` tasks, and prints `DONE <calls answered>`.
    static func hits(
        url: String, namespace: String, baseURL: URL, path: String, tasks: Int, seconds: Double, memoryEntries: Int
    ) async throws {
        let store = try openStore(url: url, namespace: namespace)
        try await store.ready()
        let client = CachedClient(baseURL: baseURL, store: store, memoryCacheLimit: memoryEntries)
        let request = EndpointRequest(method: "GET", path: path)
        say("READY")
        _ = readLine()
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1_000))
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    var count = 0
                    while ContinuousClock.now < deadline {
                        let value = try await client.value(for: request, endpoint: endpoint, policy: .cacheFirst, as: Account.self)
                        if value.isCached { count += 1 }
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        await store.shutdown()
        say("DONE \(total)")
    }

    /// Prints `READY`, waits for a line on standard input, then enqueues mutations into
    /// `partition`'s outbox from `tasks` tasks, `count` in all (0: until killed), printing
    /// `ENQUEUED <sequence> <number>` as each enqueue returns and `DONE` at the end. Mutation
    /// `<number>` has the query `n=<number>` and a body of `bodyBytes` bytes of `number % 251`,
    /// so a reader can tell a whole record from a torn one.
    static func enqueue(url: String, namespace: String, partition: String, count: Int, tasks: Int, bodyBytes: Int) async throws {
        let store = try openStore(url: url, namespace: namespace)
        try await store.ready()
        say("READY")
        _ = readLine()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    // Task `task` enqueues numbers task, task + tasks, task + 2 × tasks, …
                    for number in stride(from: task, to: count > 0 ? count : Int.max, by: tasks) {
                        let mutation = QueuedMutation(
                            id: UUID().uuidString, partition: partition, scope: "/notes", endpoint: "Notes.create",
                            method: "POST", path: "/notes", query: [.init(name: "n", value: String(number))],
                            body: Data(repeating: UInt8(number % 251), count: bodyBytes), contentType: "application/octet-stream",
                            idempotencyKey: UUID().uuidString, createdAt: Date())
                        let stored = try await store.enqueueMutation(mutation)
                        say("ENQUEUED \(stored.sequence) \(number)")
                    }
                }
            }
            try await group.waitForAll()
        }
        await store.shutdown()
        say("DONE")
    }
}
