import CachedClientTestSupport
import Foundation
import StoreTestSupport
import Testing

@_spi(Generated) import CachedClientCalls
@_spi(Generated) import CachedClientMutations
import CachedClientFileStore
import CachedClientHTTP
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Mutations remove the entries they name after a 2xx answer: one resource's entries
/// (`/accounts/42`, every query) or every entry of an endpoint, in every partition, on disk
/// and in memory; failures of the removal never fail the call.
@Suite("Invalidation after mutations")
struct InvalidationTests {
    static let getAccount = Fixtures.endpoint("AccountRepository.getAccount")
    static let getAccounts = Fixtures.endpoint("AccountRepository.getAccounts")
    static let updateAccount = Endpoint(name: "AccountRepository.updateAccount", cache: nil)

    /// `GET /accounts/{id}?fields=…`: entries of one path that differ by a key query parameter.
    static func account(_ id: String, fields: String = "all") -> EndpointRequest {
        var request = EndpointRequest(method: "GET", path: "/accounts/{id}")
        request.setPathParameter("id", id)
        request.addQuery("fields", fields, isKey: true)
        return request
    }

    static func page(_ number: Int) -> EndpointRequest {
        var request = EndpointRequest(method: "GET", path: "/accounts")
        request.addQuery("page", number, isKey: true)
        return request
    }

    static func accountPath(_ id: String) -> Invalidation {
        Invalidation(getAccount, path: "/accounts/{id}") { $0.setPathParameter("id", id) }
    }

    /// The two stores, so each rule is checked on both.
    enum StoreKind: String, CaseIterable, Sendable {
        case memory, file
    }

    /// A client over a store of `kind` in a fresh folder, answering every request with
    /// `Fixtures.alice` (or `status` for mutations).
    struct Setup {
        let directory = FileManager.default.temporaryDirectory.appending(path: "cachegen-invalidation-\(UUID().uuidString)")
        let transport = StubTransport(json: Fixtures.alice)
        let events = EventLog()
        let clock = TestClock()
        let store: any CacheStore
        let client: CachedClient

        init(_ kind: StoreKind, wrap: (any CacheStore) -> any CacheStore = { $0 }) throws {
            let inner: any CacheStore = switch kind {
            case .memory: MemoryCacheStore()
            case .file: try FileCacheStore(directory: directory, now: clock.function)
            }
            store = wrap(inner)
            client = CachedClient(
                baseURL: Fixtures.baseURL, store: store, transport: transport, partition: "user-1",
                now: clock.function, events: events.record)
        }

        func removeFolder() { try? FileManager.default.removeItem(at: directory) }

        func fetch(_ request: EndpointRequest, _ endpoint: Endpoint = InvalidationTests.getAccount) async throws {
            let _: CachedValue<Account> = try await client.value(for: request, endpoint: endpoint)
        }

        /// Whether the store has the entry, asked of the store itself (not the client's memory)
        /// once the client's writes have landed.
        func isStored(_ request: EndpointRequest, _ endpoint: Endpoint = InvalidationTests.getAccount, partition: String? = "user-1") async throws -> Bool {
            await client.flush()
            let key = CacheKey(endpoint: endpoint, request: request, baseURL: Fixtures.baseURL, bodyDigest: nil, partition: partition)
            return try await store.entry(for: key) != nil
        }

        /// What the client answers offline from its cache (memory first), or `nil`.
        func cached(_ request: EndpointRequest, _ endpoint: Endpoint = InvalidationTests.getAccount) async -> Account? {
            let value: CachedValue<Account>? = try? await client.value(for: request, endpoint: endpoint, policy: .cacheOnly)
            return value?.value
        }

        func update(_ id: String, invalidating invalidations: [Invalidation]) async throws {
            try await client.perform(
                EndpointRequest(method: "PUT", path: "/accounts/\(id)"), endpoint: InvalidationTests.updateAccount,
                invalidating: invalidations)
        }
    }

    // MARK: - The invalidation value

    @Test func aPathIsResolvedExactlyAsTheRequestsPath() {
        let invalidation = Self.accountPath("a/b c")
        #expect(invalidation.endpoint == "AccountRepository.getAccount")
        #expect(invalidation.path == "/accounts/a%2Fb%20c")
        let key = CacheKey(
            endpoint: Self.getAccount, request: Self.account("a/b c"), baseURL: Fixtures.baseURL, bodyDigest: nil, partition: "p")
        #expect(key.path == invalidation.path)
        #expect(Invalidation(Self.getAccount).path == nil)
        #expect(Invalidation(Self.getAccount).matches(key))
        #expect(invalidation.matches(key))
        #expect(!Self.accountPath("a").matches(key))
        #expect(!Invalidation(Self.getAccounts).matches(key))
    }

    // MARK: - What is removed

    @Test(arguments: StoreKind.allCases)
    func aPathInvalidationRemovesThatResourceInEveryPartitionAndKeepsTheRest(_ kind: StoreKind) async throws {
        let setup = try Setup(kind)
        defer { setup.removeFolder() }
        try await setup.fetch(Self.account("1"))
        try await setup.fetch(Self.account("1", fields: "balance"))
        try await setup.fetch(Self.account("2"))
        try await setup.fetch(Self.page(1), Self.getAccounts)
        setup.client.setPartition("user-2")
        try await setup.fetch(Self.account("1"))
        setup.client.setPartition("user-1")

        try await setup.update("1", invalidating: [Self.accountPath("1")])

        #expect(try await !setup.isStored(Self.account("1")))
        #expect(try await !setup.isStored(Self.account("1", fields: "balance")))
        #expect(try await !setup.isStored(Self.account("1"), partition: "user-2"))
        #expect(try await setup.isStored(Self.account("2")))
        #expect(try await setup.isStored(Self.page(1), Self.getAccounts))
        #expect(try await setup.store.entryCount() == 2)
        #expect(await setup.cached(Self.account("1")) == nil)  // nor in memory
        #expect(await setup.cached(Self.account("2")) == Fixtures.alice)
        let evictions = setup.events.all.filter { $0.kind == .evict }
        #expect(evictions == [
            CacheEvent(
                kind: .evict, endpoint: "AccountRepository.getAccount", key: String(SHA256.hex(of: "/accounts/1").prefix(16)),
                message: "invalidated by AccountRepository.updateAccount")
        ])
    }

    @Test(arguments: StoreKind.allCases)
    func anEndpointInvalidationRemovesEveryPageInEveryPartition(_ kind: StoreKind) async throws {
        let setup = try Setup(kind)
        defer { setup.removeFolder() }
        for number in 1...3 { try await setup.fetch(Self.page(number), Self.getAccounts) }
        try await setup.fetch(Self.account("1"))
        setup.client.setPartition("user-2")
        try await setup.fetch(Self.page(1), Self.getAccounts)
        var transfer = EndpointRequest(method: "POST", path: "/transfers")
        transfer.setJSONBody(Fixtures.alice, isKey: false)

        let created: Account = try await setup.client.response(
            for: transfer, endpoint: Fixtures.uncached, invalidating: [Invalidation(Self.getAccounts)])

        #expect(created == Fixtures.alice)
        for number in 1...3 {
            #expect(try await !setup.isStored(Self.page(number), Self.getAccounts))
            #expect(await setup.cached(Self.page(number), Self.getAccounts) == nil)
        }
        #expect(try await !setup.isStored(Self.page(1), Self.getAccounts, partition: "user-2"))
        #expect(try await setup.isStored(Self.account("1")))
        #expect(try await setup.store.entryCount() == 1)
        #expect(setup.events.all.filter { $0.kind == .evict } == [
            CacheEvent(kind: .evict, endpoint: "AccountRepository.getAccounts", key: "*", message: "invalidated by TransferRepository.createTransfer")
        ])
    }

    @Test(arguments: StoreKind.allCases)
    func storesRemoveOnlyThePathsEntries(_ kind: StoreKind) async throws {
        let setup = try Setup(kind)
        defer { setup.removeFolder() }
        func key(_ id: String, _ endpoint: Endpoint = Self.getAccount, partition: String? = "user-1") -> CacheKey {
            CacheKey(endpoint: endpoint, request: Self.account(id), baseURL: Fixtures.baseURL, bodyDigest: nil, partition: partition)
        }
        let entry = CacheEntry(body: Data("{}".utf8), date: Fixtures.start)
        let other = Fixtures.endpoint("AccountRepository.getLimits")
        for stored in [key("1"), key("1", partition: "user-2"), key("1", partition: ""), key("2"), key("1", other)] {
            try await setup.store.setEntry(entry, for: stored)
        }

        try await setup.store.removeAll(endpoint: "AccountRepository.getAccount", path: "/accounts/1")

        for removed in [key("1"), key("1", partition: "user-2"), key("1", partition: "")] {
            #expect(try await setup.store.entry(for: removed) == nil)
        }
        #expect(try await setup.store.entry(for: key("2")) == entry)
        #expect(try await setup.store.entry(for: key("1", other)) == entry)
        #expect(try await setup.store.entryCount() == 2)
        try await setup.store.removeAll(endpoint: "AccountRepository.getAccount", path: "/never/stored")
        #expect(try await setup.store.entryCount() == 2)
        if kind == .file {
            // Counted without a walk, and right: the removed folder's bytes were subtracted.
            let files = FileManager.default.enumerator(atPath: setup.directory.path)?.allObjects as? [String] ?? []
            let sizes = try files.filter { ($0 as NSString).lastPathComponent.count == 64 }.map {
                try FileManager.default.attributesOfItem(atPath: setup.directory.path + "/" + $0)[.size] as? Int ?? 0
            }
            #expect(try await setup.store.totalSize() == sizes.reduce(0, +))
        }
    }

    @Test func aStoreWithoutPathSupportRemovesTheWholeEndpoint() async throws {
        /// A store written before `removeAll(endpoint:path:)` existed.
        struct OlderStore: CacheStore {
            let inner = MemoryCacheStore()
            func entry(for key: CacheKey) -> CacheEntry? { inner.entry(for: key) }
            func setEntry(_ entry: CacheEntry, for key: CacheKey) { inner.setEntry(entry, for: key) }
            func removeEntry(for key: CacheKey) { inner.removeEntry(for: key) }
            func removeAll() { inner.removeAll() }
            func removeAll(partition: String) { inner.removeAll(partition: partition) }
            func removeAll(endpoint: String) { inner.removeAll(endpoint: endpoint) }
            func totalSize() -> Int { inner.totalSize() }
            func entryCount() -> Int { inner.entryCount() }
            var removalCount: UInt64 { inner.removalCount }
        }
        let store = OlderStore()
        let entry = CacheEntry(body: Data(), date: Fixtures.start)
        for id in ["1", "2"] {
            store.setEntry(entry, for: CacheKey(
                endpoint: Self.getAccount, request: Self.account(id), baseURL: Fixtures.baseURL, bodyDigest: nil, partition: nil))
        }

        try await (store as any CacheStore).removeAll(endpoint: "AccountRepository.getAccount", path: "/accounts/1")

        #expect(store.entryCount() == 0)
    }

    // MARK: - When

    enum Failure: String, CaseIterable, Sendable {
        case clientError, serverError, offline
    }

    @Test(arguments: Failure.allCases)
    func aFailedMutationRemovesNothing(_ failure: Failure) async throws {
        let setup = try Setup(.memory)
        try await setup.fetch(Self.account("1"))
        switch failure {
        case .clientError: setup.transport.respond(status: 409)
        case .serverError: setup.transport.respond(status: 503)
        case .offline: setup.transport.fail()
        }

        await #expect(throws: (any Error).self) { try await setup.update("1", invalidating: [Self.accountPath("1")]) }

        #expect(try await setup.isStored(Self.account("1")))
        #expect(await setup.cached(Self.account("1")) == Fixtures.alice)
        #expect(!setup.events.kinds.contains(.evict))
    }

    @Test func aSuccessWhoseBodyDoesNotDecodeStillInvalidates() async throws {
        let setup = try Setup(.memory)
        try await setup.fetch(Self.account("1"))
        setup.transport.respond(status: 200, body: Data("not json".utf8))

        await #expect(throws: CachedClientError.self) {
            let _: Account = try await setup.client.response(
                for: EndpointRequest(method: "PATCH", path: "/accounts/1"), endpoint: Self.updateAccount,
                invalidating: [Self.accountPath("1")])
        }

        #expect(try await !setup.isStored(Self.account("1")))
    }

    @Test func aRemovalThatFailsIsAnErrorEventAndNeverFailsTheCall() async throws {
        let setup = try Setup(.memory) { FlakyStore(failRemovals: true, wrapping: $0) }
        try await setup.fetch(Self.account("1"))

        try await setup.update("1", invalidating: [Self.accountPath("1"), Invalidation(Self.getAccounts)])

        #expect(setup.events.all.filter { $0.kind != .store } == [
            CacheEvent(
                kind: .error, endpoint: "AccountRepository.getAccount", key: String(SHA256.hex(of: "/accounts/1").prefix(16)),
                message: "invalidation by AccountRepository.updateAccount failed: CachedClientTestSupport.StoreFailure 1"),
            CacheEvent(
                kind: .error, endpoint: "AccountRepository.getAccounts", key: "*",
                message: "invalidation by AccountRepository.updateAccount failed: CachedClientTestSupport.StoreFailure 1"),
        ])
        #expect(setup.client.memory.count == 0)  // memory was cleared even though the store failed
    }

    @Test func aFetchUnderWayDuringAnInvalidationDoesNotStoreItsOlderAnswer() async throws {
        let setup = try Setup(.memory)
        let gate = Gate()
        setup.transport.respond { request in
            guard request.method == "GET" else { return HTTPResponse(statusCode: 204) }
            try await gate.pass()
            return HTTPResponse(statusCode: 200, body: Fixtures.body(Fixtures.alice))
        }
        let read = Task { try await setup.fetch(Self.account("1")) }
        await setup.transport.called.wait()

        try await setup.update("1", invalidating: [Self.accountPath("1")])
        gate.open()
        try await read.value

        #expect(try await !setup.isStored(Self.account("1")))
        #expect(await setup.cached(Self.account("1")) == nil)
        try await setup.fetch(Self.account("1"))  // a read after the mutation stores again
        #expect(try await setup.isStored(Self.account("1")))
    }

    @Test func appsCanInvalidateWithoutAMutation() async throws {
        let setup = try Setup(.file)
        defer { setup.removeFolder() }
        try await setup.fetch(Self.account("1"))
        try await setup.fetch(Self.account("2"))

        try await setup.client.invalidate([Self.accountPath("2")])

        #expect(try await setup.isStored(Self.account("1")))
        #expect(try await !setup.isStored(Self.account("2")))
        #expect(setup.events.all.last?.message == "invalidated")
    }
}
