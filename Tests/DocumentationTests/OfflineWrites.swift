import CachedClientRuntime
import CachedClientTesting
import Foundation
import Testing

// The code of OfflineWrites.md.

func rename(_ accounts: some AccountRepository, id: String, to nickname: String) async throws -> String {
    switch try await accounts.updateAccount(id: id, body: AccountUpdate(nickname: nickname)) {
    case .sent(let account):
        return "Renamed to \(account.nickname ?? account.id)"
    case .queued:
        return "Saved: it is sent when the network is back"
    }
}

func pendingBanner(client: CachedClient) -> String? {
    let waiting = client.pendingMutations.waitingCount
    return waiting == 0 ? nil : "\(waiting) changes waiting"
}

func resolveFailures(client: CachedClient) async throws {
    for mutation in client.pendingMutations.items {
        guard case .failed(let failure) = mutation.state else { continue }
        if failure.status == 409 {
            try await client.discardMutation(id: mutation.id)   // the server has a newer version
        } else {
            await client.retryMutation(id: mutation.id)         // sent again, same idempotency key
        }
    }
}

@Suite struct OfflineWritesTests {
    @Test func anEditOfflineIsQueuedShownAndSentWhenTheNetworkIsBack() async throws {
        let (client, transport) = try stubbedClient()
        let accounts = LiveAccountRepository(client: client)
        transport.goOffline()
        #expect(try await rename(accounts, id: "a1", to: "Rent") == "Saved: it is sent when the network is back")
        #expect(pendingBanner(client: client) == "1 changes waiting")

        transport.respond(bankServer)
        await client.replayPendingMutations()
        #expect(pendingBanner(client: client) == nil)
        let patches = transport.requests.filter { $0.method == "PATCH" }
        #expect(patches.count == 2)
        #expect(patches[0].headers["Idempotency-Key"] != nil)
        #expect(patches[0].headers["Idempotency-Key"] == patches[1].headers["Idempotency-Key"])
        #expect(try await rename(accounts, id: "a1", to: "Rent") == "Renamed to a1")
        try await resolveFailures(client: client)
    }
}
