@_spi(Generated) import CachedClientRuntime
import CachedClientTesting
import Foundation
import Testing

/// The goldens generated from real OpenAPI documents, driven through the runtime:
/// petstore-expanded with its overlay's rules, and the union of models that a
/// discriminator chooses in swift-openapi-generator's petstore.
@Suite struct GeneratedOpenAPIClientTests {
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var date = Date(timeIntervalSince1970: 1_800_000_000)
        var now: Date { lock.withLock { date } }
        func advance(_ seconds: TimeInterval) { lock.withLock { date += seconds } }
    }

    let clock = Clock()

    func client(_ transport: StubTransport) -> CachedClient {
        CachedClient(
            baseURL: URL(string: "https://petstore.test/v2")!, store: MemoryCacheStore(), transport: transport,
            partition: "alice", now: { [clock] in clock.now })
    }

    @Test func freshOfflineWithItsDateAndADeleteThatInvalidates() async throws {
        let transport = StubTransport(response: .json(#"{"name": "Rex", "id": 7, "tag": null}"#))
        let pets = LiveSwaggerPetstoreRepository(client: client(transport))
        let fresh = try await pets.findPetById(id: 7)
        #expect(fresh == .fresh(value: Pet(name: "Rex", id: 7)))
        #expect(transport.requests.first?.url.absoluteString == "https://petstore.test/v2/pets/7")
        let storedAt = clock.now

        clock.advance(600)
        transport.goOffline()
        #expect(try await pets.findPetById(id: 7) == .cached(value: Pet(name: "Rex", id: 7), date: storedAt))

        transport.respond { _ in HTTPResponse(statusCode: 204) }
        try await pets.deletePet(id: 7)
        #expect(transport.requests.last?.method == "DELETE")
        transport.goOffline()
        await #expect(throws: (any Error).self) { try await pets.findPetById(id: 7, policy: .cacheOnly) }
    }

    @Test func queryArraysAndTheOverlaysPolicy() async throws {
        let transport = StubTransport(response: .json(#"[{"name": "Rex", "id": 7}]"#))
        let pets = LiveSwaggerPetstoreRepository(client: client(transport))
        _ = try await pets.findPets(tags: ["dog", "cat"], limit: 2)
        // One item per value, as the document asks (form, exploded by default).
        #expect(transport.requests.first?.url.query == "tags=dog&tags=cat&limit=2")
        // cacheFirst (the overlay's policy for findPets): a second call within 10 minutes needs no network.
        transport.goOffline()
        let second = try await pets.findPets(tags: ["dog", "cat"], limit: 2)
        #expect(second.isCached)
    }

    @Test func theDiscriminatorChoosesTheModel() throws {
        let decoder = JSONDecoder()
        let walk = try decoder.decode(StoreOneOfObjectsWithDiscriminator.self, from: Data(#"{"kind": "Walk", "length": 3}"#.utf8))
        #expect(walk == .walk(StoreWalk(kind: "Walk", length: 3)))
        let messaged = try decoder.decode(
            StoreOneOfObjectsWithDiscriminator.self, from: Data(#"{"kind": "MessagedExercise", "message": "hi"}"#.utf8))
        #expect(messaged == .messagedExercise(StoreMessagedExercise(kind: "MessagedExercise", message: "hi")))
        let other = try decoder.decode(StoreOneOfObjectsWithDiscriminator.self, from: Data(#"{"kind": "Swim"}"#.utf8))
        #expect(other == .unknown("Swim"))

        let encoded = try JSONEncoder().encode(StoreOneOfObjectsWithDiscriminator.walk(StoreWalk(kind: "Walk", length: 3)))
        #expect(try decoder.decode(StoreOneOfObjectsWithDiscriminator.self, from: encoded) == walk)
        let unknown = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(other)) as? [String: String]
        #expect(unknown == ["kind": "Swim"])
    }

    @Test func recursiveModelsThroughAUnion() throws {
        let json = #"{"type": "RecursivePetOneOfSecond", "id": 1, "name": "Rex", "kind": "dog"}"#
        let value = try JSONDecoder().decode(StoreRecursivePetOneOf.self, from: Data(json.utf8))
        guard case .recursivePetOneOfSecond(let pet) = value else {
            Issue.record("decoded \(value)")
            return
        }
        #expect(pet.kind == .dog && pet.type == "RecursivePetOneOfSecond")
        let nested = StoreRecursivePet(name: "a", parent: StoreRecursivePet(name: "b"))
        #expect(try JSONDecoder().decode(StoreRecursivePet.self, from: JSONEncoder().encode(nested)) == nested)
    }
}
