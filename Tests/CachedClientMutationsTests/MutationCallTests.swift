import CachedClientTestSupport
import Foundation
import Testing

@_spi(Generated) import CachedClientCalls
@_spi(Generated) import CachedClientMutations
import CachedClientHTTP
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The mutation layer's uncached calls, `response(for:endpoint:)` and `perform`, through the
/// call path below them: never the store, the status of a failure, a body that cannot be
/// encoded, a POST's retries, and an invalidation that meets writes still pending.
@Suite("Mutation calls")
struct MutationCallTests: RetryScripting {
    @Test func responseAndPerformNeverTouchTheStore() async throws {
        let store = FlakyStore()
        let harness = Harness(store: store)
        var request = EndpointRequest(method: "POST", path: "/transfers")
        request.setJSONBody(Fixtures.alice, isKey: false)

        let account: Account = try await harness.client.response(for: request, endpoint: Fixtures.uncached)
        try await harness.client.perform(request, endpoint: Fixtures.uncached)
        // A cached endpoint called through `response` is not cached either.
        let again: Account = try await harness.client.response(for: Fixtures.request(), endpoint: Fixtures.endpoint())

        #expect(account == Fixtures.alice && again == Fixtures.alice)
        #expect(store.operations == 0)
        #expect(harness.events.all.isEmpty)
        #expect(harness.transport.requests.first?.headers["Content-Type"] == "application/json")
    }

    @Test func responseAndPerformThrowTheStatusOfAFailure() async throws {
        let harness = Harness()
        harness.transport.respond(status: 422, body: Data("{\"error\":\"limit\"}".utf8))
        let request = EndpointRequest(method: "DELETE", path: "/accounts/1")

        await #expect(throws: CachedClientError.httpStatus(422, endpoint: "TransferRepository.createTransfer", body: Data("{\"error\":\"limit\"}".utf8))) {
            try await harness.client.perform(request, endpoint: Fixtures.uncached)
        }
        harness.transport.respond(status: 500)
        await #expect(throws: CachedClientError.httpStatus(500, endpoint: "TransferRepository.createTransfer", body: Data())) {
            let _: Account = try await harness.client.response(for: request, endpoint: Fixtures.uncached)
        }
    }

    @Test func aBodyThatCannotBeEncodedThrowsEncodingFailed() async throws {
        struct Unencodable: Encodable, Sendable {
            func encode(to encoder: any Encoder) throws {
                throw EncodingError.invalidValue(Double.nan, .init(codingPath: [], debugDescription: "NaN"))
            }
        }
        let harness = Harness()
        var request = EndpointRequest(method: "POST", path: "/transfers")
        request.setJSONBody(Unencodable(), isKey: false)

        await #expect {
            try await harness.client.perform(request, endpoint: Fixtures.uncached)
        } throws: { error in
            if case .encodingFailed = error as? CachedClientError { return true }
            return false
        }
        #expect(harness.transport.requestCount == 0)
    }

    @Test func aPOSTIsRetriedOnlyWhenItsSpecSaysSo() async throws {
        let request = EndpointRequest(method: "POST", path: "/transfers")
        var endpoint = Endpoint(name: "AccountRepository.transfer", cache: nil)
        let (once, _) = harness([Self.status(503), Self.ok])
        await #expect(throws: CachedClientError.httpStatus(503, endpoint: endpoint.name, body: Data("{}".utf8))) {
            try await once.client.perform(request, endpoint: endpoint)
        }
        #expect(once.transport.requests.count == 1)

        endpoint.retry = RetryRule(max: 2)
        let (retried, sleeper) = harness([.failure(URLError(.networkConnectionLost)), Self.ok])
        try await retried.client.perform(request, endpoint: endpoint)
        #expect(retried.transport.requests.count == 2)
        #expect(sleeper.recorded == [.milliseconds(500)])
    }

    /// A mutation's invalidation while writes of the key are pending, as the call path's
    /// removals in `CachedClientWriteBehindTests`: nothing of either write is left.
    @Test func aRemovalWhileWritesArePendingLeavesNothingBehind() async throws {
        try await PendingWriteRemoval.check { harness in
            harness.transport.respond(status: 204)
            try await harness.client.perform(
                EndpointRequest(method: "DELETE", path: "/accounts/1"), endpoint: Fixtures.uncached,
                invalidating: [Invalidation(Fixtures.endpoint(), path: "/accounts/{id}") { $0.setPathParameter("id", "1") }])
        }
    }
}
