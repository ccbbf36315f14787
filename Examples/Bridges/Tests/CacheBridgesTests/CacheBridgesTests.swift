import CacheBridges
@_spi(Generated) import CachedClientRuntime
import CachedClientTesting
import Foundation
import InMemoryLogging
import Logging
import Metrics
import MetricsTestKit
import Testing

/// How an app wires both bridges into its client (the article shows this function's body).
func makeClient(baseURL: URL, store: any CacheStore, transport: any HTTPTransport = URLSessionTransport()) -> CachedClient {
    let logger = Logger(label: "com.example.bank.cache")
    let log = logCacheEvents(to: logger)
    let count = countCacheEvents()
    return CachedClient(baseURL: baseURL, store: store, transport: transport, events: { event in
        log(event)
        count(event)
    })
}

/// The bridges fed the events a client sends: what reaches the logger and the counters.
@Suite struct CacheBridgesTests {
    /// The process's metrics backend: `MetricsSystem` takes one, once. Each test counts under
    /// its own endpoint, so tests running side by side do not see each other's counts.
    static let metrics: TestMetrics = {
        let metrics = TestMetrics()
        MetricsSystem.bootstrap(metrics)
        return metrics
    }()

    @Test func eventsReachTheLoggerAndTheCounters() async throws {
        let metrics = Self.metrics
        let logs = InMemoryLogHandler()
        var logger = Logger(label: "cache", factory: { _ in logs })
        logger.logLevel = .debug
        let log = logCacheEvents(to: logger)
        let count = countCacheEvents()

        log(CacheEvent(kind: .fallback, endpoint: "AccountRepository.getAccounts", key: "bbc95b981f623086", age: 12))
        count(CacheEvent(kind: .fallback, endpoint: "AccountRepository.getAccounts", key: "bbc95b981f623086", age: 12))
        count(CacheEvent(kind: .hit, endpoint: "AccountRepository.getAccounts", key: "bbc95b981f623086"))
        count(CacheEvent(kind: .hit, endpoint: "AccountRepository.getAccounts", key: "bbc95b981f623086"))
        count(CacheEvent(kind: .store, endpoint: "AccountRepository.getAccounts", key: "bbc95b981f623086"))
        log(CacheEvent(kind: .error, endpoint: "AccountRepository.getAccount", key: "0f1e", message: "write failed: ENOSPC"))

        try #require(logs.entries.count == 2)
        #expect(logs.entries.map(\.level) == [.debug, .warning])
        #expect(logs.entries.map(\.message.description) == ["cache fallback", "cache error"])
        #expect(logs.entries[0].metadata == ["endpoint": "AccountRepository.getAccounts", "key": "bbc95b981f623086", "age": "12s"])
        #expect(logs.entries[1].metadata["reason"] == "write failed: ENOSPC")
        let dimensions = { (kind: String) in [("kind", kind), ("endpoint", "AccountRepository.getAccounts")] }
        #expect(metrics.counterTotal(label: "cache_events_total", dimensions: dimensions("hit")) == 2)
        #expect(metrics.counterTotal(label: "cache_events_total", dimensions: dimensions("fallback")) == 1)
        #expect(metrics.counterTotal(label: "cache_events_total", dimensions: dimensions("store")) == 0)
    }

    /// A real client's events through `makeClient`'s wiring: a miss (`cacheOnly`, nothing
    /// stored), a fresh answer, then a fallback once the server is gone. (The test calls what
    /// generated code calls.)
    @Test func aClientsMissAndFallbackAreCounted() async throws {
        let metrics = Self.metrics
        let transport = StubTransport(response: .json(#"{"id": "a1"}"#))
        let client = makeClient(baseURL: URL(string: "https://api.example.com")!, store: MemoryCacheStore(), transport: transport)
        let endpoint = Endpoint(name: "AccountRepository.getAccount", cache: CacheRule(ttl: 0, maxStale: 3600))
        let request = EndpointRequest(method: "GET", path: "/accounts/a1")
        await #expect(throws: CachedClientError.notCached(endpoint: "AccountRepository.getAccount")) {
            try await client.value(for: request, endpoint: endpoint, policy: .cacheOnly, as: [String: String].self)
        }
        let fresh = try await client.value(for: request, endpoint: endpoint, as: [String: String].self)
        transport.goOffline()
        let offline = try await client.value(for: request, endpoint: endpoint, as: [String: String].self)
        #expect(!fresh.isCached && offline.isCached)
        let counters = Dictionary(uniqueKeysWithValues: ["hit", "miss", "fallback"].map { kind in
            (kind, metrics.counterTotal(
                label: "cache_events_total", dimensions: [("kind", kind), ("endpoint", "AccountRepository.getAccount")]))
        })
        #expect(counters == ["hit": 0, "miss": 1, "fallback": 1])
    }
}
