@_spi(Generated) import CachedClientRuntime
import CachedClientTesting
import Foundation
import Testing

/// The golden generated code, compiled in this target, driven through the runtime.
@Suite struct GeneratedClientTests {
    let base = URL(string: "https://bank.test/v1")!
    let clock = Clock()

    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var date = Date(timeIntervalSince1970: 1_800_000_000)
        var now: Date { lock.withLock { date } }
        func advance(_ seconds: TimeInterval) { lock.withLock { date += seconds } }
    }

    func client(_ transport: StubTransport, store: MemoryCacheStore = MemoryCacheStore(), partition: String? = "alice")
        -> CachedClient
    {
        CachedClient(
            baseURL: base, store: store, transport: transport, partition: partition,
            headers: { ["Authorization": "Bearer secret-token"] }, now: { [clock] in clock.now })
    }

    static let accountsJSON = """
        [{"id": "a1", "balance": 12.5, "currency": "EUR", "opened_at": "2024-05-01T10:00:00Z",
          "kind": "credit_card", "tags": ["main"], "limits": {"daily": 500}, "nickname": null}]
        """

    @Test func freshThenOfflineFallbackWithTheStoredDate() async throws {
        let transport = StubTransport(response: .json(Self.accountsJSON))
        let repository = LiveAccountRepository(client: client(transport))
        let fresh = try await repository.getAccounts(page: 1)
        #expect(!fresh.isCached)
        let account = try #require(fresh.value.first)
        #expect(account.kind == .creditCard)
        #expect(account.openedAt == Date(timeIntervalSince1970: 1_714_557_600))
        #expect(account.limits == ["daily": 500])
        let storedAt = clock.now

        clock.advance(3600)
        transport.goOffline()
        let offline = try await repository.getAccounts(page: 1)
        #expect(offline == .cached(value: fresh.value, date: storedAt))
    }

    @Test func requestsCarryPathQueryHeadersAndAuthorization() async throws {
        let transport = StubTransport(response: .json(#"{"items": [], "next_cursor": null}"#))
        let repository = LiveAccountRepository(client: client(transport))
        _ = try await repository.getTransactions(
            accountId: "ch/42 ü", cursor: "c&d=1", category: .groceries, includePending: true, xApiVersion: "2")
        let request = try #require(transport.requests.first)
        #expect(request.method == "GET")
        #expect(
            request.url.absoluteString
                == "https://bank.test/v1/accounts/ch%2F42%20%C3%BC/transactions?cursor=c%26d%3D1&category=groceries&include_pending=true"
        )
        #expect(request.headers["X-Api-Version"] == "2")
        #expect(request.headers["Authorization"] == "Bearer secret-token")
    }

    @Test func parametersOutsideTheKeyShareAnEntry() async throws {
        let transport = StubTransport(response: .json(#"{"items": [], "next_cursor": null}"#))
        let repository = LiveAccountRepository(client: client(transport))
        _ = try await repository.getTransactions(accountId: "a1", includePending: true, xApiVersion: "2")
        let second = try await repository.getTransactions(
            accountId: "a1", includePending: false, xApiVersion: "3", policy: .cacheFirst)
        #expect(second.isCached)
        #expect(transport.requests.count == 1)
        let otherCategory = try await repository.getTransactions(
            accountId: "a1", category: .rent, xApiVersion: "2", policy: .cacheFirst)
        #expect(!otherCategory.isCached)
        #expect(transport.requests.count == 2)
    }

    @Test func bodiesUseWireNamesAndUncachedAnswersAreNeverStored() async throws {
        let store = MemoryCacheStore()
        let transport = StubTransport { request in
            #expect(request.method == "POST")
            let body = try #require(request.body)
            let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
            #expect(json["to_iban"] as? String == "DE00 1234")
            #expect(json["from_account"] as? String == "a1")
            #expect(request.headers["Content-Type"] == "application/json")
            return .json(#"{"id": "t1", "status": "pending", "created_at": "2026-11-22T08:00:00.123Z"}"#, status: 201)
        }
        let cachedClient = client(transport, store: store)
        let repository = LiveAccountRepository(client: cachedClient)
        let transfer = try await repository.createTransfer(
            body: TransferRequest(fromAccount: "a1", toIBAN: "DE00 1234", amount: 10))
        #expect(transfer.status == .pending)
        #expect(abs(transfer.createdAt.timeIntervalSince1970 - 1_795_334_400.123) < 0.0005)
        transport.respond { _ in .json(#"{"name": "Ada", "email": "ada@example.com"}"#) }
        _ = try await repository.getProfile()  // cache: false with a GET
        await cachedClient.flush()  // nothing may be on its way to the store either
        let anyStore: any CacheStore = store
        #expect(try await anyStore.entryCount() == 0)
    }

    @Test func endpointsWithoutAResponseBodyReturnNothing() async throws {
        let transport = StubTransport(response: HTTPResponse(statusCode: 204))
        try await LiveAccountRepository(client: client(transport)).deleteTransfer(id: "t1")
        #expect(transport.requests.map(\.method) == ["DELETE"])
        #expect(transport.requests.first?.url.path == "/v1/transfers/t1")
    }

    @Test func clientErrorsAreNotHiddenByTheCache() async throws {
        let transport = StubTransport(response: .json(Self.accountsJSON))
        let repository = LiveAccountRepository(client: client(transport))
        _ = try await repository.getAccounts(page: 1)
        transport.respond { _ in .json(#"{"error": "gone"}"#, status: 404) }
        await #expect(throws: CachedClientError.self) { try await repository.getAccounts(page: 1) }
    }

    @Test func theProtocolOffersDefaultsForOptionalArgumentsAndThePolicy() async throws {
        let transport = StubTransport(response: .json(Self.accountsJSON))
        let repository: any AccountRepository = LiveAccountRepository(client: client(transport))
        _ = try await repository.getAccounts(page: 1)
        let quick = try await repository.getAccounts(page: 1, policy: .cacheFirst)
        #expect(quick.isCached)
        let explicit = try await repository.getAccounts(page: 1, perPage: nil, policy: nil)
        #expect(!explicit.isCached)
        #expect(transport.requests.count == 2)
    }

    @Test func streamsYieldTheStoredValueThenTheFreshOne() async throws {
        let transport = StubTransport(response: .json(Self.accountsJSON))
        let repository = LiveAccountRepository(client: client(transport))
        var first: [CachedValue<[Account]>] = []
        for try await value in repository.getAccountsStream(page: 1) { first.append(value) }
        #expect(first.map(\.isCached) == [false])
        var second: [CachedValue<[Account]>] = []
        for try await value in repository.getAccountsStream(page: 1) { second.append(value) }
        #expect(second.map(\.isCached) == [true, false])
    }

    @Test func usersNeverSeeEachOthersEntries() async throws {
        let store = MemoryCacheStore()
        let transport = StubTransport(response: .json(Self.accountsJSON))
        let aliceClient = client(transport, store: store, partition: "alice")
        _ = try await LiveAccountRepository(client: aliceClient).getAccounts(page: 1)
        await aliceClient.flush()  // alice's entry is in the store before bob looks
        let bob = LiveAccountRepository(client: client(transport, store: store, partition: "bob"))
        await #expect(throws: CachedClientError.notCached(endpoint: "AccountRepository.getAccounts")) {
            try await bob.getAccounts(page: 1, policy: .cacheOnly)
        }
    }

    @Test func sharedEntriesAndMillisecondDates() async throws {
        let chart = """
            {"country": "SE", "week": "2026-W47", "generatedAt": 1795852800123, "entries": [
              {"rank": 1, "prev_rank": null, "trend": "new", "track": {"id": "t", "title": "T", "duration_ms": 1000,
               "explicit": false, "artists": [{"id": "x", "name": "X", "genres": ["pop"]}]}}]}
            """
        let store = MemoryCacheStore()
        let transport = StubTransport(response: .json(chart))
        let aliceClient = client(transport, store: store, partition: "alice")
        let alice = LiveChartRepository(client: aliceClient)
        let result = try await alice.getTopChart(country: "SE", genre: .hipHop)
        await aliceClient.flush()  // a second client reads the store: let the write land first
        #expect(result.value.generatedAt.timeIntervalSince1970 == 1_795_852_800.123)
        #expect(transport.requests.first?.url.query == "genre=hip-hop")
        let bob = LiveChartRepository(client: client(transport, store: store, partition: "bob"))
        let shared = try await bob.getTopChart(country: "SE", genre: .hipHop, policy: .cacheOnly)
        #expect(shared.isCached)
    }

    @Test func aPostWithItsBodyInTheKeyIsCachedPerBody() async throws {
        let transport = StubTransport(response: .json("[]"))
        let repository = LiveChartRepository(client: client(transport))
        let pop = TrackSearch(title: "love", genres: [.pop], explicitAllowed: false)
        let rock = TrackSearch(title: "love", genres: [.rock], explicitAllowed: false)
        _ = try await repository.searchTracks(body: pop)
        #expect(try await repository.searchTracks(body: pop, policy: .cacheOnly).isCached)
        await #expect(throws: CachedClientError.self) {
            try await repository.searchTracks(body: rock, policy: .cacheOnly)
        }
    }
}
