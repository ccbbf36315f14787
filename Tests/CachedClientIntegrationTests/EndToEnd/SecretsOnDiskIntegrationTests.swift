import CachedClientTestSupport
import FixtureServerSupport
import Foundation
import Testing

@_spi(Generated) @testable import CachedClientRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Real requests through `URLSessionTransport` carrying every kind of secret, then every
/// byte of every file under the cache folder searched for them.
@Suite("Integration: no secret ever reaches the cache folder", .timeLimit(.minutes(1)))
struct SecretsOnDiskIntegrationTests {
    static let secrets = [
        "SECRET-BEARER-TOKEN-7f3a",
        "SECRET-COOKIE-91b2",
        "SECRET-API-KEY-c4d5",
        "SECRET-DECLARED-HEADER-0e1f",
        "SECRET-SET-COOKIE-e6f7",
        "SECRET-TRANSFER-RESPONSE-8a9b",
        "SECRET-TRANSFER-REQUEST-2c3d",
        "SECRET-SEARCH-TERM-4e5f",
    ]

    @Test func aScanOfEveryByteUnderTheCacheFolderFindsNoSecret() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "cachegen-secrets-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await FixtureServer.shared
        let prefix = "/test-\(UUID().uuidString.lowercased())"
        let clock = TestClock()
        let client = CachedClient(
            baseURL: URL(string: server.baseURL.absoluteString + prefix + "/v1")!,
            store: try FileCacheStore(directory: directory, now: clock.function),
            transport: URLSessionTransport(timeout: 10), partition: "user-1",
            headers: {
                [
                    "Authorization": "Bearer SECRET-BEARER-TOKEN-7f3a",
                    "Cookie": "session=SECRET-COOKIE-91b2",
                    "X-Api-Key": "SECRET-API-KEY-c4d5",
                ]
            },
            now: clock.function)
        // The stored body has a marker of its own: finding it proves the scan reads entries.
        let account = Account(id: "PUBLIC-BODY-MARKER", balance: 10)
        try await server.setRoute(
            prefix + "/v1/accounts/1", headers: ["Set-Cookie": "sid=SECRET-SET-COOKIE-e6f7; HttpOnly", "ETag": "\"e1\""],
            json: account)
        try await server.setRoute(
            prefix + "/v1/transfers", method: "POST", status: 201,
            headers: ["Set-Cookie": "sid=SECRET-SET-COOKIE-e6f7"],
            json: Account(id: "SECRET-TRANSFER-RESPONSE-8a9b", balance: 1))
        try await server.setRoute(
            prefix + "/v1/search", method: "POST", headers: ["Set-Cookie": "sid=SECRET-SET-COOKIE-e6f7"], json: account)

        // A cached GET with a declared, non-key header; stored, then revalidated (304).
        var request = Fixtures.request()
        request.addHeader("X-Device-Secret", "SECRET-DECLARED-HEADER-0e1f", isKey: false)
        _ = try await client.value(for: request, endpoint: Fixtures.endpoint(), as: Account.self)
        clock.advance(by: Fixtures.ttl + 1)
        _ = try await client.value(for: request, endpoint: Fixtures.endpoint(), policy: .cacheFirst, as: Account.self)
        // A cached POST whose body is in the key: only its digest is kept.
        var search = EndpointRequest(method: "POST", path: "/search")
        search.setJSONBody(["query": "SECRET-SEARCH-TERM-4e5f"], isKey: true)
        _ = try await client.value(for: search, endpoint: Fixtures.endpoint("AccountRepository.search"), as: Account.self)
        // A `cache: false` call: neither its request nor its answer is stored.
        var transfer = EndpointRequest(method: "POST", path: "/transfers")
        transfer.setJSONBody(["memo": "SECRET-TRANSFER-REQUEST-2c3d"], isKey: false)
        let created: Account = try await client.response(for: transfer, endpoint: Fixtures.uncached)
        #expect(created.id == "SECRET-TRANSFER-RESPONSE-8a9b")

        // The secrets did travel: the server saw every one it was sent.
        let sent = try await server.requests().filter { $0.path.hasPrefix(prefix) }
        #expect(sent.count == 4)
        let sentText = sent.map { "\($0.headers) \($0.body)" }.joined()
        for secret in Self.secrets where !secret.contains("RESPONSE") && !secret.contains("SET-COOKIE") {
            #expect(sentText.contains(secret), "\(secret) was never sent, so the scan would prove nothing")
        }

        await client.flush()  // every write has landed: nothing is left out of the scan
        let (files, bytes) = try Self.everyFile(under: directory)
        // The account and the search, besides the store's removal counter (eight bytes, scanned too).
        #expect(files.filter { !$0.hasSuffix("/" + FileCacheStore.RemovalCounter.fileName) }.count == 2)
        #expect(bytes.range(of: Data("PUBLIC-BODY-MARKER".utf8)) != nil)
        for secret in Self.secrets {
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) is on disk")
            #expect(!files.contains { $0.contains(secret) })
        }
    }

    /// The paths of every file under `directory` (any name, hidden ones included) and all
    /// their bytes, file names included.
    static func everyFile(under directory: URL) throws -> (files: [String], bytes: Data) {
        var files: [String] = []
        var bytes = Data()
        let paths = FileManager.default.subpaths(atPath: directory.path) ?? []
        for path in paths {
            let full = directory.path + "/" + path
            bytes.append(Data(full.utf8))
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue else {
                continue
            }
            files.append(full)
            bytes.append(try Data(contentsOf: URL(fileURLWithPath: full)))
        }
        return (files, bytes)
    }
}
