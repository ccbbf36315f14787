import CachedClientRuntime
import CachedClientTesting
import Foundation
import Observation
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

@MainActor
func renameAtOnce(
    client: CachedClient, accounts: some AccountRepository, list: CachedQuery<[Account]>, id: String, to nickname: String
) async throws -> MutationResult<Account> {
    try await client.withOptimisticUpdates([
        list.optimisticUpdate { shown in
            if let index = shown.firstIndex(where: { $0.id == id }) { shown[index].nickname = nickname }
        }
    ]) {
        try await accounts.updateAccount(id: id, body: AccountUpdate(nickname: nickname))
    }
}

@MainActor
func saveState(of list: CachedQuery<[Account]>) -> String {
    list.hasPendingChanges ? "Saving…" : "Saved"
}

func renameEverywhere(client: CachedClient, accounts: some AccountRepository, account: Account, to nickname: String)
    async throws -> MutationResult<Account>
{
    var renamed = account
    renamed.nickname = nickname
    return try await client.withOptimisticUpdates([.replacing(renamed)]) {
        try await accounts.updateAccount(id: account.id, body: AccountUpdate(nickname: nickname))
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

    @MainActor
    @Test func aRenameOfflineShowsAtOnceAsPendingAndTheServersAnswerReplacesIt() async throws {
        let (client, transport) = try stubbedClient()
        let accounts = LiveAccountRepository(client: client)
        let list = accounts.getAccountsQuery(page: 1)
        await list.load()
        transport.goOffline()
        let result = try await renameAtOnce(client: client, accounts: accounts, list: list, id: "a1", to: "Rent")
        #expect(result.queuedID != nil)
        #expect(list.value?.first?.nickname == "Rent")
        #expect(saveState(of: list) == "Saving…")

        transport.respond(bankServer)
        await client.replayPendingMutations()
        await waitUntil { saveState(of: list) == "Saved" && !list.isLoading }
        #expect(list.value == [sampleAccount])  // what the server says
    }

    @MainActor
    @Test func anAccountRenamedOfflineShowsRenamedInEveryQueryThatHoldsIt() async throws {
        let (client, transport) = try stubbedClient()
        let accounts = LiveAccountRepository(client: client)
        let list = accounts.getAccountsQuery(page: 1)
        let detail = accounts.getAccountQuery(id: "a1")
        await list.load()
        await detail.load()
        transport.goOffline()
        _ = try await renameEverywhere(client: client, accounts: accounts, account: sampleAccount, to: "Rent")
        #expect(list.value?.first?.nickname == "Rent" && detail.value?.nickname == "Rent")
        #expect(list.hasPendingChanges && detail.hasPendingChanges)
        transport.respond(bankServer)
        await client.replayPendingMutations()
        await waitUntil { !list.hasPendingChanges && !detail.hasPendingChanges && !list.isLoading && !detail.isLoading }
        #expect(detail.value == sampleAccount)  // the server's answer
    }
}

/// Returns once `condition` holds, re-checking after each change of what it reads.
@MainActor
func waitUntil(_ condition: @escaping @MainActor () -> Bool) async {
    while !condition() {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            withObservationTracking { _ = condition() } onChange: { continuation.resume() }
        }
    }
}
