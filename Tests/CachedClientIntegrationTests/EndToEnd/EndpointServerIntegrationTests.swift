import CachedClientTestSupport
import FixtureServerSupport
import Foundation
import StoreTestSupport
import Testing

@_spi(Generated) @testable import CachedClientRuntime
@_spi(RuntimeLayers) import CachedClientValues

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An endpoint with a server of its own (`Endpoint.server`, an operation's `servers` in
/// OpenAPI) against the real fixture server, serving the client's base URL and the endpoint's
/// own under two base paths: its requests reach its server, with the app's headers and through
/// the middleware; its cache entries are its own.
@Suite("Integration: an endpoint's own server", .timeLimit(.minutes(1)))
struct EndpointServerIntegrationTests {
    /// Records the URL of every request the middleware sees.
    final class URLRecorder: ClientMiddleware {
        let urls = Locked<[String]>([])

        func intercept(
            _ request: HTTPRequest, operation: String, next: @Sendable (HTTPRequest) async throws -> HTTPResponse
        ) async throws -> HTTPResponse {
            urls.withLock { $0.append(request.url.absoluteString) }
            return try await next(request)
        }
    }

    struct Setup {
        let server: FixtureServer
        let prefix = "/servers-\(UUID().uuidString.lowercased())"
        let recorder = URLRecorder()
        let client: CachedClient

        init() async throws {
            server = try await FixtureServer.shared
            client = CachedClient(
                baseURL: URL(string: server.baseURL.absoluteString + prefix + "/api/")!, transport: URLSessionTransport(timeout: 10),
                partition: "user-1", headers: { ["Authorization": "Bearer t1"] }, middleware: [recorder], retry: .none)
        }

        /// The endpoint's own server, as generated code writes it.
        var upload: String { CacheKey.canonicalBase(server.baseURL) + prefix + "/upload" }

        func endpoint(server: String?) -> Endpoint {
            var endpoint = Fixtures.endpoint("Files.getAccount")
            endpoint.server = server
            return endpoint
        }
    }

    @Test func anEndpointWithItsOwnServerIsSentThereAndKeyedApart() async throws {
        let setup = try await Setup()
        try await setup.server.setRoute(setup.prefix + "/api/accounts/1", json: Fixtures.alice)
        try await setup.server.setRoute(setup.prefix + "/upload/accounts/1", json: Fixtures.aliceLater)

        let own = setup.endpoint(server: setup.upload)
        let base = setup.endpoint(server: nil)
        #expect(try await setup.client.value(for: Fixtures.request(), endpoint: own, as: Account.self) == .fresh(value: Fixtures.aliceLater))
        // The same endpoint name, method and path on the client's server: not the entry above.
        #expect(try await setup.client.value(for: Fixtures.request(), endpoint: base, as: Account.self) == .fresh(value: Fixtures.alice))
        await setup.client.flush()
        #expect(
            try await setup.client.value(for: Fixtures.request(), endpoint: own, policy: .cacheOnly, as: Account.self).value
                == Fixtures.aliceLater)
        #expect(
            try await setup.client.value(for: Fixtures.request(), endpoint: base, policy: .cacheOnly, as: Account.self).value
                == Fixtures.alice)

        let requests = try await setup.server.requests().filter { $0.path.hasPrefix(setup.prefix) }
        #expect(requests.map(\.path) == [setup.prefix + "/upload/accounts/1", setup.prefix + "/api/accounts/1"])
        #expect(requests.map { $0.header("Authorization") } == ["Bearer t1", "Bearer t1"])
        #expect(setup.recorder.urls.withLock { $0 } == [setup.upload + "/accounts/1", setup.server.baseURL.absoluteString + setup.prefix + "/api/accounts/1"])
    }

    /// A key names the endpoint's server in place of the client's base URL.
    @Test func theKeyHoldsTheEndpointsServer() {
        var endpoint = Fixtures.endpoint()
        let base = URL(string: "https://api.example.com/v1")!
        let plain = CacheKey(endpoint: endpoint, request: Fixtures.request(), baseURL: base, bodyDigest: nil, partition: "p")
        endpoint.server = "https://upload.example.com/v1"
        let own = CacheKey(endpoint: endpoint, request: Fixtures.request(), baseURL: base, bodyDigest: nil, partition: "p")
        #expect(plain.text.contains("\nbase https://api.example.com/v1\n"))
        #expect(own.text.contains("\nbase https://upload.example.com/v1\n"))
    }

    /// A mutation queued offline keeps its endpoint's server in the outbox, and its replay
    /// (after a relaunch, from the record alone) goes there.
    @Test func aQueuedMutationIsReplayedToItsEndpointsServer() async throws {
        try await withStoreDirectory { directory in
            let server = OfflineServer()
            var endpoint = OfflineFixtures.create
            endpoint.server = "https://upload.example.com/2.0"
            let queued = try await OfflineFixtures.client(server, store: try FileCacheStore(directory: directory))
                .queueableResponse(for: OfflineFixtures.request("one"), endpoint: endpoint, as: Note.self)
            #expect(queued.queuedID != nil)
            // A relaunch: the file store's record alone says where the mutation goes.
            let relaunched = OfflineFixtures.client(server, store: try FileCacheStore(directory: directory))
            #expect(
                try await relaunched.mutationLayer.queue.outbox.queuedMutations(partition: "user-1").map(\.server) == ["https://upload.example.com/2.0"])
            server.online = true
            await relaunched.replayPendingMutations()
            #expect(server.requests.map(\.url.absoluteString) == ["https://upload.example.com/2.0/notes"])
        }
    }
}
