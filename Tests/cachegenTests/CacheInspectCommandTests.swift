import FixtureServerSupport
import Foundation
import Testing

@_spi(Generated) import CachedClientCalls
import CachedClientFileStore
import CachedClientStore
@_spi(Generated) import CachedClientValues

/// `cachegen-cache inspect`, run as a child process on a cache folder a `FileCacheStore`
/// wrote: its exact table, its JSON, bodies only with `--values` and never a credential,
/// damaged files as rows, and its exit codes.
@Suite("cachegen-cache inspect", .timeLimit(.minutes(1)))
struct CacheInspectCommandTests {
    static let now = "2026-05-01T12:00:00Z"
    static let secrets = ["SECRET-TENANT-5e6f", "SECRET-API-KEY-3c4d", "SECRET-QUERY-7a8b", "SECRET-IDEMPOTENCY-9c0d"]

    @Test func theTableOfAKnownFolderWordForWord() async throws {
        let folder = try await Self.knownFolder()
        let result = try await ChildProcess.run("cachegen-cache", ["inspect", folder.url.path, "--now", Self.now], limit: 30)
        #expect(result.status == 0)
        #expect(result.errors == "")
        #expect(
            result.output == """
                Cache in \(folder.url.path)
                Inspected at 2026-05-01T12:00:00Z

                ENTRIES
                PARTITION  ENDPOINT                      ENTRIES  SIZE       OLDEST  NEWEST  FRESH  STALE  UNKNOWN  PINNED
                shared     RateRepository.getRates             1  275 bytes  1d      1d          0      0        1  none
                user-1     AccountRepository.getAccount        2  626 bytes  2h      5m          1      0        1  none
                user-2     AccountRepository.getAccount        1  297 bytes  30s     30s         0      0        1  none
                total                                          4  1.2 KB

                WAITING MUTATIONS
                PARTITION   ENDPOINT                   METHOD  AGE  ATTEMPTS  BODY      STATUS
                signed-out  NoteRepository.createNote  POST    1h          3  24 bytes  failed: HTTP 422
                user-1      NoteRepository.createNote  POST    2m          0  24 bytes  waiting

                """)
    }

    /// The entries a prefetch plan in the folder pins (as a prefetch leaves one) are counted
    /// in the PINNED column of their row; other rows say `none`.
    @Test func entriesAPlanPinsAreCounted() async throws {
        let folder = try await Self.knownFolder()
        let store = try FileCacheStore(directory: folder.url, now: { Self.date })
        let call = PrefetchPlan.Call(
            request: Data("{}".utf8), key: PrefetchPlan.PinnedKey(Self.key("1", partition: "user-1")), isDone: true, bytes: 27)
        try await store.savePrefetchPlan(PrefetchPlan(name: "trip", partition: "user-1", calls: [call], createdAt: Self.date))
        let result = try await ChildProcess.run("cachegen-cache", ["inspect", folder.url.path, "--now", Self.now], limit: 30)
        #expect(result.status == 0)
        let rows = result.output.split(separator: "\n").filter { $0.contains("Repository.get") }
        #expect(rows.map { $0.split(separator: " ").last ?? "" } == ["none", "1", "none"])
    }

    @Test func jsonHasStableFieldsAndTTLsJudgeFreshness() async throws {
        let folder = try await Self.knownFolder()
        let result = try await ChildProcess.run(
            "cachegen-cache", ["inspect", folder.url.path, "--json", "--now", Self.now, "--ttl", "AccountRepository.getAccount=3600"],
            limit: 30)
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(Set(json.keys) == ["format", "date", "groups", "mutations", "unreadable"])
        #expect(json["format"] as? Int == 1)
        #expect(json["date"] as? String == Self.now)
        let groups = try #require(json["groups"] as? [[String: Any]])
        #expect(groups.count == 3)
        for group in groups {
            #expect(
                Set(group.keys) == [
                    "scope", "partition", "endpoint", "entries", "bytes", "oldest", "newest", "fresh", "stale",
                    "unknownFreshness", "pinned",
                ])
        }
        #expect(groups.map { $0["scope"] as? String } == ["shared", "user", "user"])
        #expect(groups.map { $0["partition"] as? String } == [nil, "user-1", "user-2"])
        // With a ttl of an hour for getAccount: the 2-hour-old entry is stale, the others fresh.
        #expect(groups.map { $0["fresh"] as? Int } == [0, 1, 1])
        #expect(groups.map { $0["stale"] as? Int } == [0, 1, 0])
        #expect(groups.map { $0["oldest"] as? String } == ["2026-04-30T12:00:00Z", "2026-05-01T10:00:00Z", "2026-05-01T11:59:30Z"])
        let mutations = try #require(json["mutations"] as? [[String: Any]])
        #expect(mutations.map { $0["failure"] is NSNull } == [false, true])
        #expect(
            Set(mutations[0].keys) == [
                "scope", "partition", "endpoint", "method", "createdAt", "attempts", "bodyBytes", "failure", "sequence", "id",
            ])
        for secret in Self.secrets { #expect(!result.output.contains(secret)) }
    }

    @Test func valuesShowBodiesButNeverCredentials() async throws {
        let folder = try await Self.knownFolder()
        // The secrets are in the folder (key text, outbox record): hiding them is the command's doing.
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder.url.path)
            .compactMap { FileManager.default.contents(atPath: folder.url.path + "/" + $0) }
            .map { String(decoding: $0, as: UTF8.self) }.joined()
        for secret in Self.secrets { #expect(files.contains(secret), "\(secret) is not on disk") }
        for arguments in [["--values"], ["--values", "--json"]] {
            let result = try await ChildProcess.run(
                "cachegen-cache", ["inspect", folder.url.path, "--now", Self.now] + arguments, limit: 30)
            #expect(result.status == 0)
            #expect(result.output.contains("ACCOUNT-BODY-1"))
            #expect(result.output.contains("MUTATION-BODY"))
            for secret in Self.secrets { #expect(!result.output.contains(secret), "\(secret) printed with \(arguments)") }
        }
        let plain = try await ChildProcess.run("cachegen-cache", ["inspect", folder.url.path, "--now", Self.now], limit: 30)
        #expect(!plain.output.contains("ACCOUNT-BODY-1"))
        #expect(!plain.output.contains("MUTATION-BODY"))
    }

    @Test func aGarbledFileIsARowAndTheRestIsStillListed() async throws {
        let folder = try await Self.knownFolder()
        let store = try FileCacheStore(directory: folder.url)
        let path = store.entryPath(for: Self.key("2", partition: "user-1"))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[bytes.count / 2] ^= 0x5A
        try bytes.write(to: URL(fileURLWithPath: path))
        let relative = String(path.dropFirst(folder.url.path.count + 1))
        let result = try await ChildProcess.run("cachegen-cache", ["inspect", folder.url.path, "--now", Self.now], limit: 30)
        #expect(result.status == 0)
        #expect(result.output.hasSuffix("""
            UNREADABLE FILES
            FILE\(String(repeating: " ", count: relative.count - 2))REASON
            \(relative)  checksum mismatch

            """))
        #expect(result.output.contains("user-1     AccountRepository.getAccount        1"))
    }

    @Test func exitCodesAndMessages() async throws {
        let empty = try TemporaryDirectory()
        let missing = try await ChildProcess.run("cachegen-cache", ["inspect", empty.url.path], limit: 30)
        #expect(missing.status == 1)
        #expect(
            missing.errors
                == "error: FileCacheStore could not find a cache (a v2 folder) in \(empty.url.path): No such file or directory (errno 2)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty.url.path).isEmpty, "the command wrote into the folder")
        let cases: [([String], String)] = [
            (["inspect"], "error: inspect needs a folder, the FileCacheStore's directory"),
            (["inspect", "a", "b"], "error: inspect takes one folder"),
            (["inspect", "a", "--now", "yesterday"], "error: --now must be an ISO 8601 date such as 2026-05-01T12:00:00Z, not 'yesterday'"),
            (["inspect", "a", "--ttl", "60"], "error: --ttl must be <Repository.method>=<seconds>, not '60'"),
            (["inspect", "a", "--verbose"], "error: unknown option '--verbose' for inspect"),
            (["list"], "error: unknown command 'list'; use 'inspect' (see cachegen-cache --help)"),
        ]
        for (arguments, message) in cases {
            let result = try await ChildProcess.run("cachegen-cache", arguments, limit: 30)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.errors == message + "\n")
        }
        let help = try await ChildProcess.run("cachegen-cache", ["--help"], limit: 30)
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("OVERVIEW: Look inside a cachegen cache folder"))
    }

    // MARK: - The folder

    static let base = URL(string: "https://api.example.com/v1")!
    static let date = ISO8601DateFormatter().date(from: now)!

    static func key(_ id: String, partition: String?, endpoint name: String = "AccountRepository.getAccount") -> CacheKey {
        let isRates = name == "RateRepository.getRates"
        var request = EndpointRequest(method: "GET", path: isRates ? "/rates" : "/accounts/{id}")
        if !isRates { request.setPathParameter("id", id) }
        request.addHeader("X-Tenant-Key", "SECRET-TENANT-5e6f", isKey: true)
        let scope: CacheScope = isRates ? .shared : .user
        let endpoint = Endpoint(name: name, cache: CacheRule(ttl: 60, maxStale: 86_400 * 7, scope: scope), shape: "Account")
        return CacheKey(endpoint: endpoint, request: request, baseURL: base, bodyDigest: nil, partition: partition)
    }

    /// Three endpoints' entries in two partitions and shared, a waiting and a failed
    /// mutation, every secret of a request in the files.
    static func knownFolder() async throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        let store = try FileCacheStore(directory: folder.url, now: { date })
        func body(_ marker: String) -> Data { Data("{\"id\":\"\(marker)\"}".utf8) }
        try await store.setEntry(
            CacheEntry(body: body("ACCOUNT-BODY-1"), date: date.addingTimeInterval(-7_200)), for: key("1", partition: "user-1"))
        try await store.setEntry(
            CacheEntry(body: body("ACCOUNT-BODY-2"), date: date.addingTimeInterval(-300), freshness: ServerFreshness(lifetime: 600)),
            for: key("2", partition: "user-1"))
        try await store.setEntry(CacheEntry(body: body("ACCOUNT-BODY-3"), date: date.addingTimeInterval(-30)), for: key("1", partition: "user-2"))
        try await store.setEntry(
            CacheEntry(body: body("RATES"), date: date.addingTimeInterval(-86_400)),
            for: key("", partition: "user-1", endpoint: "RateRepository.getRates"))
        _ = try await store.enqueueMutation(mutation(partition: "user-1", createdAt: date.addingTimeInterval(-120), id: "00000000-0000-4000-8000-000000000001"))
        var failed = mutation(partition: nil, createdAt: date.addingTimeInterval(-3_700), id: "00000000-0000-4000-8000-000000000002")
        failed.attempts = 3
        failed.failure = MutationFailure(status: 422, message: "HTTP 422")
        _ = try await store.enqueueMutation(failed)
        return folder
    }

    static func mutation(partition: String?, createdAt: Date, id: String) -> QueuedMutation {
        QueuedMutation(
            id: id, partition: partition, scope: "/notes", endpoint: "NoteRepository.createNote", method: "POST",
            path: "/notes", query: [.init(name: "api_key", value: "SECRET-QUERY-7a8b")],
            headers: [.init(name: "X-Api-Key", value: "SECRET-API-KEY-3c4d")], body: Data("{\"text\":\"MUTATION-BODY\"}".utf8),
            contentType: "application/json", idempotencyKey: "SECRET-IDEMPOTENCY-9c0d", createdAt: createdAt)
    }
}
