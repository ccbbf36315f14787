import CachedClientTestSupport
import Foundation
import Testing

@_spi(Generated) import CachedClientCalls
import CachedClientFileStore
import CachedClientHTTP
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Merged in-flight requests and cancellation, over a stub transport held at a gate so
/// that calls overlap for certain; no sleeps.
@Suite("CachedClient merged requests")
struct CachedClientConcurrencyTests {
    /// Waits until `count` callers are waiting for a merged fetch.
    private func waitForCallers(_ client: CachedClient, count: Int) async {
        while client.waitingCallerCount < count { await Task.yield() }
    }

    @Test func concurrentIdenticalCallsShareOneRequest() async throws {
        let harness = Harness()
        let gate = Gate()
        harness.transport.hold(at: gate, thenAnswer: Fixtures.alice)

        try await withThrowingTaskGroup(of: CachedValue<Account>.self) { group in
            for index in 0..<100 {
                let policy: CachePolicy = index.isMultiple(of: 2) ? .networkFirst : .networkOnly
                group.addTask { try await harness.value(policy: policy) }
            }
            await waitForCallers(harness.client, count: 100)
            gate.open()
            for try await value in group { #expect(value == .fresh(value: Fixtures.alice)) }
        }

        #expect(harness.transport.requestCount == 1)
        #expect(harness.events.kinds == [.store])
    }

    @Test func differentKeysAreNotMerged() async throws {
        let harness = Harness()
        async let first: CachedValue<Account> = harness.client.value(for: Fixtures.request(id: "1"), endpoint: Fixtures.endpoint())
        async let second: CachedValue<Account> = harness.client.value(for: Fixtures.request(id: "2"), endpoint: Fixtures.endpoint())
        _ = try await (first, second)

        #expect(harness.transport.requestCount == 2)
    }

    @Test func oneCancelledCallerDoesNotCancelTheOthers() async throws {
        let harness = Harness()
        let gate = Gate()
        harness.transport.hold(at: gate, thenAnswer: Fixtures.alice)

        let cancelled = Task { try await harness.value() }
        let kept = Task { try await harness.value() }
        await waitForCallers(harness.client, count: 2)

        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(harness.client.waitingCallerCount == 1)

        gate.open()
        #expect(try await kept.value == .fresh(value: Fixtures.alice))
        #expect(harness.transport.requestCount == 1)
        #expect(!harness.transport.sawCancellation.hasFired)
    }

    @Test func whenEveryCallerIsCancelledTheRequestIsCancelled() async throws {
        let harness = Harness()
        let gate = Gate()
        harness.transport.hold(at: gate, thenAnswer: Fixtures.alice)

        let call = Task { try await harness.value() }
        await harness.transport.called.wait()
        call.cancel()

        await #expect(throws: CancellationError.self) { try await call.value }
        await harness.transport.sawCancellation.wait()
        #expect(harness.client.waitingCallerCount == 0)

        // A later call starts a new request instead of joining the cancelled one.
        harness.transport.respond(status: 200, body: Fixtures.body(Fixtures.aliceLater))
        #expect(try await harness.value() == .fresh(value: Fixtures.aliceLater))
        #expect(harness.transport.requestCount == 2)
    }

    @Test func aCallerCancelledBeforeItStartsThrowsAtOnce() async throws {
        let harness = Harness()
        let gate = Gate()
        harness.transport.hold(at: gate, thenAnswer: Fixtures.alice)

        let call = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await harness.value()
        }

        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(harness.client.waitingCallerCount == 0)
        gate.open()
    }

    @Test func mergedCallersAllFallBackWhenTheSharedRequestFails() async throws {
        let harness = Harness()
        try await harness.seed(age: 100)
        let gate = Gate()
        harness.transport.respond { _ in
            try await gate.pass()
            throw URLError(.networkConnectionLost)
        }

        try await withThrowingTaskGroup(of: CachedValue<Account>.self) { group in
            for _ in 0..<10 { group.addTask { try await harness.value() } }
            await waitForCallers(harness.client, count: 10)
            gate.open()
            for try await value in group { #expect(value == .cached(value: Fixtures.alice, date: Fixtures.start.addingTimeInterval(-100))) }
        }
        #expect(harness.transport.requestCount == 1)
    }
}

/// The stream variant: cached first, then fresh, and what happens when the network fails.
@Suite("CachedClient updates stream")
struct CachedClientStreamTests {
    private func collect(_ harness: Harness) async throws -> [CachedValue<Account>] {
        var values: [CachedValue<Account>] = []
        for try await value in harness.client.updates(for: Fixtures.request(), endpoint: Fixtures.endpoint(), as: Account.self) {
            values.append(value)
        }
        await harness.client.flush()  // the `.store` event comes when the entry has landed
        return values
    }

    @Test func withNothingStoredOnlyTheFreshValueComes() async throws {
        let harness = Harness()
        #expect(try await collect(harness) == [.fresh(value: Fixtures.alice)])
        #expect(harness.events.kinds == [.miss, .store])
    }

    @Test func theCachedValueComesFirstThenTheFreshOne() async throws {
        let harness = Harness(transport: StubTransport(json: Fixtures.aliceLater))
        try await harness.seed(age: 120)

        #expect(
            try await collect(harness) == [
                .cached(value: Fixtures.alice, date: Fixtures.start.addingTimeInterval(-120)),
                .fresh(value: Fixtures.aliceLater),
            ])
        #expect(harness.events.kinds == [.stale, .store])
    }

    @Test func anEntryPastMaxStaleIsNotYielded() async throws {
        let harness = Harness(transport: StubTransport(json: Fixtures.aliceLater))
        try await harness.seed(age: Fixtures.maxStale)

        #expect(try await collect(harness) == [.fresh(value: Fixtures.aliceLater)])
    }

    @Test(arguments: [0, 503])
    func aTransportFailureOr5xxAfterTheCachedValueFinishesNormally(status: Int) async throws {
        let harness = Harness()
        try await harness.seed(age: 30)
        if status == 0 { harness.transport.fail() } else { harness.transport.respond(status: status) }

        #expect(try await collect(harness) == [.cached(value: Fixtures.alice, date: Fixtures.start.addingTimeInterval(-30))])
        #expect(harness.events.kinds == [.hit, .fallback])
    }

    @Test func a4xxAfterTheCachedValueThrows() async throws {
        let harness = Harness()
        try await harness.seed(age: 30)
        harness.transport.respond(status: 404)

        var values: [CachedValue<Account>] = []
        await #expect(throws: CachedClientError.httpStatus(404, endpoint: "AccountRepository.getAccount", body: Data())) {
            for try await value in harness.client.updates(for: Fixtures.request(), endpoint: Fixtures.endpoint(), as: Account.self) {
                values.append(value)
            }
        }
        #expect(values.count == 1)
    }

    @Test func anUndecodableAnswerAfterTheCachedValueThrows() async throws {
        let harness = Harness()
        try await harness.seed(age: 30)
        harness.transport.respond(status: 200, body: Data("[]".utf8))

        await #expect(throws: CachedClientError.self) { _ = try await collect(harness) }
    }

    @Test func aFailureWithNothingCachedThrows() async throws {
        let harness = Harness()
        harness.transport.fail()

        await #expect(throws: URLError(.notConnectedToInternet)) { _ = try await collect(harness) }
    }

    @Test func stoppingTheIterationCancelsTheRequest() async throws {
        let harness = Harness()
        try await harness.seed(age: 30)
        let gate = Gate()
        harness.transport.hold(at: gate, thenAnswer: Fixtures.aliceLater)

        for try await value in harness.client.updates(for: Fixtures.request(), endpoint: Fixtures.endpoint(), as: Account.self) {
            #expect(value.isCached)
            await harness.transport.called.wait()
            break
        }

        await harness.transport.sawCancellation.wait()
        #expect(harness.client.waitingCallerCount == 0)
    }
}
