import CachedClientTestSupport
import Foundation
import StoreTestSupport
import Testing

@_spi(Generated) @testable import CachedClientRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The same revalidation and freshness rules against nginx serving static JSON files:
/// its own `ETag` and `Last-Modified`, `expires`, `add_header Cache-Control` and 304s.
/// Skipped, visibly, where nginx is not installed; `.ci/run` installs it, so CI runs them.
@Suite(
    "Integration: nginx serving static JSON", .timeLimit(.minutes(1)),
    .enabled(if: NginxServer.isInstalled, "nginx is not installed (CI installs it: apt-get install nginx-light)"))
struct NginxIntegrationTests {
    static let locations = """
        location /expires/ { expires 120s; }
        location /nostore/ { add_header Cache-Control "no-store"; }
        location /lastmodified/ { etag off; }
        location /strict/ { add_header Cache-Control "max-age=60, must-revalidate, stale-if-error=120"; }
        """

    /// A client on a fresh nginx, with a test clock. nginx's `Date` is the real time, later
    /// than the test clock, so it adds no apparent age.
    struct Setup {
        let server: NginxServer
        let clock = TestClock()
        let events = EventLog()
        let store = MemoryCacheStore()
        let client: CachedClient

        init() async throws {
            server = try await NginxServer.start(locations: NginxIntegrationTests.locations)
            client = CachedClient(
                baseURL: server.baseURL, store: store, transport: URLSessionTransport(timeout: 10), partition: "user-1",
                now: clock.function, events: events.record)
        }

        func serve(_ path: String, _ account: Account, modified: Date = Fixtures.start.addingTimeInterval(-3_600)) throws {
            try server.write(path, Fixtures.body(account), modified: modified)
        }

        /// One call, then waits for the write it started, so the store and the events are
        /// settled when the test looks (as `Harness.value` does).
        func account(_ path: String, fromServer: Bool = false, policy: CachePolicy? = nil) async throws -> CachedValue<Account> {
            var endpoint = Fixtures.endpoint()
            endpoint.cache?.ttlFromServer = fromServer
            do {
                let value: CachedValue<Account> = try await client.value(for: EndpointRequest(method: "GET", path: path), endpoint: endpoint, policy: policy)
                await client.flush()
                return value
            } catch {
                await client.flush()
                throw error
            }
        }

        var entry: CacheEntry? {
            store.keys().first.flatMap { store.entry(for: $0) }
        }
    }

    @Test func nginxsOwnETagTurnsAnExpiredEntryInto304AndFresh() async throws {
        let setup = try await Setup()
        try setup.serve("plain/account.json", Fixtures.alice)

        #expect(try await setup.account("/plain/account.json") == .fresh(value: Fixtures.alice))
        let etag = try #require(setup.entry?.etag)
        #expect(etag.hasPrefix("\"") && setup.entry?.lastModified != nil)
        setup.clock.advance(by: Fixtures.ttl)
        #expect(try await setup.account("/plain/account.json", policy: .cacheFirst) == .fresh(value: Fixtures.alice))

        #expect(try await setup.server.accessLog(count: 2).map(\.status) == [200, 304])
        #expect(setup.events.kinds == [.store, .miss, .revalidated])
        #expect(setup.entry?.date == Fixtures.start.addingTimeInterval(Fixtures.ttl))
    }

    @Test func aChangedFileComesBackAsA200WithANewETag() async throws {
        let setup = try await Setup()
        try setup.serve("plain/account.json", Fixtures.alice)
        _ = try await setup.account("/plain/account.json")
        let before = try #require(setup.entry?.etag)

        try setup.serve("plain/account.json", Fixtures.aliceLater, modified: Fixtures.start.addingTimeInterval(-60))
        setup.clock.advance(by: Fixtures.ttl)
        #expect(try await setup.account("/plain/account.json", policy: .cacheFirst) == .fresh(value: Fixtures.aliceLater))

        #expect(try await setup.server.accessLog(count: 2).map(\.status) == [200, 200])
        #expect(setup.entry?.etag != before)
        #expect(setup.entry?.body == Fixtures.body(Fixtures.aliceLater))
    }

    @Test func lastModifiedAloneRevalidatesWithIfModifiedSince() async throws {
        let setup = try await Setup()
        try setup.serve("lastmodified/account.json", Fixtures.alice)
        _ = try await setup.account("/lastmodified/account.json")
        #expect(setup.entry?.etag == nil)
        setup.clock.advance(by: Fixtures.ttl)

        #expect(try await setup.account("/lastmodified/account.json", policy: .cacheFirst) == .fresh(value: Fixtures.alice))
        #expect(try await setup.server.accessLog(count: 2).map(\.status) == [200, 304])
    }

    @Test func expiresOverridesTheSpecsTTLOnlyWhenTheSpecSaysServer() async throws {
        let setup = try await Setup()
        try setup.serve("expires/account.json", Fixtures.alice)
        _ = try await setup.account("/expires/account.json", fromServer: true)
        #expect(setup.entry?.freshness?.lifetime == 120)

        setup.clock.advance(by: 119)  // twice the spec's ttl, within nginx's
        #expect(try await setup.account("/expires/account.json", fromServer: true, policy: .cacheFirst).isCached)
        #expect(try await setup.account("/expires/account.json", fromServer: false, policy: .cacheFirst) == .fresh(value: Fixtures.alice))
        setup.clock.advance(by: 120)
        #expect(try await setup.account("/expires/account.json", fromServer: true, policy: .cacheFirst) == .fresh(value: Fixtures.alice))

        #expect(try await setup.server.accessLog(count: 3).map(\.status) == [200, 304, 304])
        #expect(setup.entry?.freshness?.lifetime == 120)  // the 304 repeated it
    }

    @Test func noStoreFromNginxIsNeverKept() async throws {
        let setup = try await Setup()
        try setup.serve("nostore/account.json", Fixtures.alice)

        #expect(try await setup.account("/nostore/account.json") == .fresh(value: Fixtures.alice))
        #expect(setup.store.entryCount() == 0)
    }

    @Test func staleIfErrorCoversNginxBeingGoneForItsWindowOnly() async throws {
        let setup = try await Setup()
        try setup.serve("strict/account.json", Fixtures.alice)
        _ = try await setup.account("/strict/account.json", fromServer: true)
        setup.server.stop()

        setup.clock.advance(by: 180)
        #expect(try await setup.account("/strict/account.json", fromServer: true) == .cached(value: Fixtures.alice, date: Fixtures.start))
        setup.clock.advance(by: 1)
        await #expect(throws: URLError.self) { try await setup.account("/strict/account.json", fromServer: true) }
    }

    /// The figure, from nginx's access log (`$bytes_sent`, `$request_length`).
    @Test func aRevalidatedHitCostsAFewHundredBytesInsteadOf100KB() async throws {
        let setup = try await Setup()
        let accounts = HTTPRevalidationIntegrationTests.accounts(totalling: 100 * 1_024)
        try setup.server.write(
            "plain/accounts.json", try HTTPRevalidationIntegrationTests.encoder.encode(accounts),
            modified: Fixtures.start.addingTimeInterval(-3_600))
        let endpoint = Fixtures.endpoint("AccountRepository.getAccounts")
        let request = EndpointRequest(method: "GET", path: "/plain/accounts.json")

        let full: CachedValue<[Account]> = try await setup.client.value(for: request, endpoint: endpoint)
        setup.clock.advance(by: Fixtures.ttl)
        let revalidated: CachedValue<[Account]> = try await setup.client.value(for: request, endpoint: endpoint, policy: .cacheFirst)

        #expect(full == .fresh(value: accounts) && revalidated == .fresh(value: accounts))
        let log = try await setup.server.accessLog(count: 2)
        #expect(log.map(\.status) == [200, 304])
        let (first, second) = (try #require(log.first), try #require(log.last))
        print(
            "nginx, 100 KB answer: full fetch \(first.bytesSent) bytes sent (request \(first.requestLength)),"
                + " revalidated hit \(second.bytesSent) bytes sent (request \(second.requestLength))")
        #expect(first.bytesSent > 100 * 1_024)
        #expect(second.bytesSent < 1_024)
    }
}
