import CachedClientRuntime
import CachedClientTesting
import Foundation
import Testing

// The code of InspectingTheCache.md.

func cacheDebugText(client: CachedClient) async throws -> String {
    guard let inspection = try await client.inspect(
        ttls: ["AccountRepository.getAccounts": 600]    // the spec's ttl, for entries without the server's
    ) else { return "This store cannot be inspected" }
    return inspection.table                             // aligned columns; no body, no credential
}

func endpointsWithStaleEntries(client: CachedClient) async throws -> [String] {
    let inspection = try await client.inspect(ttls: ["AccountRepository.getAccounts": 600])
    return inspection?.groups.filter { $0.stale > 0 }.map(\.endpoint) ?? []
}

func debugDump(client: CachedClient) async throws -> String? {
    try await client.inspect(includingValues: true)?.json()   // bodies too; credentials never
}

@Suite struct InspectingTheCacheTests {
    @Test func theDebugScreenListsWhatTheCallsStored() async throws {
        let (client, _) = try stubbedClient(partition: "user-1")
        let accounts = LiveAccountRepository(client: client)
        _ = try await accounts.getAccounts(page: 1)
        let text = try await cacheDebugText(client: client)
        #expect(text.contains("user-1     AccountRepository.getAccounts        1"))
        #expect(!text.contains("Bearer"))
        #expect(try await endpointsWithStaleEntries(client: client) == [])
        let json = try #require(try await debugDump(client: client))
        #expect(json.contains("\"endpoint\" : \"AccountRepository.getAccounts\""))
        #expect(json.contains("\"kind\" : \"entry\""))
    }
}
