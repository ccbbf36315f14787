import CachedClientTestSupport
import Dispatch
import FixtureServerSupport
import Foundation
import Testing

@_spi(Generated) @testable import CachedClientRuntime
@_spi(RuntimeLayers) import CachedClientValues

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Thousands of calls through a real socket, cancelled from threads at chosen moments:
/// before they start, while they wait for headers, mid-answer, around the moment the answer
/// or a refused connection is handled, after they end, or never; many of them merged (some
/// three calls a key at once), some to a port where nothing listens, and event streams cancelled
/// mid-body. Every caller gets a value or `CancellationError` (or, not cancelled, the refused
/// connection's error), nothing hangs (watched from a thread, by progress), and the server sees
/// every connection closed. The exact windows are hit on purpose in `CancellationWindowTests`;
/// this is what an app does to the client at random.
@Suite("Cancellation stress: thousands of calls cancelled at chosen moments", .serialized)
struct CancellationStressTests {
    /// When a call is cancelled.
    enum Moment: CaseIterable {
        /// Cancelled before its task runs.
        case beforeStart
        /// Cancelled after a random delay within the time an answer takes, so that many land
        /// while waiting for headers, mid-answer and as the answer is handled.
        case during
        /// Cancelled after it ended (a no-op that must stay one).
        case afterEnd
        /// Never cancelled.
        case never
    }

    /// What callers got, by kind; anything else is a failure with its first example.
    struct Tally: Sendable {
        var values = 0
        var cancellations = 0
        var refused = 0
        var unexpected: [String] = []
    }

    static let calls = 6_000
    static let streams = 480
    static let batch = 24

    @Test("calls, merged and not, to the fixture server and to a closed port")
    func calls() async throws {
        let server = try await FixtureServer.start()
        defer { server.stop() }
        for id in 0..<8 {
            try await server.setRoute("/v1/accounts/\(id)", json: Fixtures.alice, delayMilliseconds: id < 4 ? 0 : 15)
        }
        let session = URLSession(configuration: .ephemeral)
        let live = CachedClient(
            baseURL: server.baseURL.appending(path: "v1"), transport: URLSessionTransport(session: session, timeout: 20),
            retry: .none)
        let refused = CachedClient(
            baseURL: URL(string: "http://127.0.0.1:\(try Self.closedPort())/v1")!,
            transport: URLSessionTransport(session: session, timeout: 20), retry: .none)
        let endpoint = Fixtures.endpoint(policy: .networkOnly)

        var random = SplitMix64(seed: 36)
        let plan = (0..<Self.calls).map { _ in
            (toClosedPort: random.next(below: 8) == 0, id: random.next(below: 8),
             moment: Moment.allCases[random.next(below: 4)], delay: random.next(below: 25_000))
        }
        let tally = Locked(Tally())
        let progress = Locked(0)
        let run = Task {
            for start in stride(from: 0, to: plan.count, by: Self.batch) {
                let batch = plan[start..<min(start + Self.batch, plan.count)]
                let tasks = batch.map { call in
                    Task {
                        let client = call.toClosedPort ? refused : live
                        return try await client.value(for: Fixtures.request(id: "\(call.id)"), endpoint: endpoint, as: Account.self)
                    }
                }
                let cancellations = zip(batch, tasks).compactMap { call, task -> (delay: Int, task: Task<CachedValue<Account>, any Error>)? in
                    switch call.moment {
                    case .beforeStart: task.cancel(); return nil
                    case .during: return (call.delay, task)
                    case .afterEnd, .never: return nil
                    }
                }
                Self.cancelOnThread(cancellations)
                for (call, task) in zip(batch, tasks) {
                    let result = await task.result
                    if call.moment == .afterEnd { task.cancel() }
                    tally.withLock { Self.count(result, toClosedPort: call.toClosedPort, cancelled: call.moment != .never && call.moment != .afterEnd, in: &$0) }
                    progress.withLock { $0 += 1 }
                }
            }
        }
        guard await Self.finishes(run, progress: progress) else { return }

        let seen = tally.withLock { $0 }
        #expect(seen.unexpected.isEmpty, "\(seen.unexpected.count) unexpected outcomes, first: \(seen.unexpected.prefix(3))")
        #expect(seen.values + seen.cancellations + seen.refused == Self.calls)
        #expect(seen.values > 0 && seen.cancellations > Self.calls / 4 && seen.refused > 0)
        print("cancellation stress: \(Self.calls) calls: \(seen.values) values, \(seen.cancellations) CancellationError, \(seen.refused) refused, 0 hangs")

        // What may stay open is the session's pool of idle connections (at most this many to
        // one host); a cancelled call that left its connection open would add to it.
        let pool = session.configuration.httpMaximumConnectionsPerHost
        let connections = try await server.connections(openAtMost: pool)
        #expect(connections.open <= pool, "\(connections.open) of \(connections.accepted) connections are still open; the pool keeps \(pool)")
        print("cancellation stress: the server accepted \(connections.accepted) connections; \(connections.open) idle in the pool (at most \(pool)), the rest closed")
        session.finishTasksAndInvalidate()
    }

    @Test("event streams cancelled before, during and after their head")
    func eventStreams() async throws {
        let server = try await FixtureServer.start()
        defer { server.stop() }
        let chunks = (1...50).map { "id: \($0)\ndata: \($0)\n\n" }
        try await server.setStreamRoute("/v1/feed", headers: ["Content-Type": "text/event-stream"], chunks: chunks, hold: true)
        let session = URLSession(configuration: .ephemeral)
        let client = CachedClient(
            baseURL: server.baseURL.appending(path: "v1"), transport: URLSessionTransport(session: session, timeout: 20),
            retry: .none)
        let endpoint = Endpoint(name: "Feed.events", cache: nil, format: .events)

        var random = SplitMix64(seed: 3_600)
        let plan = (0..<Self.streams).map { _ in (beforeStart: random.next(below: 6) == 0, delay: random.next(below: 80_000)) }
        let tally = Locked(Tally())
        let progress = Locked(0)
        let run = Task {
            for start in stride(from: 0, to: plan.count, by: Self.batch) {
                let batch = plan[start..<min(start + Self.batch, plan.count)]
                let tasks = batch.map { _ in
                    Task {
                        var count = 0
                        for try await _ in client.eventStream(for: EndpointRequest(method: "GET", path: "/feed"), endpoint: endpoint, as: Int.self) {
                            count += 1
                        }
                        return count
                    }
                }
                let cancellations = zip(batch, tasks).compactMap { stream, task -> (delay: Int, task: Task<Int, any Error>)? in
                    if stream.beforeStart { task.cancel(); return nil }
                    return (stream.delay, task)
                }
                Self.cancelOnThread(cancellations)
                for task in tasks {
                    // A held stream never ends by itself: it ends by its cancellation, with the
                    // events read so far or with CancellationError.
                    switch await task.result {
                    case .success: tally.withLock { $0.values += 1 }
                    case .failure(let error) where error is CancellationError: tally.withLock { $0.cancellations += 1 }
                    case .failure(let error): tally.withLock { $0.unexpected.append("\(error)") }
                    }
                    progress.withLock { $0 += 1 }
                }
            }
        }
        guard await Self.finishes(run, progress: progress) else { return }

        let seen = tally.withLock { $0 }
        #expect(seen.unexpected.isEmpty, "\(seen.unexpected.count) unexpected outcomes, first: \(seen.unexpected.prefix(3))")
        let served = try await server.requests().filter { $0.path == "/v1/feed" }.count
        let closed = try await server.closedConnections(path: "/v1/feed", atLeast: served)
        #expect(closed == served, "the server served \(served) streams and saw \(closed) closed")
        print("cancellation stress: \(Self.streams) event streams: \(served) reached the server, \(closed) closed by the client, 0 hangs")
        session.finishTasksAndInvalidate()
    }

    // MARK: - Helpers

    /// Counts one caller's outcome: a value, a cancellation (only if it was cancelled), the
    /// refused connection's error (only to the closed port, and only if not cancelled).
    static func count(_ result: Result<CachedValue<Account>, any Error>, toClosedPort: Bool, cancelled: Bool, in tally: inout Tally) {
        switch result {
        case .success(let value) where value.value == Fixtures.alice && !toClosedPort:
            tally.values += 1
        case .failure(let error) where error is CancellationError && cancelled:
            tally.cancellations += 1
        case .failure(let error as URLError) where toClosedPort && error.code == .cannotConnectToHost:
            tally.refused += 1
        case .success(let value):
            tally.unexpected.append("a value \(value) (to the closed port: \(toClosedPort))")
        case .failure(let error):
            tally.unexpected.append("\(error) (cancelled: \(cancelled), to the closed port: \(toClosedPort))")
        }
    }

    /// Cancels each task after its delay (microseconds from now), from a thread of its own, as
    /// an app's code does from wherever it runs.
    static func cancelOnThread<T: Sendable>(_ cancellations: [(delay: Int, task: Task<T, any Error>)]) {
        let ordered = cancellations.sorted { $0.delay < $1.delay }
        Thread {
            let start = DispatchTime.now().uptimeNanoseconds
            for (delay, task) in ordered {
                let due = start + UInt64(delay) * 1_000
                let now = DispatchTime.now().uptimeNanoseconds
                if due > now { usleep(UInt32((due - now) / 1_000)) }
                task.cancel()
            }
        }.start()
    }

    /// Whether `run` finishes; a thread watches its progress and, when no call has ended for
    /// a minute, records a hang with every thread's stack.
    static func finishes(_ run: Task<Void, Never>, progress: Locked<Int>) async -> Bool {
        let ended = DispatchSemaphore(value: 0)
        Task.detached {
            await run.value
            ended.signal()
        }
        let finished = await withCheckedContinuation { continuation in
            Thread {
                var last = -1
                while ended.wait(timeout: .now() + 60) == .timedOut {
                    let now = progress.withLock { $0 }
                    if now == last {
                        continuation.resume(returning: false)
                        return
                    }
                    last = now
                }
                continuation.resume(returning: true)
            }.start()
        }
        if !finished {
            Issue.record("hung: no call ended for a minute after \(progress.withLock { $0 })\n\(ThreadStacks.ofThisProcess())")
        }
        return finished
    }

    /// A port on 127.0.0.1 where nothing listens: bound, then closed.
    static func closedPort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
