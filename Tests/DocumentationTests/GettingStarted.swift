import CachedClientRuntime
import CachedClientTesting
import Foundation
import Testing

// The code of GettingStarted.md; the README shows its first function.

@MainActor
func gettingStarted(session: Session, screen: Screen) async throws {
    let client = CachedClient(
        baseURL: URL(string: "https://api.example-bank.com/v1")!,
        store: try FileCacheStore(),                        // the platform's cache folder
        partition: session.userID,                          // one user's entries are never another's
        headers: { ["Authorization": "Bearer " + (try await session.token())] })  // sent, never stored
    let accounts = LiveAccountRepository(client: client)

    let result = try await accounts.getAccounts(page: 1)    // the spec's default policy
    switch result {
    case .fresh(let list):
        screen.show(list)
    case .cached(let list, let date):
        screen.show(list)
        screen.showBanner("Offline – updated \(date)")
    }
}

@MainActor
func gettingStartedStream(accounts: some AccountRepository, screen: Screen) async throws {
    for try await update in accounts.getAccountsStream(page: 1) {  // stored first, then fresh
        screen.show(update.value)
    }
}

@MainActor
func gettingStartedTransfer(accounts: some AccountRepository) async throws -> Transfer {
    let request = TransferRequest(fromAccount: "a1", toIBAN: "DE02120300000000202051", amount: 20)
    let transfer = try await accounts.createTransfer(body: request)  // cache: false → a plain Transfer
    return transfer
}

@Suite struct GettingStartedTests {
    @Test @MainActor func theStreamShowsTheStoredValueThenTheFreshOne() async throws {
        let (client, _) = try stubbedClient()
        let accounts = LiveAccountRepository(client: client)
        _ = try await accounts.getAccounts(page: 1)
        let screen = Screen()
        try await gettingStartedStream(accounts: accounts, screen: screen)
        #expect(screen.shown == ["a1"])
    }
}
