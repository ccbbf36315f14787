@_spi(Generated) import CachedClientRuntime
import FixtureServerSupport
import Foundation
import Observation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The generated query factories (`getAccountsQuery(page:)`) of the Accounts golden: live
/// over `LiveAccountRepository` against the fixture server, and plain over
/// `MockAccountRepository` for previews.
@Suite("Generated live queries", .timeLimit(.minutes(1)))
@MainActor
struct GeneratedQueryTests {
    static let json = ["Content-Type": "application/json"]

    static func accountJSON(nickname: String?) -> String {
        """
        {"id": "a1", "balance": 12.5, "currency": "EUR", "opened_at": "2024-05-01T10:00:00Z",
         "kind": "checking", "tags": [], "limits": {}, "nickname": \(nickname.map { "\"\($0)\"" } ?? "null")}
        """
    }

    @Test func aGeneratedQueryRefetchesAfterTheMutationThatInvalidatesIt() async throws {
        let server = try await FixtureServer.shared
        let prefix = "/generated-query-\(UUID().uuidString.lowercased())"
        try await server.setRoute(prefix + "/v1/accounts", headers: Self.json, body: "[\(Self.accountJSON(nickname: nil))]")
        let client = CachedClient(
            baseURL: URL(string: server.baseURL.absoluteString + prefix + "/v1")!,
            transport: URLSessionTransport(timeout: 10), partition: "alice")
        let repository = LiveAccountRepository(client: client)
        let accounts = repository.getAccountsQuery(page: 1)
        await accounts.load()
        #expect(accounts.value?.map(\.nickname) == [nil])
        try await server.setRoute(prefix + "/v1/accounts", headers: Self.json, body: "[\(Self.accountJSON(nickname: "Main"))]")
        try await server.setRoute(
            prefix + "/v1/accounts/a1", method: "PATCH", headers: Self.json, body: Self.accountJSON(nickname: "Main"))

        try await renameAccount("a1", to: "Main", in: repository)

        await waitUntil { accounts.value?.first?.nickname == "Main" && !accounts.isLoading }
        let log = try await server.requests().filter { $0.path.hasPrefix(prefix) }.map { "\($0.method) \($0.path.dropFirst(prefix.count))" }
        #expect(log == ["GET /v1/accounts?page=1", "PATCH /v1/accounts/a1", "GET /v1/accounts?page=1"])
    }

    /// `getAccountsQuery(updating:page:)`: the query keeps page 1 on screen, a placeholder,
    /// until page 2 arrives.
    @Test func aGeneratedFactoryPointsAQueryAtNewArguments() async throws {
        let server = try await FixtureServer.shared
        let prefix = "/generated-query-\(UUID().uuidString.lowercased())"
        try await server.setRoute(prefix + "/v1/accounts?page=1", headers: Self.json, body: "[\(Self.accountJSON(nickname: "One"))]")
        try await server.setRoute(prefix + "/v1/accounts?page=2", headers: Self.json, body: "[\(Self.accountJSON(nickname: "Two"))]")
        let client = CachedClient(
            baseURL: URL(string: server.baseURL.absoluteString + prefix + "/v1")!,
            transport: URLSessionTransport(timeout: 10), partition: "alice")
        let repository = LiveAccountRepository(client: client)
        let accounts = repository.getAccountsQuery(page: 1)
        await accounts.load()

        repository.getAccountsQuery(updating: accounts, page: 2)

        #expect(accounts.value?.map(\.nickname) == ["One"] && accounts.isPlaceholder)
        await waitUntil { accounts.value?.first?.nickname == "Two" && !accounts.isLoading }
        #expect(!accounts.isPlaceholder && accounts.error == nil)
        let log = try await server.requests().filter { $0.path.hasPrefix(prefix) }.map { "\($0.method) \($0.path.dropFirst(prefix.count))" }
        #expect(log == ["GET /v1/accounts?page=1", "GET /v1/accounts?page=2"])
    }

    @Test func aMockRepositoryGivesQueriesOverMockDataForPreviews() async throws {
        let updated = Date(timeIntervalSince1970: 1_800_000_000)
        let account = try JSONCoding(dates: .iso8601).makeDecoder().decode(Account.self, from: Data(Self.accountJSON(nickname: "Main").utf8))
        let repository: any AccountRepository = MockAccountRepository(getAccounts: { page, _, policy in
            #expect(page == 1 && policy == nil)
            return .cached(value: [account], date: updated)
        })
        let accounts = repository.getAccountsQuery(page: 1)

        await accounts.load()

        #expect(accounts.value == [account] && accounts.date == updated && accounts.error == nil)
        #expect(AgeBanner.text(for: accounts, now: updated.addingTimeInterval(5 * 60 + 10)) == "Updated 5 min ago, offline")
    }
}
