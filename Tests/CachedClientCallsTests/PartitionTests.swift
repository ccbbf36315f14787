import CachedClientTestSupport
import Foundation
import Testing

@_spi(Generated) import CachedClientCalls
import CachedClientFileStore
import CachedClientHTTP
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// Signed out (`nil`) and a user whose id is empty (`""`) are two partitions: neither ever
/// reads the other's entries, and removing one leaves the other's.
@Suite("Partitions: signed out is nobody's")
struct PartitionTests {
    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "cachegen-partition-\(UUID().uuidString)")
    }

    @Test func anEmptyUserIdNeverReadsTheSignedOutEntriesNorTheOtherWayRound() async throws {
        let directory = Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let harness = Harness(store: try FileCacheStore(directory: directory), partition: nil)
        #expect(try await harness.value() == .fresh(value: Fixtures.alice))  // stored while signed out

        harness.client.setPartition("")
        await #expect(throws: CachedClientError.notCached(endpoint: Fixtures.endpoint().name)) {
            try await harness.value(policy: .cacheOnly)
        }
        harness.transport.respond(status: 200, body: Fixtures.body(Fixtures.aliceLater))
        #expect(try await harness.value() == .fresh(value: Fixtures.aliceLater))  // the "" user's own

        harness.client.setPartition(nil)
        #expect(try await harness.value(policy: .cacheOnly).value == Fixtures.alice)
    }

    @Test func removingTheEmptyUsersEntriesLeavesTheSignedOutOnes() async throws {
        let directory = Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let harness = Harness(store: try FileCacheStore(directory: directory), partition: nil)
        _ = try await harness.value()
        harness.client.setPartition("")
        _ = try await harness.value()

        try await harness.client.removeAll(partition: "")

        #expect(try await harness.client.usage().entries == 1)
        harness.client.setPartition(nil)
        #expect(try await harness.value(policy: .cacheOnly).isCached)
    }

    @Test func theKeyTextSaysSignedOutApartFromAnyUser() {
        let signedOut = CacheKey(endpoint: Fixtures.endpoint(), request: Fixtures.request(), baseURL: Fixtures.baseURL, bodyDigest: nil, partition: nil)
        let empty = CacheKey(endpoint: Fixtures.endpoint(), request: Fixtures.request(), baseURL: Fixtures.baseURL, bodyDigest: nil, partition: "")
        let named = CacheKey(endpoint: Fixtures.endpoint(), request: Fixtures.request(), baseURL: Fixtures.baseURL, bodyDigest: nil, partition: "*signed-out*")
        #expect(signedOut.text.hasSuffix("\npartition *signed-out*\nshape Account{id:string,balance:double}"))
        #expect(empty.text.contains("\npartition \nshape"))
        #expect(named.text.contains("\npartition %2Asigned-out%2A\n"))
        #expect(signedOut.partition == nil && empty.partition == "" && named.partition == "*signed-out*")
        #expect(Set([signedOut.text, empty.text, named.text]).count == 3)
    }
}
