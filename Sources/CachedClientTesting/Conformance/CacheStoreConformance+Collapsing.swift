@_spi(Generated) import CachedClientRuntime
import Foundation

// Two `CachedClient`s on a leasing store, end to end: while one fetches a key, the other
// waits for its stored answer and sends nothing. Real time is used here (polls every 10 ms),
// because the store's claims are what is tested, with whatever clock the store keeps.
extension CacheStoreConformance {
    static let collapsing: [Check] = [
        Check(
            "twoClientsSendOneRequest",
            "While one client fetches a key, a second client on the store asking for it sends no request and gets the first one's answer."
        ) { context in
            let store = try await context.makeLeasingStore()
            let observed = ObservedLeasingStore(store)
            let gate = Latch()
            let holderTransport = StubTransport { _ in
                await gate.wait()
                return .json("{\"id\":\"1\",\"balance\":25}")
            }
            let waiterTransport = StubTransport(response: .json("{\"id\":\"1\",\"balance\":10}"))
            let holder = CachedClient(baseURL: ClientPair.baseURL, store: store, transport: holderTransport, partition: "alice")
            let waiter = CachedClient(
                baseURL: ClientPair.baseURL, store: observed, transport: waiterTransport, partition: "alice",
                collapsing: RequestCollapsing(leaseDuration: 30, maxWait: 20, pollInterval: 0.01))
            func value(_ client: CachedClient) async throws -> CachedValue<Account> {
                try await client.value(for: ClientPair.request, endpoint: ClientPair.endpoint, policy: .networkFirst, as: Account.self)
            }

            let holding = Task { try await value(holder) }
            let waiting = Task {
                // Only once the holder's request is under way, so the holder has the claim.
                while holderTransport.requests.isEmpty { try await Task.sleep(nanoseconds: 1_000_000) }
                return try await value(waiter)
            }
            // The waiter found the key claimed (or, if it never asks, has its answer already).
            await observed.refused.waitOr(finished: waiting)
            gate.open()
            let held = try await holding.value
            let waited = try await waiting.value
            try context.expect(held == .fresh(value: Account(id: "1", balance: 25)), "the holder's call returned \(held)")
            try context.expect(
                observed.refusedCount > 0, "the second client's claim was granted while the first client was fetching the key")
            try context.expect(
                waiterTransport.requests.isEmpty,
                "the second client sent \(waiterTransport.requests.count) request(s) while the first one fetched the same key")
            try context.expect(waited == .fresh(value: Account(id: "1", balance: 25)), "the second client's call returned \(waited)")
        },
    ]

    /// A one-way gate: waiters pass once it is open.
    final class Latch: @unchecked Sendable {
        private let lock = NSLock()
        private var isOpen = false
        private var waiters: [CheckedContinuation<Void, Never>] = []

        func open() {
            let waiting = lock.withLock {
                isOpen = true
                defer { waiters = [] }
                return waiters
            }
            for waiter in waiting { waiter.resume() }
        }

        func wait() async {
            await withCheckedContinuation { continuation in
                let ready = lock.withLock {
                    if !isOpen { waiters.append(continuation) }
                    return isOpen
                }
                if ready { continuation.resume() }
            }
        }

        /// Returns once open, or once `task` has finished, whichever comes first.
        func waitOr<T>(finished task: Task<T, any Error>) async {
            Task {
                _ = try? await task.value
                self.open()
            }
            await wait()
        }
    }

    /// A leasing store that passes everything on and counts the claims it saw refused.
    final class ObservedLeasingStore: CacheStoreLeasing {
        let inner: any CacheStoreLeasing
        /// Opens on the first refused claim.
        let refused = Latch()
        private let refusals = NSLock()
        private nonisolated(unsafe) var refusedClaims = 0

        init(_ inner: any CacheStoreLeasing) { self.inner = inner }

        var refusedCount: Int { refusals.withLock { refusedClaims } }

        func claim(_ key: CacheKey, for duration: TimeInterval) async throws -> CacheLease? {
            let lease = try await inner.claim(key, for: duration)
            if lease == nil {
                refusals.withLock { refusedClaims += 1 }
                refused.open()
            }
            return lease
        }

        func release(_ lease: CacheLease) async throws { try await inner.release(lease) }
        func entry(for key: CacheKey) async throws -> CacheEntry? { try await inner.entry(for: key) }
        func setEntry(_ entry: CacheEntry, for key: CacheKey) async throws { try await inner.setEntry(entry, for: key) }
        func removeEntry(for key: CacheKey) async throws { try await inner.removeEntry(for: key) }
        func removeAll() async throws { try await inner.removeAll() }
        func removeAll(partition: String) async throws { try await inner.removeAll(partition: partition) }
        func removeAll(endpoint: String) async throws { try await inner.removeAll(endpoint: endpoint) }
        func removeAll(endpoint: String, path: String) async throws { try await inner.removeAll(endpoint: endpoint, path: path) }
        func totalSize() async throws -> Int { try await inner.totalSize() }
        func entryCount() async throws -> Int { try await inner.entryCount() }
        var maxAge: TimeInterval? { inner.maxAge }
        var removalCount: UInt64 { inner.removalCount }
        func eventDescription(of error: any Error) -> String? { inner.eventDescription(of: error) }
    }
}
