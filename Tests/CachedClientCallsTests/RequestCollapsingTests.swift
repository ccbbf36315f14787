import CachedClientTestSupport
import Foundation
import StoreTestSupport
import Testing

@_spi(Generated) import CachedClientCalls
import CachedClientFileStore
import CachedClientHTTP
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// Collapsing across processes through a `CacheStoreLeasing` store: clients on one
/// `LeasingTestStore` stand in for processes. Waiting goes through a sleeper the test
/// controls, which moves the shared clock; nothing here sleeps.
@Suite("Request collapsing across processes", .timeLimit(.minutes(1)))
struct RequestCollapsingTests {
    /// Processes sharing one leasing store and one clock.
    struct Fleet {
        let clock = TestClock()
        let store: LeasingTestStore

        init() {
            store = LeasingTestStore(now: clock.function)
        }

        var key: CacheKey {
            CacheKey(endpoint: Fixtures.endpoint(), request: Fixtures.request(), baseURL: Fixtures.baseURL, bodyDigest: nil, partition: "user-1")
        }

        func process(
            _ transport: StubTransport, events: EventLog = EventLog(), collapsing: RequestCollapsing = RequestCollapsing()
        ) -> CachedClient {
            CachedClient(
                baseURL: Fixtures.baseURL, store: store, transport: transport, partition: "user-1", now: clock.function,
                events: events.record, collapsing: collapsing)
        }

        func call(_ client: CachedClient, policy: CachePolicy = .networkFirst) -> Task<CachedValue<Account>, any Error> {
            Task { try await client.value(for: Fixtures.request(), endpoint: Fixtures.endpoint(), policy: policy) }
        }

        /// Waits until the holder's claim is released, if a claim was granted at all (a client
        /// that never claims fails the test's expectations instead of hanging it).
        func holderReleased() async {
            if store.grantedCount > 0 { await store.waitForReleases(1) }
        }
    }

    /// The waiting of one process: each sleep is counted, optionally held at a gate, and
    /// moves the fleet's clock by the time asked.
    final class Sleeper: Sendable {
        let clock: TestClock
        let gate: Gate?
        let slept = Signal()
        private let count = Locked(0)

        init(clock: TestClock, gate: Gate? = nil) {
            self.clock = clock
            self.gate = gate
        }

        var sleeps: Int { count.withLock { $0 } }

        /// Returns once `call` waits here, or has ended without waiting (then the test's
        /// expectations fail instead of the test hanging).
        func waitUntilWaiting(_ call: Task<CachedValue<Account>, any Error>) async {
            Task {
                _ = try? await call.value
                self.slept.fire()
            }
            await slept.wait()
        }

        var sleep: @Sendable (TimeInterval) async throws -> Void {
            { seconds in
                self.count.withLock { $0 += 1 }
                self.slept.fire()
                try await self.gate?.pass()
                self.clock.advance(by: seconds)
            }
        }
    }

    static let neverWaits = RequestCollapsing(sleep: { _ in Issue.record("a holder waited") })

    @Test func aWaiterTakesTheHoldersStoredAnswerAndSendsNothing() async throws {
        let fleet = Fleet()
        let holderGate = Gate()
        let holderTransport = StubTransport(json: Fixtures.alice)
        holderTransport.hold(at: holderGate, thenAnswer: Fixtures.aliceLater)
        let holder = fleet.process(holderTransport, collapsing: Self.neverWaits)
        let sleeper = Sleeper(clock: fleet.clock, gate: Gate())
        let waiterTransport = StubTransport(json: Fixtures.alice)
        let events = EventLog()
        let waiter = fleet.process(
            waiterTransport, events: events, collapsing: RequestCollapsing(maxWait: 10, pollInterval: 0.5, sleep: sleeper.sleep))

        let first = fleet.call(holder)
        await holderTransport.called.wait()  // the holder has the claim and is fetching
        let second = fleet.call(waiter)
        await sleeper.waitUntilWaiting(second)  // the waiter found the key claimed
        holderGate.open()
        #expect(try await first.value == .fresh(value: Fixtures.aliceLater))
        await fleet.holderReleased()
        sleeper.gate?.open()

        #expect(try await second.value == .fresh(value: Fixtures.aliceLater))
        #expect(waiterTransport.requestCount == 0)
        #expect(holderTransport.requestCount == 1)
        #expect(fleet.store.grantedCount == 1)
        #expect(fleet.store.releasedWithEntry == [true])  // released once the answer was stored
        #expect(events.kinds == [.collapsed])
        #expect(sleeper.sleeps == 1)
        // The waiter holds the value now: the next call needs neither the store's claim nor the network.
        #expect(try await waiter.value(for: Fixtures.request(), endpoint: Fixtures.endpoint(), policy: .cacheFirst) == .cached(value: Fixtures.aliceLater, date: fleet.clock.now.addingTimeInterval(-0.5)))
    }

    /// A server process flushes before it shuts its store down; a claim still held then would
    /// make every other process wait it out (seen on CI: the release ran after the shutdown).
    @Test func flushWaitsUntilTheHoldersClaimIsReleased() async throws {
        let fleet = Fleet()
        let holder = fleet.process(StubTransport(json: Fixtures.alice), collapsing: Self.neverWaits)
        #expect(try await fleet.call(holder).value == .fresh(value: Fixtures.alice))
        await holder.flush()
        #expect(fleet.store.releaseCount == 1)
        #expect(!fleet.store.isClaimed(fleet.key))
        #expect(fleet.store.releasedWithEntry == [true])
    }

    @Test func aClaimLeftByADeadHolderExpiresAndTheWaiterFetches() async throws {
        let fleet = Fleet()
        _ = try await fleet.store.claim(fleet.key, for: 30)  // a process that was killed holding the key
        let sleeper = Sleeper(clock: fleet.clock)
        let transport = StubTransport(json: Fixtures.alice)
        let events = EventLog()
        let waiter = fleet.process(
            transport, events: events, collapsing: RequestCollapsing(leaseDuration: 30, maxWait: 60, pollInterval: 1, sleep: sleeper.sleep))

        #expect(try await fleet.call(waiter).value == .fresh(value: Fixtures.alice))
        #expect(sleeper.sleeps == 30)  // until the dead holder's 30 s were over
        #expect(transport.requestCount == 1)
        #expect(!events.kinds.contains(.collapseTimeout))
        #expect(fleet.store.grantedCount == 2)
        if fleet.store.grantedCount > 1 { await fleet.store.waitForReleases(1) }
        #expect(!fleet.store.isClaimed(fleet.key))
    }

    @Test func aSlowHolderNeverTurnsIntoAFailure() async throws {
        let fleet = Fleet()
        let holderGate = Gate()
        let holderTransport = StubTransport(json: Fixtures.alice)
        holderTransport.hold(at: holderGate, thenAnswer: Fixtures.aliceLater)
        let holder = fleet.process(holderTransport, collapsing: Self.neverWaits)
        let sleeper = Sleeper(clock: fleet.clock)
        let waiterTransport = StubTransport(json: Fixtures.alice)
        let events = EventLog()
        let waiter = fleet.process(
            waiterTransport, events: events, collapsing: RequestCollapsing(maxWait: 5, pollInterval: 1, sleep: sleeper.sleep))

        let first = fleet.call(holder)
        await holderTransport.called.wait()
        #expect(try await fleet.call(waiter).value == .fresh(value: Fixtures.alice))
        #expect(sleeper.sleeps == 5)
        #expect(waiterTransport.requestCount == 1)
        #expect(events.all.contains(CacheEvent(
            kind: .collapseTimeout, endpoint: Fixtures.endpoint().name, key: fleet.key.description,
            message: "waited 5s for another process's request")))

        holderGate.open()
        _ = try await first.value
    }

    @Test func aHolderWhoseFetchFailedLetsAWaiterFetch() async throws {
        let fleet = Fleet()
        let holderGate = Gate()
        let holderTransport = StubTransport { _ in
            try await holderGate.pass()
            throw URLError(.timedOut)
        }
        let holder = fleet.process(holderTransport, collapsing: Self.neverWaits)
        let sleeper = Sleeper(clock: fleet.clock, gate: Gate())
        let waiterTransport = StubTransport(json: Fixtures.alice)
        let events = EventLog()
        let waiter = fleet.process(waiterTransport, events: events, collapsing: RequestCollapsing(pollInterval: 1, sleep: sleeper.sleep))

        let first = fleet.call(holder)
        await holderTransport.called.wait()
        let second = fleet.call(waiter)
        await sleeper.waitUntilWaiting(second)
        holderGate.open()
        await #expect(throws: URLError.self) { try await first.value }
        await fleet.holderReleased()
        #expect(fleet.store.releasedWithEntry == [false])
        sleeper.gate?.open()

        #expect(try await second.value == .fresh(value: Fixtures.alice))
        #expect(waiterTransport.requestCount == 1)
        #expect(fleet.store.grantedCount == 2)
        #expect(!events.kinds.contains(.collapsed))
    }

    @Test(arguments: [true, false])
    func aRemovalWhileWaitingMakesTheWaiterFetchItselfWhenItCoversTheKey(_ covers: Bool) async throws {
        let fleet = Fleet()
        let holderGate = Gate()
        let holderTransport = StubTransport(json: Fixtures.alice)
        holderTransport.hold(at: holderGate, thenAnswer: Fixtures.aliceLater)
        let holder = fleet.process(holderTransport, collapsing: Self.neverWaits)
        let sleeper = Sleeper(clock: fleet.clock, gate: Gate())
        let waiterTransport = StubTransport(json: Fixtures.alice)
        let events = EventLog()
        let waiter = fleet.process(waiterTransport, events: events, collapsing: RequestCollapsing(sleep: sleeper.sleep))

        let first = fleet.call(holder)
        await holderTransport.called.wait()
        let second = fleet.call(waiter)
        await sleeper.waitUntilWaiting(second)
        holderGate.open()
        _ = try await first.value
        await fleet.holderReleased()
        // A removal elsewhere while the waiter waits: what the holder stored may predate it,
        // when the removal covers the key; one of another endpoint changes nothing.
        try await fleet.store.removeAll(endpoint: covers ? Fixtures.endpoint().name : "OtherRepository.other")
        sleeper.gate?.open()

        if covers {
            #expect(try await second.value == .fresh(value: Fixtures.alice))
            #expect(waiterTransport.requestCount == 1)
            #expect(!events.kinds.contains(.collapsed))
        } else {
            #expect(try await second.value.value == Fixtures.aliceLater)
            #expect(waiterTransport.requestCount == 0)
            #expect(events.kinds.contains(.collapsed))
        }
    }

    @Test func aClaimThatFailsIsReportedAndTheCallIsServed() async throws {
        let fleet = Fleet()
        fleet.store.setFailClaims(true)
        let transport = StubTransport(json: Fixtures.alice)
        let events = EventLog()
        let client = fleet.process(transport, events: events, collapsing: Self.neverWaits)

        #expect(try await fleet.call(client).value == .fresh(value: Fixtures.alice))
        #expect(transport.requestCount == 1)
        let error = try #require(events.all.first { $0.kind == .error })
        #expect(error.message?.hasPrefix("claim failed: ") == true)
    }

    @Test func oneProcessClaimsAKeyOnceForAllItsCallers() async throws {
        let fleet = Fleet()
        let gate = Gate()
        let transport = StubTransport(json: Fixtures.alice)
        transport.hold(at: gate, thenAnswer: Fixtures.aliceLater)
        let client = fleet.process(transport, collapsing: Self.neverWaits)

        let calls = (0..<20).map { _ in fleet.call(client) }
        await transport.called.wait()
        while client.waitingCallerCount < 20 { await Task.yield() }
        gate.open()
        for call in calls { #expect(try await call.value == .fresh(value: Fixtures.aliceLater)) }
        #expect(fleet.store.claimCount == 1)
        #expect(transport.requestCount == 1)
    }

    @Test func manyProcessesAtOnceSendOneRequest() async throws {
        let fleet = Fleet()
        let gate = Gate()
        let transport = StubTransport(json: Fixtures.alice)
        transport.hold(at: gate, thenAnswer: Fixtures.aliceLater)
        // Waiting yields rather than moving the clock, so no process gives up.
        let collapsing = RequestCollapsing(pollInterval: 0.01, sleep: { _ in await Task.yield() })
        let processes = (0..<8).map { _ in fleet.process(transport, collapsing: collapsing) }

        let calls = processes.map { fleet.call($0) }
        // Every process has tried the claim (or, if they do not claim, sent its own request).
        while fleet.store.claimCount < 8, transport.requestCount < 2 { await Task.yield() }
        gate.open()
        for call in calls { #expect(try await call.value == .fresh(value: Fixtures.aliceLater)) }
        #expect(transport.requestCount == 1)
        #expect(fleet.store.grantedCount == 1)
    }

    @Test func collapsingOffNeverClaims() async throws {
        let fleet = Fleet()
        let transport = StubTransport(json: Fixtures.alice)
        let client = fleet.process(transport, collapsing: .disabled)
        #expect(try await fleet.call(client).value == .fresh(value: Fixtures.alice))
        #expect(fleet.store.claimCount == 0)
    }
}
