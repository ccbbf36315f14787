import CachedClientRuntime
import CachedClientTesting
import Foundation
import Testing

// The code of TestingWithMocks.md.

/// A view model that depends on the protocol, not on `LiveAccountRepository`.
@MainActor final class AccountsModel {
    let accounts: any AccountRepository
    var title = ""
    init(accounts: any AccountRepository) { self.accounts = accounts }

    func load() async {
        do {
            let result = try await accounts.getAccounts(page: 1)
            title = result.isCached ? "\(result.value.count) accounts (offline)" : "\(result.value.count) accounts"
        } catch {
            title = "Could not load accounts"
        }
    }
}

@Suite struct TestingWithMocksTests {
    @Test @MainActor func aMockAnswersWithAStoredValue() async {
        let mock = MockAccountRepository(getAccounts: { page, _, _ in
            .cached(value: [sampleAccount], date: Date(timeIntervalSince1970: 0))
        })
        let model = AccountsModel(accounts: mock)
        await model.load()
        #expect(model.title == "1 accounts (offline)")
    }

    @Test @MainActor func anEndpointWithoutHandlerThrows() async {
        let model = AccountsModel(accounts: MockAccountRepository())
        await model.load()                       // getAccounts throws MockNotImplemented
        #expect(model.title == "Could not load accounts")
    }

    @Test func theStubTransportActsOutTheServerAndGoingOffline() async throws {
        let transport = StubTransport { request in
            try .json([Account(id: "a1", balance: 10, currency: "EUR", openedAt: Date(), kind: .savings, tags: [], limits: [:])])
        }
        let client = CachedClient(baseURL: URL(string: "https://api.example-bank.com/v1")!, transport: transport)
        let accounts = LiveAccountRepository(client: client)

        let first = try await accounts.getAccounts(page: 1)
        #expect(!first.isCached)
        #expect(transport.requests.map(\.description) == ["GET https://api.example-bank.com/v1/accounts?page=1"])

        transport.goOffline()
        let second = try await accounts.getAccounts(page: 1)
        #expect(second.isCached)                 // networkFirst fell back to the stored list
    }
}
