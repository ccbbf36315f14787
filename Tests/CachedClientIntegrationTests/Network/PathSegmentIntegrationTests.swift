import CachedClientTestSupport
import Foundation
import Testing

@_spi(Generated) @testable import CachedClientRuntime

/// A path parameter never leaves its segment, whatever its value: against the real fixture
/// server, which logs the request target exactly as it arrived.
@Suite("Integration: path parameters stay in their segment", .timeLimit(.minutes(1)))
struct PathSegmentIntegrationTests {
    typealias Setup = URLSessionIntegrationTests.Setup

    @Test(arguments: [
        ("..", "/v1/accounts/%2E%2E"),
        (".", "/v1/accounts/%2E"),
        ("../transfers", "/v1/accounts/..%2Ftransfers"),
        ("a/../../b", "/v1/accounts/a%2F..%2F..%2Fb"),
        ("...", "/v1/accounts/..."),
    ])
    func aGetReachesOnlyItsOwnResourceAndIsKeyedByIt(id: String, sent: String) async throws {
        let setup = try await Setup()
        try await setup.setRoute(sent, json: Fixtures.alice)

        #expect(try await setup.account(id) == .fresh(value: Fixtures.alice))
        #expect(try await setup.requests().map(\.path) == [sent])
        // The key holds the same encoded path, so no other resource's entry answers for it.
        #expect(Fixtures.request(id: id).path == String(sent.dropFirst("/v1".count)))
        #expect(try await setup.account(id, policy: .cacheOnly) == .cached(value: Fixtures.alice, date: Fixtures.start))
    }

    @Test(arguments: ["PUT", "DELETE", "POST"])
    func aMutationWithDotDotCarriesTheUsersCredentialsToThatSegmentOnly(method: String) async throws {
        let setup = try await Setup(headers: { ["Authorization": "Bearer secret"] })
        try await setup.setRoute("/v1/accounts/%2E%2E", method: method, json: Fixtures.alice)
        var request = EndpointRequest(method: method, path: "/accounts/{id}")
        request.setPathParameter("id", "..")

        let answer: Account = try await setup.client.response(for: request, endpoint: Fixtures.uncached)

        #expect(answer == Fixtures.alice)
        let sent = try #require(try await setup.requests().first)
        #expect(sent.method == method)
        #expect(sent.path == "/v1/accounts/%2E%2E")
    }
}
