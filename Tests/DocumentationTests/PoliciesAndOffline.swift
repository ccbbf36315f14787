import CachedClientRuntime
import CachedClientTesting
import Foundation
import Testing

// The code of PoliciesAndOffline.md.

@MainActor
func policies(accounts: some AccountRepository, screen: Screen) async throws {
    let quick = try await accounts.getAccounts(page: 1, policy: .cacheFirst)   // no network while fresh
    screen.show(quick.value)
    if let date = quick.date {
        screen.showBanner("Updated \(date)")
    }
}

func offlineFirstScreen(accounts: some AccountRepository) async -> String {
    do {
        let result = try await accounts.getAccount(id: "a1", policy: .cacheOnly)
        return result.isCached ? "from disk" : "from the network"
    } catch CachedClientError.notCached {
        return "nothing stored yet"                      // show an empty state, then fetch
    } catch {
        return error.localizedDescription
    }
}

@Suite struct PoliciesAndOfflineTests {
    @Test @MainActor func offlineTheStoredValueComesWithItsDate() async throws {
        let (client, transport) = try stubbedClient()
        let accounts = LiveAccountRepository(client: client)
        #expect(await offlineFirstScreen(accounts: accounts) == "nothing stored yet")
        let screen = Screen()
        try await policies(accounts: accounts, screen: screen)          // fetched: fresh, no banner
        #expect(screen.shown == ["a1"] && screen.banner == nil)
        transport.goOffline()
        let offline = try await accounts.getAccounts(page: 1, policy: .networkFirst)
        #expect(offline.isCached && offline.date != nil)
        #expect(await offlineFirstScreen(accounts: accounts) == "nothing stored yet")  // a1 was never fetched alone
    }
}
