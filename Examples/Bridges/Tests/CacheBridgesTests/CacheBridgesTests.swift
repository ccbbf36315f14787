import CacheBridges
import CachedClientRuntime
import CachedClientTesting
import Foundation
import InMemoryLogging
import Logging
import Metrics
import MetricsTestKit
import Testing

/// How an app wires both bridges into its client (the article shows this function's body).
func makeClient(baseURL: URL, store: any CacheStore) -> CachedClient {
    let logger = Logger(label: "com.example.bank.cache")
    let log = logCacheEvents(to: logger)
    let count = countCacheEvents()
    return CachedClient(baseURL: baseURL, store: store, events: { event in
        log(event)
        count(event)
    })
}

/// The bridges fed the events a client sends: what reaches the logger and the counters.
@Suite struct CacheBridgesTests {
    @Test func eventsReachTheLoggerAndTheCounters() async throws {
        let metrics = TestMetrics()
        MetricsSystem.bootstrap(metrics)
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
}
