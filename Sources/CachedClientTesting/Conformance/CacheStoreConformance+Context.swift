import CachedClientRuntime
import Foundation

// What every check works with: the store factory, a clock that moves only when a check moves
// it, expectations that fail with the check's name and line, and keys and entries made the
// way `CachedClient` makes them.
extension CacheStoreConformance {
    /// One run of one check.
    final class Context: Sendable {
        let check: String
        let limits: Limits
        let clock = ManualClock()
        private let make: @Sendable (Setup) async throws -> any CacheStore
        private let trimming: @Sendable (any CacheStore) async throws -> Void

        init(
            check: String, limits: Limits, makeStore: @escaping @Sendable (Setup) async throws -> any CacheStore,
            trim: @escaping @Sendable (any CacheStore) async throws -> Void
        ) {
            self.check = check
            self.limits = limits
            self.make = makeStore
            self.trimming = trim
        }

        /// A new empty store with the given limits, on the check's clock.
        func makeStore(maxAge: TimeInterval? = nil, maxBytes: Int? = nil) async throws -> any CacheStore {
            let clock = self.clock
            return try await make(Setup(maxAge: maxAge, maxBytes: maxBytes, now: { clock.now }))
        }

        /// A new empty store that adopts `CacheStoreLeasing`, or a failure saying it does not.
        func makeLeasingStore(file: StaticString = #fileID, line: UInt = #line) async throws -> any CacheStoreLeasing {
            let store = try await makeStore()
            guard let leasing = store as? any CacheStoreLeasing else {
                throw failure("\(type(of: store)) does not adopt CacheStoreLeasing", file: file, line: line)
            }
            return leasing
        }

        /// Lets the store apply its limits now.
        func trim(_ store: any CacheStore) async throws {
            try await trimming(store)
        }

        /// Ends the check as not applicable unless the store supports `limit`.
        func requireSupport(of limit: Limits, named name: String) throws {
            guard limits.contains(limit) else {
                throw NotApplicable(reason: "the store was not declared to support \(name) (run(limits:))")
            }
        }

        /// Fails the check with `message` unless `condition` holds.
        func expect(
            _ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
        ) throws {
            guard condition else { throw failure(message(), file: file, line: line) }
        }

        /// Fails the check unless the store holds exactly `expected` under `key`.
        func expectEntry(
            _ store: any CacheStore, _ key: CacheKey, _ expected: CacheEntry?, _ what: String,
            file: StaticString = #fileID, line: UInt = #line
        ) async throws {
            let found = try await store.entry(for: key)
            guard found != expected else { return }
            throw failure(
                "\(what): expected \(Self.describe(expected)), found \(Self.describe(found))", file: file, line: line)
        }

        /// Fails the check unless `entryCount()` is `expected`.
        func expectCount(
            _ store: any CacheStore, _ expected: Int, _ what: String, file: StaticString = #fileID, line: UInt = #line
        ) async throws {
            let count = try await store.entryCount()
            try expect(count == expected, "\(what) is \(count), expected \(expected)", file: file, line: line)
        }

        /// Fails the check unless `totalSize()` is 0.
        func expectEmptySize(_ store: any CacheStore, _ what: String, file: StaticString = #fileID, line: UInt = #line) async throws {
            let size = try await store.totalSize()
            try expect(size == 0, "\(what) is \(size), expected 0", file: file, line: line)
        }

        func failure(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Failure {
            let file = "\(file)"
            let name = file.split(separator: "/").last.map(String.init) ?? file
            return Failure(check: check, message: message, file: name, line: Int(line))
        }

        /// An entry by its body, date and validators; never the whole body.
        static func describe(_ entry: CacheEntry?) -> String {
            guard let entry else { return "no entry" }
            let prefix = String(decoding: entry.body.prefix(24), as: UTF8.self)
            return "entry(\(entry.body.count) bytes \"\(prefix)\(entry.body.count > 24 ? "…" : "")\", "
                + "date \(entry.date.timeIntervalSinceReferenceDate), etag \(entry.etag.map { "\"\($0)\"" } ?? "nil"), "
                + "lastModified \(entry.lastModified.map { "\"\($0)\"" } ?? "nil"), "
                + "freshness \(entry.freshness.map { "\($0)" } ?? "nil"))"
        }
    }

    /// A clock that moves only when a check moves it.
    final class ManualClock: @unchecked Sendable {
        private let lock = NSLock()
        private var date = Date(timeIntervalSinceReferenceDate: 800_000_000.25)

        var now: Date { lock.withLock { date } }

        func advance(by seconds: TimeInterval) {
            lock.withLock { date += seconds }
        }
    }
}

// MARK: - Keys and entries

extension CacheStoreConformance {
    /// Keys like those `CachedClient` makes: the canonical text holds every part, so keys with
    /// different parts never share a text.
    enum Keys {
        static let endpoint = "AccountRepository.getAccount"
        static let otherEndpoint = "AccountRepository.listAccounts"

        static func key(
            endpoint: String = Keys.endpoint, path: String = "/accounts/1", query: String = "",
            partition: String? = "alice", suffix: String = ""
        ) -> CacheKey {
            let encodedPartition = partition.map { "p:" + $0.utf8.map { String($0, radix: 16) }.joined() } ?? "*shared*"
            let text = "cachegen-key 1\nendpoint \(endpoint)\nmethod GET\nbase https://api.example.com/v1\npath \(path)"
                + "\nquery \(query)\nheaders \npartition \(encodedPartition)\nshape Account{id:string}\(suffix)"
            return CacheKey(text: text, endpoint: endpoint, partition: partition, path: path)
        }
    }

    /// Entries with every field set, so a field a store drops shows.
    enum Entries {
        static func entry(
            _ body: String, date: Date, etag: String? = "\"v1\"", lastModified: String? = "Tue, 15 Nov 1994 08:12:31 GMT",
            freshness: ServerFreshness? = ServerFreshness(lifetime: 60, initialAge: 2)
        ) -> CacheEntry {
            CacheEntry(body: Data(body.utf8), date: date, etag: etag, lastModified: lastModified, freshness: freshness)
        }
    }
}
