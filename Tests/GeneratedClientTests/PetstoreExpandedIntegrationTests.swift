@_spi(Generated) import CachedClientRuntime
import FixtureServerSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The client generated from the real petstore-expanded document (with its overlay's
/// rules) end to end: `LiveSwaggerPetstoreRepository` over `URLSessionTransport` and a
/// `FileCacheStore` against `Tests/Fixtures/fixture_server.py` on 127.0.0.1, fresh, then
/// with the server stopped (connection refused), then the overlay's invalidations after
/// a mutation's 2xx (and none after a failure).
@Suite("Integration: the petstore-expanded client against the fixture server", .timeLimit(.minutes(1)))
struct PetstoreExpandedIntegrationTests {
    /// A folder for a store, removed when the test ends.
    struct Folder {
        let url = FileManager.default.temporaryDirectory.appending(path: "cachegen-petstore-\(UUID().uuidString)")
        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    typealias Clock = GeneratedOpenAPIClientTests.Clock

    static let rex = Pet(name: "Rex", tag: "dog", id: 7)
    static let tom = Pet(name: "Tom", id: 8)
    static let petsBody = #"[{"id": 7, "name": "Rex", "tag": "dog"}, {"id": 8, "name": "Tom"}]"#
    static let rexBody = #"{"id": 7, "name": "Rex", "tag": "dog"}"#
    static let json = ["Content-Type": "application/json"]

    let clock = Clock()

    /// A repository as an app makes one: the server's `/v2`, a store on disk, the real transport.
    func pets(_ server: FixtureServer, folder: Folder) throws -> LiveSwaggerPetstoreRepository {
        let client = CachedClient(
            baseURL: server.baseURL.appending(path: "v2"),
            store: try FileCacheStore(directory: folder.url, now: { [clock] in clock.now }),
            transport: URLSessionTransport(timeout: 10), partition: "alice", now: { [clock] in clock.now })
        return LiveSwaggerPetstoreRepository(client: client)
    }

    /// `METHOD path?query` of every request the server logged, oldest first.
    static func log(_ server: FixtureServer) async throws -> [String] {
        try await server.requests().map { "\($0.method) \($0.path)" }
    }

    @Test func freshFromTheServerThenItsStoredValuesWithTheirDateWhenTheServerIsStopped() async throws {
        let folder = Folder()
        defer { folder.remove() }
        let server = try await FixtureServer.start()
        defer { server.stop() }
        try await server.setRoute("/v2/pets", headers: Self.json, body: Self.petsBody)
        try await server.setRoute("/v2/pets/7", headers: Self.json, body: Self.rexBody)
        let pets = try pets(server, folder: folder)

        #expect(try await pets.findPets(tags: ["dog", "cat"], limit: 2) == .fresh(value: [Self.rex, Self.tom]))
        #expect(try await pets.findPetById(id: 7) == .fresh(value: Self.rex))
        // The wire form: the base URL's path, the path parameter, the query (one item per
        // value, as the document's form style with its default explode asks).
        #expect(try await Self.log(server) == ["GET /v2/pets?tags=dog&tags=cat&limit=2", "GET /v2/pets/7"])
        let storedAt = clock.now

        // Past both TTLs (10 and 5 minutes), within maxStale (7 days): each call asks the network.
        clock.advance(3600)
        server.stop()
        #expect(
            try await pets.findPets(tags: ["dog", "cat"], limit: 2) == .cached(value: [Self.rex, Self.tom], date: storedAt))
        #expect(try await pets.findPetById(id: 7) == .cached(value: Self.rex, date: storedAt))
        // Another key of the same endpoint was never stored: the refused connection is the answer.
        await #expect(throws: URLError.self) { try await pets.findPets(tags: ["bird"], limit: nil) }

        // An app launched again offline: a new client over the same folder reads the entries from disk.
        await pets.client.flush()
        let relaunched = try self.pets(server, folder: folder)
        #expect(
            try await relaunched.findPets(tags: ["dog", "cat"], limit: 2)
                == .cached(value: [Self.rex, Self.tom], date: storedAt))
        #expect(try await relaunched.findPetById(id: 7) == .cached(value: Self.rex, date: storedAt))
    }

    @Test func aDeletesSuccessRemovesBothEndpointsEntriesAndItsFailureNone() async throws {
        let folder = Folder()
        defer { folder.remove() }
        let server = try await FixtureServer.start()
        defer { server.stop() }
        try await server.setRoute("/v2/pets", headers: Self.json, body: Self.petsBody)
        try await server.setRoute("/v2/pets/7", headers: Self.json, body: Self.rexBody)
        try await server.setRoute("/v2/pets/7", method: "DELETE", status: 204)
        try await server.setRoute(
            "/v2/pets/7", method: "DELETE", status: 500, headers: Self.json, body: #"{"code": 1, "message": "busy"}"#,
            times: 1)
        let pets = try pets(server, folder: folder)
        _ = try await pets.findPets()
        _ = try await pets.findPetById(id: 7)
        // cacheFirst within its 10 minutes: the stored list, no request.
        #expect(try await pets.findPets() == .cached(value: [Self.rex, Self.tom], date: clock.now))
        #expect(try await Self.log(server) == ["GET /v2/pets", "GET /v2/pets/7"])

        // A 500 removes nothing.
        await #expect(throws: CachedClientError.self) { try await pets.deletePet(id: 7) }
        #expect(try await pets.findPets() == .cached(value: [Self.rex, Self.tom], date: clock.now))
        #expect(try await pets.findPetById(id: 7, policy: .cacheOnly) == .cached(value: Self.rex, date: clock.now))

        // A 204 removes the pet's entry and the lists: the next cacheFirst call asks the server.
        try await pets.deletePet(id: 7)
        try await server.setRoute("/v2/pets", headers: Self.json, body: #"[{"id": 8, "name": "Tom"}]"#)
        await #expect(throws: CachedClientError.notCached(endpoint: "SwaggerPetstoreRepository.find pet by id")) {
            try await pets.findPetById(id: 7, policy: .cacheOnly)
        }
        #expect(try await pets.findPets() == .fresh(value: [Self.tom]))
        #expect(
            try await Self.log(server) == [
                "GET /v2/pets", "GET /v2/pets/7", "DELETE /v2/pets/7", "DELETE /v2/pets/7", "GET /v2/pets",
            ])
    }

    @Test func anAddsSuccessRemovesTheListsAndLeavesThePetsEntries() async throws {
        let folder = Folder()
        defer { folder.remove() }
        let server = try await FixtureServer.start()
        defer { server.stop() }
        try await server.setRoute("/v2/pets", headers: Self.json, body: Self.petsBody)
        try await server.setRoute("/v2/pets/7", headers: Self.json, body: Self.rexBody)
        try await server.setRoute(
            "/v2/pets", method: "POST", status: 201, headers: Self.json, body: #"{"id": 9, "name": "Kit", "tag": "cat"}"#)
        let pets = try pets(server, folder: folder)
        _ = try await pets.findPets(limit: 5)
        _ = try await pets.findPetById(id: 7)

        let kit = Pet(name: "Kit", tag: "cat", id: 9)
        #expect(try await pets.addPet(body: NewPet(name: "Kit", tag: "cat")) == kit)
        let posted = try #require(try await server.requests().last)
        #expect(posted.method == "POST" && posted.path == "/v2/pets")
        #expect(try JSONDecoder().decode(NewPet.self, from: Data(posted.body.utf8)) == NewPet(name: "Kit", tag: "cat"))

        try await server.setRoute(
            "/v2/pets", headers: Self.json, body: #"[{"id": 7, "name": "Rex", "tag": "dog"}, {"id": 9, "name": "Kit", "tag": "cat"}]"#)
        #expect(try await pets.findPets(limit: 5) == .fresh(value: [Self.rex, kit]))
        // addPet invalidates findPets only: the pet's entry is still there.
        #expect(try await pets.findPetById(id: 7, policy: .cacheOnly) == .cached(value: Self.rex, date: clock.now))
        #expect(
            try await Self.log(server) == ["GET /v2/pets?limit=5", "GET /v2/pets/7", "POST /v2/pets", "GET /v2/pets?limit=5"])
    }
}
