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

/// `ttl: "server"` and the directives that hold whatever the spec says: freshness from
/// `Cache-Control`/`Expires`/`Age`, `no-cache`, `no-store`, `must-revalidate`,
/// `stale-if-error` and `stale-while-revalidate`, over a stub transport and a test clock.
@Suite("CachedClient server-driven freshness")
struct CachedClientServerFreshnessTests {
    /// The fixtures' endpoint (same name and shape, so `Harness.key` finds its entries)
    /// with a spec ttl of 60 s, a maxStale of an hour, and freshness from the server or not.
    static func endpoint(fromServer: Bool = true, policy: CachePolicy = .networkFirst) -> Endpoint {
        var endpoint = Fixtures.endpoint(policy: policy)
        endpoint.cache?.ttlFromServer = fromServer
        return endpoint
    }

    static func answer(_ headers: [String: String], _ account: Account = Fixtures.alice) -> HTTPResponse {
        HTTPResponse(statusCode: 200, headers: headers, body: Fixtures.body(account))
    }

    static let server = endpoint()
    static let spec = endpoint(fromServer: false)

    // MARK: Lifetime

    @Test func maxAgeLongerThanTheSpecsTTLKeepsCacheFirstOffTheNetwork() async throws {
        let harness = Harness(transport: StubTransport { _ in Self.answer(["Cache-Control": "max-age=600"]) })
        _ = try await harness.value(endpoint: Self.server)

        harness.clock.advance(by: 599)
        #expect(try await harness.value(policy: .cacheFirst, endpoint: Self.server) == .cached(value: Fixtures.alice, date: Fixtures.start))
        harness.clock.advance(by: 1)
        #expect(try await harness.value(policy: .cacheFirst, endpoint: Self.server) == .fresh(value: Fixtures.alice))
        #expect(harness.transport.requestCount == 2)
        #expect(harness.events.kinds == [.store, .hit, .miss, .store])
    }

    @Test func maxAgeShorterThanTheSpecsTTLSendsCacheFirstToTheNetwork() async throws {
        let harness = Harness(transport: StubTransport { _ in Self.answer(["Cache-Control": "max-age=10"]) })
        _ = try await harness.value(endpoint: Self.server)
        harness.clock.advance(by: 10)

        #expect(try await harness.value(policy: .cacheFirst, endpoint: Self.server) == .fresh(value: Fixtures.alice))
        #expect(harness.transport.requestCount == 2)
    }

    @Test func withoutTTLFromServerTheSpecsTTLGovernsWhateverTheServerSays() async throws {
        let harness = Harness(transport: StubTransport { _ in Self.answer(["Cache-Control": "max-age=10, no-cache"]) })
        _ = try await harness.value(endpoint: Self.spec)
        harness.clock.advance(by: 59)
        #expect(try await harness.value(policy: .cacheFirst, endpoint: Self.spec).isCached)
        harness.clock.advance(by: 1)
        #expect(try await harness.value(policy: .cacheFirst, endpoint: Self.spec) == .fresh(value: Fixtures.alice))
        // The freshness is still recorded, should a later version of the spec ask for it.
        #expect(try await harness.storedEntry(Self.spec)?.freshness == ServerFreshness(lifetime: 10, noCache: true))
    }

    @Test func expiresMinusDateIsTheLifetimeAndAgeUsesItUp() async throws {
        let date = HTTPDate.format(Fixtures.start)
        let expires = HTTPDate.format(Fixtures.start.addingTimeInterval(300))
        let harness = Harness(transport: StubTransport { _ in Self.answer(["Expires": expires, "Date": date, "Age": "100"]) })
        _ = try await harness.value(endpoint: Self.server)
        #expect(try await harness.storedEntry(Self.server)?.freshness == ServerFreshness(lifetime: 300, initialAge: 100))

        harness.clock.advance(by: 199)
        #expect(try await harness.value(policy: .cacheFirst, endpoint: Self.server).isCached)
        harness.clock.advance(by: 1)
        #expect(try await harness.value(policy: .cacheFirst, endpoint: Self.server) == .fresh(value: Fixtures.alice))
    }

    @Test func aServerThatSaysNothingGetsTheSpecsTTL() async throws {
        let harness = Harness(transport: StubTransport { _ in Self.answer(["ETag": "\"v1\""]) })
        _ = try await harness.value(endpoint: Self.server)
        harness.clock.advance(by: 59)
        #expect(try await harness.value(policy: .cacheFirst, endpoint: Self.server).isCached)
        harness.clock.advance(by: 1)
        #expect(harness.transport.requestCount == 1)
        _ = try await harness.value(policy: .cacheFirst, endpoint: Self.server)
        #expect(harness.transport.requestCount == 2)
    }

    @Test func hitAndStaleEventsFollowTheServersLifetime() async throws {
        let harness = Harness(transport: StubTransport { _ in Self.answer(["Cache-Control": "max-age=600"]) })
        _ = try await harness.value(endpoint: Self.server)
        harness.clock.advance(by: 300)
        _ = try await harness.value(policy: .cacheOnly, endpoint: Self.server)
        harness.clock.advance(by: 300)
        _ = try await harness.value(policy: .cacheOnly, endpoint: Self.server)
        #expect(harness.events.kinds == [.store, .hit, .stale])
    }

    // MARK: no-cache and revalidation

    @Test func noCacheIsStoredButEveryUseAsksTheServerFirst() async throws {
        let harness = Harness(transport: StubTransport { request in
            request.headers["If-None-Match"] == "\"v1\""
                ? HTTPResponse(statusCode: 304, headers: ["ETag": "\"v1\"", "Cache-Control": "no-cache"])
                : Self.answer(["ETag": "\"v1\"", "Cache-Control": "no-cache"])
        })
        _ = try await harness.value(endpoint: Self.server)

        #expect(try await harness.value(policy: .cacheFirst, endpoint: Self.server) == .fresh(value: Fixtures.alice))
        #expect(try await harness.value(policy: .cacheFirst, endpoint: Self.server) == .fresh(value: Fixtures.alice))
        #expect(harness.transport.requests.map { $0.headers["If-None-Match"] } == [nil, "\"v1\"", "\"v1\""])
        #expect(harness.events.kinds == [.store, .miss, .revalidated, .miss, .revalidated])
    }

    @Test func a304RenewsTheLifetimeFromItsOwnHeaders() async throws {
        let harness = Harness(transport: StubTransport { request in
            request.headers["If-None-Match"] == "\"v1\""
                ? HTTPResponse(statusCode: 304, headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=120"])
                : Self.answer(["ETag": "\"v1\"", "Cache-Control": "max-age=60"])
        })
        _ = try await harness.value(endpoint: Self.server)
        harness.clock.advance(by: 60)

        #expect(try await harness.value(policy: .cacheFirst, endpoint: Self.server) == .fresh(value: Fixtures.alice))
        let confirmed = try #require(try await harness.storedEntry(Self.server))
        #expect(confirmed.date == Fixtures.start.addingTimeInterval(60))
        #expect(confirmed.freshness == ServerFreshness(lifetime: 120))
        harness.clock.advance(by: 119)
        #expect(try await harness.value(policy: .cacheFirst, endpoint: Self.server) == .cached(value: Fixtures.alice, date: confirmed.date))
        #expect(harness.transport.requestCount == 2)
    }

    @Test func aChangedResourceReplacesTheBodyAndTheETag() async throws {
        let harness = Harness(transport: StubTransport { request in
            request.headers["If-None-Match"] == "\"v1\""
                ? Self.answer(["ETag": "\"v2\"", "Cache-Control": "max-age=60"], Fixtures.aliceLater)
                : Self.answer(["ETag": "\"v1\"", "Cache-Control": "max-age=60"])
        })
        _ = try await harness.value(endpoint: Self.server)
        harness.clock.advance(by: 61)

        #expect(try await harness.value(policy: .cacheFirst, endpoint: Self.server) == .fresh(value: Fixtures.aliceLater))
        let stored = try await harness.storedEntry(Self.server)
        #expect(stored?.etag == "\"v2\"")
        #expect(stored?.body == Fixtures.body(Fixtures.aliceLater))
        #expect(harness.events.kinds == [.store, .miss, .store])
    }

    // MARK: no-store

    @Test(arguments: [true, false])
    func noStoreIsNeverWrittenAndRemovesTheEarlierEntry(fromServer: Bool) async throws {
        let endpoint = Self.endpoint(fromServer: fromServer)
        let harness = Harness(transport: StubTransport { _ in Self.answer(["Cache-Control": "private, no-store"], Fixtures.aliceLater) })
        try await harness.seed(age: 600, endpoint: endpoint)

        #expect(try await harness.value(endpoint: endpoint) == .fresh(value: Fixtures.aliceLater))
        #expect(try await harness.storedEntry(endpoint) == nil)
        #expect(harness.events.kinds == [.evict])
        #expect(harness.events.all.first?.message == "removed: the server answered no-store")

        // Offline, the caller is not shown data older than what it was just given.
        harness.transport.fail()
        await #expect(throws: URLError.self) { try await harness.value(endpoint: endpoint) }
    }

    @Test func noStoreWithNothingStoredWritesNothingAndSaysNothing() async throws {
        let harness = Harness(transport: StubTransport { _ in Self.answer(["Cache-Control": "no-store"]) })
        #expect(try await harness.value(policy: .networkOnly, endpoint: Self.server) == .fresh(value: Fixtures.alice))
        #expect(try await harness.store.entryCount() == 0)
        #expect(harness.events.kinds.isEmpty)
    }

    @Test func a304WithNoStoreStillAnswersButRemovesTheEntry() async throws {
        let harness = Harness(transport: StubTransport { _ in
            HTTPResponse(statusCode: 304, headers: ["ETag": "\"v1\"", "Cache-Control": "no-store"])
        })
        try await harness.seed(age: 100, etag: "\"v1\"", endpoint: Self.server)

        #expect(try await harness.value(endpoint: Self.server) == .fresh(value: Fixtures.alice))
        #expect(try await harness.storedEntry(Self.server) == nil)
        #expect(harness.events.kinds == [.revalidated, .evict])
    }

    // MARK: must-revalidate and stale-if-error

    enum Failure: String, CaseIterable, Sendable { case offline, status503 }

    func fail(_ harness: Harness, _ failure: Failure) {
        switch failure {
        case .offline: harness.transport.fail()
        case .status503: harness.transport.respond(status: 503, body: Data("down".utf8))
        }
    }

    @Test(arguments: Failure.allCases)
    func mustRevalidateForbidsAStaleFallback(_ failure: Failure) async throws {
        let harness = Harness(transport: StubTransport { _ in Self.answer(["Cache-Control": "max-age=60, must-revalidate"]) })
        _ = try await harness.value(endpoint: Self.server)
        fail(harness, failure)

        harness.clock.advance(by: 59)
        #expect(try await harness.value(endpoint: Self.server) == .cached(value: Fixtures.alice, date: Fixtures.start))
        harness.clock.advance(by: 1)
        await #expect(throws: (any Error).self) { try await harness.value(endpoint: Self.server) }
        #expect(harness.events.kinds == [.store, .fallback, .miss])
        // The spec's own ttl ignores the directive: offline display is the app's choice there.
        #expect(try await harness.value(endpoint: Self.spec).isCached)
    }

    @Test(arguments: Failure.allCases)
    func staleIfErrorAllowsAFallbackUpToItsWindow(_ failure: Failure) async throws {
        let harness = Harness(transport: StubTransport { _ in
            Self.answer(["Cache-Control": "max-age=60, must-revalidate, stale-if-error=120"])
        })
        _ = try await harness.value(endpoint: Self.server)
        fail(harness, failure)

        harness.clock.advance(by: 180)
        #expect(try await harness.value(endpoint: Self.server) == .cached(value: Fixtures.alice, date: Fixtures.start))
        #expect(try await harness.value(policy: .cacheFirst, endpoint: Self.server).isCached)
        harness.clock.advance(by: 1)
        await #expect(throws: (any Error).self) { try await harness.value(endpoint: Self.server) }
    }

    @Test func staleIfErrorOnlyWidensAndMaxStaleStillCaps() async throws {
        let harness = Harness(transport: StubTransport { _ in Self.answer(["Cache-Control": "max-age=60, stale-if-error=10"]) })
        _ = try await harness.value(endpoint: Self.server)
        harness.transport.fail()

        harness.clock.advance(by: Fixtures.maxStale - 1)
        #expect(try await harness.value(endpoint: Self.server).isCached)
        harness.clock.advance(by: 1)
        await #expect(throws: URLError.self) { try await harness.value(endpoint: Self.server) }
    }

    @Test func networkOnlyNeverFallsBackWhateverTheServerAllows() async throws {
        let harness = Harness(transport: StubTransport { _ in Self.answer(["Cache-Control": "max-age=60, stale-if-error=86400"]) })
        _ = try await harness.value(endpoint: Self.server)
        harness.transport.fail()

        await #expect(throws: URLError.self) { try await harness.value(policy: .networkOnly, endpoint: Self.server) }
    }

    @Test func aStreamThatCannotConfirmAMustRevalidateEntryThrowsAfterShowingIt() async throws {
        let harness = Harness(transport: StubTransport { _ in Self.answer(["Cache-Control": "max-age=60, must-revalidate"]) })
        _ = try await harness.value(endpoint: Self.server)
        harness.clock.advance(by: 100)
        harness.transport.fail()

        var values: [CachedValue<Account>] = []
        await #expect(throws: URLError.self) {
            for try await value in harness.client.updates(for: Fixtures.request(), endpoint: Self.server, as: Account.self) {
                values.append(value)
            }
        }
        #expect(values == [.cached(value: Fixtures.alice, date: Fixtures.start)])
    }

    // MARK: stale-while-revalidate

    @Test func staleWhileRevalidateLetsCacheFirstAnswerAtOnceAndRefresh() async throws {
        let harness = Harness(transport: StubTransport { _ in
            Self.answer(["Cache-Control": "max-age=60, stale-while-revalidate=30"])
        })
        _ = try await harness.value(endpoint: Self.server)
        harness.clock.advance(by: 90)
        harness.transport.respond { _ in Self.answer(["Cache-Control": "max-age=60, stale-while-revalidate=30"], Fixtures.aliceLater) }

        #expect(try await harness.value(policy: .cacheFirst, endpoint: Self.server) == .cached(value: Fixtures.alice, date: Fixtures.start))
        await harness.client.waitForBackgroundRefreshes()
        #expect(try await harness.storedEntry(Self.server)?.body == Fixtures.body(Fixtures.aliceLater))
        #expect(harness.events.kinds == [.store, .stale, .store])
    }

    @Test func pastTheStaleWhileRevalidateWindowCacheFirstWaitsForTheNetwork() async throws {
        let harness = Harness(transport: StubTransport { _ in
            Self.answer(["Cache-Control": "max-age=60, stale-while-revalidate=30"])
        })
        _ = try await harness.value(endpoint: Self.server)
        harness.clock.advance(by: 91)
        harness.transport.respond { _ in Self.answer([:], Fixtures.aliceLater) }

        #expect(try await harness.value(policy: .cacheFirst, endpoint: Self.server) == .fresh(value: Fixtures.aliceLater))
        #expect(harness.events.kinds == [.store, .miss, .store])
    }

    // MARK: Persistence

    @Test func theServersRulesSurviveARelaunch() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "cachegen-freshness-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = TestClock()
        let transport = StubTransport { _ in Self.answer(["Cache-Control": "max-age=600, must-revalidate", "Age": "50"]) }
        let first = CachedClient(
            baseURL: Fixtures.baseURL, store: try FileCacheStore(directory: directory, now: clock.function),
            transport: transport, partition: "user-1", retry: .none, now: clock.function)
        let _: CachedValue<Account> = try await first.value(for: Fixtures.request(), endpoint: Self.server)
        await first.flush()  // before another client reads the folder

        let relaunched = CachedClient(
            baseURL: Fixtures.baseURL, store: try FileCacheStore(directory: directory, now: clock.function),
            transport: transport, partition: "user-1", retry: .none, now: clock.function)
        clock.advance(by: 549)
        let hit: CachedValue<Account> = try await relaunched.value(for: Fixtures.request(), endpoint: Self.server, policy: .cacheFirst)
        #expect(hit == .cached(value: Fixtures.alice, date: Fixtures.start))
        clock.advance(by: 1)
        transport.fail()
        await #expect(throws: URLError.self) {
            let _: CachedValue<Account> = try await relaunched.value(for: Fixtures.request(), endpoint: Self.server)
        }
        #expect(transport.requestCount == 2)
    }
}
