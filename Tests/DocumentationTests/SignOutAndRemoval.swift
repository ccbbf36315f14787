import CachedClientRuntime
import CachedClientTesting
import Foundation
import Testing

// The code of SignOutAndRemoval.md.

func signOut(client: CachedClient) async throws {
    guard let user = client.partition else { return }
    client.setPartition(nil)                          // later calls are nobody's
    try await client.removeAll(partition: user)       // no byte of that user's entries stays
}

func switchUser(client: CachedClient, to newUser: String) {
    client.setPartition(newUser)                      // the old user's entries stay until removed
}

func clearCacheButton(client: CachedClient) async throws -> String {
    try await client.removeAll()                      // every user's, shared entries too
    return "Cached data: \(try await client.usage())" // "Cached data: 0 entries, 0 bytes"
}

func forgetAccountList(client: CachedClient) async throws {
    try await client.removeAll(endpoint: "AccountRepository.getAccounts")
}

@Suite struct SignOutAndRemovalTests {
    @Test func afterSignOutNothingOfTheUserIsServed() async throws {
        let (client, transport) = try stubbedClient(partition: "user-1")
        let accounts = LiveAccountRepository(client: client)
        _ = try await accounts.getAccounts(page: 1)
        try await signOut(client: client)
        switchUser(client: client, to: "user-1")          // the same user, back and offline
        transport.goOffline()
        await #expect(throws: CachedClientError.notCached(endpoint: "AccountRepository.getAccounts")) {
            try await accounts.getAccounts(page: 1, policy: .cacheOnly)
        }
        #expect(try await clearCacheButton(client: client) == "Cached data: 0 entries, 0 bytes")
    }
}
