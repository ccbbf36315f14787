@_spi(Generated) import CachedClientRuntime
import Foundation

// The store under two `CachedClient`s, as an app and its extension or two services share
// one: each sees the other's writes, and a removal through either client or through the
// store reaches the other's in-memory layer, which relies on `removalCount`.
extension CacheStoreConformance {
    /// A value the clients decode.
    struct Account: Codable, Sendable, Equatable {
        var id: String
        var balance: Double
    }

    /// Two clients on one store, one endpoint and one request.
    struct ClientPair {
        static let baseURL = URL(string: "https://api.example.com/v1")!
        static let endpoint = Endpoint(
            name: Keys.endpoint, cache: CacheRule(ttl: 60, maxStale: 3_600), shape: "Account{id:string,balance:double}")
        static var request: EndpointRequest {
            var request = EndpointRequest(method: "GET", path: "/accounts/{id}")
            request.setPathParameter("id", "1")
            return request
        }

        let store: any CacheStore
        /// Fetches and holds the value in memory.
        let holder: CachedClient
        /// Removes.
        let other: CachedClient

        /// The key both clients store the request under.
        var key: CacheKey {
            CacheKey(endpoint: Self.endpoint, request: Self.request, baseURL: Self.baseURL, bodyDigest: nil, partition: "alice")
        }

        static func make(_ context: Context) async throws -> ClientPair {
            let store = try await context.makeStore()
            let transport = StubTransport(response: .json("{\"id\":\"1\",\"balance\":10}"))
            let clock = context.clock
            func client() -> CachedClient {
                CachedClient(
                    baseURL: baseURL, store: store, transport: transport, partition: "alice", now: { clock.now },
                    collapsing: .disabled)
            }
            return ClientPair(store: store, holder: client(), other: client())
        }

        func value(_ client: CachedClient, policy: CachePolicy) async throws -> CachedValue<Account> {
            try await client.value(for: Self.request, endpoint: Self.endpoint, policy: policy, as: Account.self)
        }

        /// The holder fetches and holds the value; the other client reads it from the store.
        func hold(_ context: Context) async throws {
            _ = try await value(holder, policy: .networkOnly)
            await holder.flush()
            try context.expect(try await store.entry(for: key) != nil, "a client's answer did not reach the store after flush()")
            try context.expect(
                try await value(other, policy: .cacheOnly).isCached, "a second client on the store did not read the first one's answer")
            try context.expect(try await value(holder, policy: .cacheOnly).isCached, "the holder could not read its own answer")
        }

        /// Fails unless the holder no longer serves the value after `removal`.
        func expectRemoved(_ context: Context, by removal: String) async throws {
            try context.expect(try await store.entry(for: key) == nil, "\(removal) left the entry in the store")
            do {
                let served = try await value(holder, policy: .cacheOnly)
                throw context.failure(
                    "after \(removal), a client holding the value in memory still served it (\(served.isCached ? "cached" : "fresh")); "
                        + "removalCount must grow with every removeAll…, and be seen by every client of the store")
            } catch CachedClientError.notCached {
                return
            }
        }
    }

    /// One check per way of removing: the holder never serves from memory what another
    /// client, or the store itself, removed.
    static var clientChecks: [Check] {
        let removals: [(String, String, @Sendable (ClientPair) async throws -> Void)] = [
            ("anotherClientsRemoveAllIsSeen", "client.removeAll()", { try await $0.other.removeAll() }),
            ("anotherClientsSignOutIsSeen", "client.removeAll(partition:)", { try await $0.other.removeAll(partition: "alice") }),
            ("anotherClientsEndpointRemovalIsSeen", "client.removeAll(endpoint:)", { try await $0.other.removeAll(endpoint: Keys.endpoint) }),
            ("anotherClientsInvalidationIsSeen", "client.invalidate (endpoint and path)", { pair in
                try await pair.other.invalidate([Invalidation(ClientPair.endpoint, path: "/accounts/{id}") { $0.setPathParameter("id", "1") }])
            }),
            ("theStoresOwnRemovalIsSeen", "store.removeAll(partition:)", { try await $0.store.removeAll(partition: "alice") }),
        ]
        return removals.map { id, removal, remove in
            Check(id, "A value one client holds in memory is not served after \(removal) through another client or the store.") { context in
                let pair = try await ClientPair.make(context)
                try await pair.hold(context)
                try await remove(pair)
                try await pair.expectRemoved(context, by: removal)
            }
        }
    }
}
