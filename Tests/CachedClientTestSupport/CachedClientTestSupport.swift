import FixtureServerSupport
import Foundation
import StoreTestSupport
import Testing

@_spi(Generated) @testable import CachedClientRuntime
@_spi(RuntimeLayers) import CachedClientValues

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Test doubles for CachedClient: a scripted transport, a clock that only moves when told,
// stores that fail on demand, and an event log. Nothing here sleeps.

/// A response model like the generated ones.
package struct Account: Codable, Sendable, Equatable {
    package var id: String
    package var balance: Double

    package init(id: String, balance: Double) {
        self.id = id
        self.balance = balance
    }
}

/// A model that cannot decode an `Account` body, standing in for a changed model.
package struct Renamed: Codable, Sendable, Equatable {
    package var identifier: String

    package init(identifier: String) { self.identifier = identifier }
}

package enum Fixtures {
    package static let baseURL = URL(string: "https://api.example.com/v1")!
    package static let start = Date(timeIntervalSince1970: 1_700_000_000)
    package static let ttl: Double = 60
    package static let maxStale: Double = 3_600

    package static func endpoint(
        _ name: String = "AccountRepository.getAccount",
        policy: CachePolicy = .networkFirst, scope: CacheScope = .user,
        ttl: Double = Fixtures.ttl, maxStale: Double = Fixtures.maxStale
    ) -> Endpoint {
        Endpoint(name: name, cache: CacheRule(ttl: ttl, maxStale: maxStale, policy: policy, scope: scope), shape: "Account{id:string,balance:double}")
    }

    package static let uncached = Endpoint(name: "TransferRepository.createTransfer", cache: nil)

    /// `GET /accounts` with `page` in the key and `trace` not.
    package static func page(_ number: Int, trace: String) -> EndpointRequest {
        var request = EndpointRequest(method: "GET", path: "/accounts")
        request.addQuery("page", number, isKey: true)
        request.addQuery("trace", trace, isKey: false)
        return request
    }

    package static func request(id: String = "1") -> EndpointRequest {
        var request = EndpointRequest(method: "GET", path: "/accounts/{id}")
        request.setPathParameter("id", id)
        return request
    }

    /// Sorted keys: JSONEncoder's key order is not stable between calls on Linux.
    package static func body(_ account: Account) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try! encoder.encode(account)
    }

    package static let alice = Account(id: "1", balance: 10)
    package static let aliceLater = Account(id: "1", balance: 25)
}

/// A clock that moves only when a test advances it.
package final class TestClock: Sendable {
    private let date = Locked(Fixtures.start)

    package init() {}

    package var now: Date { date.withLock { $0 } }

    package func advance(by seconds: Double) {
        date.withLock { $0 += seconds }
    }

    package var function: @Sendable () -> Date { { self.now } }
}

/// A one-shot signal a test can await, so that "the transport was called" needs no sleep.
package final class Signal: Sendable {
    package init() {}

    private let state = Locked<(fired: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    package func fire() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.fired else { return [] }
            state.fired = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    package var hasFired: Bool { state.withLock { $0.fired } }

    package func wait() async {
        await withCheckedContinuation { continuation in
            let fired = state.withLock { state -> Bool in
                if !state.fired { state.waiters.append(continuation) }
                return state.fired
            }
            if fired { continuation.resume() }
        }
    }
}

/// Holds requests until opened; cancellation-aware, like a real network call.
package final class Gate: Sendable {
    package init() {}

    private let state = Locked<(isOpen: Bool, waiters: [UUID: CheckedContinuation<Void, any Error>], cancelled: Set<UUID>)>(
        (false, [:], []))

    package func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.isOpen = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns when opened; throws `CancellationError` as soon as the task is cancelled.
    package func pass() async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ready = state.withLock { state -> Result<Void, any Error>? in
                    if state.isOpen { return .success(()) }
                    if state.cancelled.contains(id) { return .failure(CancellationError()) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
                state.cancelled.insert(id)
                return nil
            }
            waiter?.resume(throwing: CancellationError())
        }
    }
}

/// A transport whose answers a test scripts, recording every request.
package final class StubTransport: HTTPTransport {
    package typealias Responder = @Sendable (HTTPRequest) async throws -> HTTPResponse

    private let state: Locked<(responder: Responder, requests: [HTTPRequest])>
    /// Fires on the first request, so a test can wait for a call to be under way.
    package let called = Signal()
    /// Fires when a request was cancelled while held at a gate.
    package let sawCancellation = Signal()

    package init(_ responder: @escaping Responder) {
        state = Locked((responder, []))
    }

    package convenience init(status: Int = 200, json account: Account, headers: [String: String] = [:]) {
        self.init { _ in HTTPResponse(statusCode: status, headers: headers, body: Fixtures.body(account)) }
    }

    /// Answers every later request with this status and body.
    package func respond(status: Int, body: Data = Data(), headers: [String: String] = [:]) {
        respond { _ in HTTPResponse(statusCode: status, headers: headers, body: body) }
    }

    package func respond(_ responder: @escaping Responder) {
        state.withLock { $0.responder = responder }
    }

    /// Fails every later request as if the network were gone.
    package func fail(with error: any Error = URLError(.notConnectedToInternet)) {
        respond { _ in throw error }
    }

    /// Holds every later request at `gate`, then answers with `account`.
    package func hold(at gate: Gate, thenAnswer account: Account) {
        respond { _ in
            do {
                try await gate.pass()
            } catch {
                self.sawCancellation.fire()
                throw error
            }
            return HTTPResponse(statusCode: 200, body: Fixtures.body(account))
        }
    }

    package var requests: [HTTPRequest] { state.withLock { $0.requests } }
    package var requestCount: Int { state.withLock { $0.requests.count } }

    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let responder = state.withLock { state -> Responder in
            state.requests.append(request)
            return state.responder
        }
        called.fire()
        return try await responder(request)
    }
}

package struct StoreFailure: Error {
    package init() {}
}


/// A store that can fail on read or write, and counts what it is asked, wrapping a
/// `MemoryCacheStore`.
package final class FlakyStore: CacheStore {
    private let inner: any CacheStore
    package var removalCount: UInt64 { inner.removalCount }
    package func removals(since count: UInt64) -> [RemovalScope]? { inner.removals(since: count) }
    private let state = Locked((failReads: false, failWrites: false, failRemovals: false, reads: 0, writes: 0, removes: 0))

    package init(failReads: Bool = false, failWrites: Bool = false, failRemovals: Bool = false, wrapping inner: any CacheStore = MemoryCacheStore()) {
        self.inner = inner
        state.withLock {
            $0.failReads = failReads
            $0.failWrites = failWrites
            $0.failRemovals = failRemovals
        }
    }

    /// Makes later reads fail, or work again.
    package func setFailReads(_ fail: Bool) { state.withLock { $0.failReads = fail } }
    /// Makes later writes fail, or work again.
    package func setFailWrites(_ fail: Bool) { state.withLock { $0.failWrites = fail } }

    package var reads: Int { state.withLock { $0.reads } }
    package var writes: Int { state.withLock { $0.writes } }
    package var operations: Int { state.withLock { $0.reads + $0.writes + $0.removes } }

    package func entry(for key: CacheKey) async throws -> CacheEntry? {
        let fail = state.withLock { state -> Bool in
            state.reads += 1
            return state.failReads
        }
        if fail { throw StoreFailure() }
        return try await inner.entry(for: key)
    }

    package func setEntry(_ entry: CacheEntry, for key: CacheKey) async throws {
        let fail = state.withLock { state -> Bool in
            state.writes += 1
            return state.failWrites
        }
        if fail { throw StoreFailure() }
        try await inner.setEntry(entry, for: key)
    }

    package func removeEntry(for key: CacheKey) async throws {
        state.withLock { $0.removes += 1 }
        try await inner.removeEntry(for: key)
    }

    /// Counts the removal and throws when removals are set to fail.
    private func removal() throws {
        let fail = state.withLock { state -> Bool in
            state.removes += 1
            return state.failRemovals
        }
        if fail { throw StoreFailure() }
    }

    package func removeAll() async throws {
        try removal()
        try await inner.removeAll()
    }
    package func removeAll(partition: String) async throws {
        try removal()
        try await inner.removeAll(partition: partition)
    }
    package func removeAll(endpoint: String) async throws {
        try removal()
        try await inner.removeAll(endpoint: endpoint)
    }
    package func removeAll(endpoint: String, path: String) async throws {
        try removal()
        try await inner.removeAll(endpoint: endpoint, path: path)
    }
    package func totalSize() async throws -> Int { try await inner.totalSize() }
    package func entryCount() async throws -> Int { try await inner.entryCount() }
}

/// A client over test doubles, with everything a policy test looks at.
package struct Harness {
    package let transport: StubTransport
    package let store: any CacheStore
    package let clock: TestClock
    package let events = EventLog()
    package let client: CachedClient

    package init(
        transport: StubTransport = StubTransport(json: Fixtures.alice, headers: [:]),
        store: any CacheStore = MemoryCacheStore(),
        partition: String? = "user-1",
        headers: @escaping @Sendable () async throws -> [String: String] = { [:] },
        memoryCacheLimit: Int = 100,
        middleware: [any ClientMiddleware] = [],
        retry: RetryPolicy = .none,  // policy tests look at one attempt; retry tests pass their own
        clock: TestClock = TestClock()
    ) {
        self.clock = clock
        self.transport = transport
        self.store = store
        client = CachedClient(
            baseURL: Fixtures.baseURL, store: store, transport: transport, partition: partition,
            headers: headers, middleware: middleware, retry: retry, now: clock.function, events: events.record,
            memoryCacheLimit: memoryCacheLimit)
    }

    package func key(_ endpoint: Endpoint = Fixtures.endpoint(), _ request: EndpointRequest = Fixtures.request()) -> CacheKey {
        CacheKey(endpoint: endpoint, request: request, baseURL: Fixtures.baseURL, bodyDigest: nil, partition: client.partition)
    }

    /// Puts an entry of the given age in the store. It writes behind the client's back, as
    /// no app does, so it first lets the client's own writes land (or one could land on top
    /// of it) and then drops the client's in-memory copy of the key.
    package func seed(_ account: Account = Fixtures.alice, age: Double, etag: String? = nil, endpoint: Endpoint = Fixtures.endpoint()) async throws {
        await client.flush()
        let entry = CacheEntry(body: Fixtures.body(account), date: clock.now.addingTimeInterval(-age), etag: etag)
        try await store.setEntry(entry, for: key(endpoint))
        client.memory.remove(key(endpoint))
    }

    /// What the store holds for the key once the client's writes have landed.
    package func storedEntry(_ endpoint: Endpoint = Fixtures.endpoint()) async throws -> CacheEntry? {
        await client.flush()
        return try await store.entry(for: key(endpoint))
    }

    /// One call, then (unless `flushing` is `false`) waits for the write it started, so that
    /// the store and the events are settled when the test looks, as they were when calls
    /// waited for their writes. Write-behind itself is tested in
    /// `CachedClientWriteBehindTests`, with `flushing: false` or the client called directly.
    package func value(
        policy: CachePolicy? = nil, endpoint: Endpoint = Fixtures.endpoint(), flushing: Bool = true
    ) async throws -> CachedValue<Account> {
        guard flushing else { return try await client.value(for: Fixtures.request(), endpoint: endpoint, policy: policy) }
        return try await client.settledAccount(endpoint: endpoint, policy: policy)
    }
}

extension CachedClient {
    /// `Fixtures.request(id:)` through the client, then waits for the write it started
    /// (also when the call threw), so the store and the events are settled when a test looks.
    package func settledAccount(
        id: String = "1", endpoint: Endpoint = Fixtures.endpoint(), policy: CachePolicy? = nil
    ) async throws -> CachedValue<Account> {
        do {
            let value: CachedValue<Account> = try await value(for: Fixtures.request(id: id), endpoint: endpoint, policy: policy)
            await flush()
            return value
        } catch {
            await flush()
            throw error
        }
    }
}
