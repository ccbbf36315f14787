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

/// Cancellation at the moments where it races the session: each call stops on the session's
/// own queue (`GatedURLProtocol`) until a thread of the test has cancelled it, so every run
/// hits the window that a random cancellation hits only now and then (issue 36). Hangs are
/// watched from threads, never from tasks.
@Suite("URLSessionTransport: cancellation at every moment never hangs")
struct CancellationWindowTests {
    typealias Moment = GatedURLProtocol.Moment

    /// A thread that cancels the tasks once the call has stopped, then releases the stop.
    final class Canceller: Sendable {
        let returned = DispatchSemaphore(value: 0)

        init<T: Sendable>(_ tasks: [Task<T, any Error>], at stop: GatedURLProtocol.Stop) {
            Thread { [returned] in
                guard stop.arrived.wait(timeout: .now() + 30) == .success else { return }
                for task in tasks { task.cancel() }
                returned.signal()
                stop.release.signal()
            }.start()
        }

        /// Whether every `cancel()` returned (a cancellation handler that blocks never does).
        func didReturn() async -> Bool {
            await signalled(returned, within: 30)
        }
    }

    @Test("send: a call cancelled at each moment throws CancellationError at once", arguments: Moment.allCases)
    func send(at moment: Moment) async throws {
        let transport = URLSessionTransport(session: GatedURLProtocol.session())
        let (url, stop) = GatedURLProtocol.url(stoppingAt: moment)
        let call = Task { try await transport.send(HTTPRequest(method: "GET", url: url)) }
        let canceller = Canceller([call], at: stop)

        let outcome = await watch(call)
        #expect(await canceller.didReturn(), "Task.cancel() did not return: the cancellation handler waits for the session")
        try expectCancelled(outcome, "send at \(moment)")
    }

    @Test("send: a call cancelled before it starts never reaches the session")
    func sendCancelledFirst() async throws {
        let transport = URLSessionTransport(session: GatedURLProtocol.session())
        let (url, stop) = GatedURLProtocol.url(stoppingAt: .beforeHead)
        let call = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transport.send(HTTPRequest(method: "GET", url: url))
        }
        try expectCancelled(await watch(call), "send cancelled first")
        #expect(stop.requests == 0)
    }

    @Test("merged calls: all cancelled at each moment, the last one cancels the shared fetch", arguments: Moment.allCases)
    func mergedAllCancelled(at moment: Moment) async throws {
        let merged = try await Merged(stoppingAt: moment)
        let canceller = Canceller(merged.calls, at: merged.stop)

        for call in merged.calls {
            try expectCancelled(await watch(call), "merged call at \(moment)")
        }
        #expect(await canceller.didReturn(), "Task.cancel() did not return: the cancellation handler waits for the session")
        #expect(merged.stop.requests == 1)
    }

    @Test("merged calls: the one left gets the answer the others left", arguments: Moment.allCases)
    func mergedOneLeft(at moment: Moment) async throws {
        let merged = try await Merged(stoppingAt: moment)
        let canceller = Canceller(Array(merged.calls.dropLast()), at: merged.stop)

        for call in merged.calls.dropLast() {
            try expectCancelled(await watch(call), "merged call at \(moment)")
        }
        #expect(await canceller.didReturn())
        guard case .ended(let result) = await watch(merged.calls[7]) else {
            Issue.record("the caller left waiting hung at \(moment)\n\(ThreadStacks.ofThisProcess())")
            return
        }
        switch (moment, result) {
        case (.beforeFailure, .failure(let error)):
            #expect((error as? URLError)?.code == .networkConnectionLost)
        case (.beforeFailure, .success):
            Issue.record("a connection lost was answered with a value")
        case (_, .success(let value)):
            #expect(value.value == Fixtures.alice)
        case (_, .failure(let error)):
            Issue.record("the caller left waiting failed: \(error)")
        }
        #expect(merged.stop.requests == 1)
    }

    @Test("stream: a call cancelled while waiting for the head throws CancellationError at once")
    func streamHead() async throws {
        let transport = URLSessionTransport(session: GatedURLProtocol.session())
        let (url, stop) = GatedURLProtocol.url(stoppingAt: .beforeHead)
        let call = Task { try await transport.stream(HTTPRequest(method: "GET", url: url)).statusCode }
        let canceller = Canceller([call], at: stop)

        try expectCancelled(await watch(call), "stream head")
        #expect(await canceller.didReturn())
    }

    @Test("stream: a reader cancelled mid-body ends at once", arguments: [Moment.midBody, .beforeEnd, .beforeFailure])
    func streamBody(at moment: Moment) async throws {
        let body = Data(repeating: UInt8(ascii: "x"), count: 64 * 1_024)
        let transport = URLSessionTransport(session: GatedURLProtocol.session())
        let (url, stop) = GatedURLProtocol.url(stoppingAt: moment, body: body, streamed: true)
        let call = Task {
            let response = try await transport.stream(HTTPRequest(method: "GET", url: url))
            var count = 0
            for try await chunk in response.body { count += chunk.count }
            return count
        }
        let canceller = Canceller([call], at: stop)

        guard case .ended(let result) = await watch(call) else {
            Issue.record("the stream's reader hung at \(moment)\n\(ThreadStacks.ofThisProcess())")
            return
        }
        #expect(await canceller.didReturn())
        // What had arrived before the cancellation may still be read (a stream hands over what
        // it holds), never more than the body; an error is the cancellation or, when the body
        // had failed before the reader looked again, that failure.
        switch result {
        case .success(let count):
            #expect(count <= body.count)
        case .failure(let error):
            let failedFirst = moment == .beforeFailure && (error as? URLError)?.code == .networkConnectionLost
            #expect(error is CancellationError || failedFirst, "\(error)")
        }
    }

    @Test("a live query released while its fetch is handled cancels the fetch at once")
    @MainActor
    func liveQueryReleased() async throws {
        let (url, stop) = GatedURLProtocol.url(stoppingAt: .beforeEnd)
        let client = CachedClient(baseURL: url, transport: URLSessionTransport(session: GatedURLProtocol.session()), retry: .none)
        let clock = ManualClock()
        var query: CachedQuery<Account>? = CachedQuery { policy in
            try await client.value(for: Fixtures.request(), endpoint: Fixtures.endpoint(), policy: policy)
        }
        query?.poll(every: .seconds(30), clock: clock)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(30))
        #expect(await signalled(stop.arrived, within: 30), "the poll's fetch never reached the session")

        // The query's deinit cancels its fetch on this (the main) thread while the session's
        // queue is handing that fetch its answer: the moment the old transport deadlocked in.
        query = nil

        #expect(client.waitingCallerCount == 0)
        stop.release.signal()
    }

    /// The control, in a child process: the same stop with `URLSession.data(for:)`, the path
    /// `URLSessionTransport` left, hangs on this toolchain (swift-corelibs-foundation #5412:
    /// its cancellation handler waits for the session's queue, which waits to resume the task
    /// the handler holds), so the stop hits the window; the transport's own call ends there.
    /// When a toolchain has the upstream fix (PR #5417) the control fails, and says so.
    @Test("control, in a child process: URLSession.data(for:) hangs where URLSessionTransport.send ends")
    func controlInChildProcess() async throws {
        let transport = try await ChildProcess.run("CancellationProbe", ["transport"], limit: 60)
        #expect(transport.status == 0 && transport.output == "ended: CancellationError\n", "\(transport)")

        #if canImport(FoundationNetworking)
        let dataFor = try await ChildProcess.run("CancellationProbe", ["data-for"], limit: 60)
        #expect(
            dataFor.status == 3 && dataFor.output == "hung\n",
            "URLSession.data(for:) no longer hangs here (\(dataFor)): the toolchain has swift-corelibs-foundation PR #5417")
        #endif
    }

    // MARK: - Helpers

    /// Eight calls of one key merged into one fetch, which waits in a middleware until all
    /// eight have joined and then stops at `moment` on the session's queue.
    struct Merged {
        let calls: [Task<CachedValue<Account>, any Error>]
        let stop: GatedURLProtocol.Stop

        init(stoppingAt moment: Moment) async throws {
            let (url, stop) = GatedURLProtocol.url(stoppingAt: moment)
            let joined = Gate()
            let client = CachedClient(
                baseURL: url, transport: URLSessionTransport(session: GatedURLProtocol.session()),
                middleware: [WaitAt(gate: joined)], retry: .none)
            let calls = (0..<8).map { _ in
                Task { try await client.value(for: Fixtures.request(), endpoint: Fixtures.endpoint(policy: .networkOnly), as: Account.self) }
            }
            // Joining happens on the concurrency pool, which a held stop may starve (every
            // session's queue is held then): so all join before the request is sent.
            while client.waitingCallerCount < 8 { await Task.yield() }
            joined.open()
            self.calls = calls
            self.stop = stop
        }
    }

    /// A middleware that holds every request until its gate opens.
    struct WaitAt: ClientMiddleware {
        let gate: Gate

        func intercept(
            _ request: HTTPRequest, operation: String, next: @Sendable (HTTPRequest) async throws -> HTTPResponse
        ) async throws -> HTTPResponse {
            try await gate.pass()
            return try await next(request)
        }
    }
}

/// Fails unless `outcome` ended with a cancellation, printing every thread's stack on a hang.
func expectCancelled<T>(_ outcome: Watched<T>, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    switch outcome {
    case .hung:
        Issue.record("\(what) hung\n\(ThreadStacks.ofThisProcess())", sourceLocation: sourceLocation)
    case .ended(.success):
        Issue.record("\(what) returned a value after it was cancelled", sourceLocation: sourceLocation)
    case .ended(.failure(let error)):
        #expect(error is CancellationError, "\(what) threw \(error)", sourceLocation: sourceLocation)
    }
}
