import CachedClientRuntime
import Foundation

// Every form of removal takes exactly what it names (or, for a path, possibly more of the same
// endpoint), leaves the rest, and moves `removalCount`.
extension CacheStoreConformance {
    /// A store filled with one entry per partition (alice, bob, shared), endpoint (two) and
    /// request (two paths, one of them with two queries): eighteen entries, listed in `entries`.
    struct Fixture {
        static let partitions: [String?] = ["alice", "bob", nil]
        static let endpoints = [Keys.endpoint, Keys.otherEndpoint]
        static let requests: [(path: String, query: String)] = [("/accounts/1", "page=1"), ("/accounts/1", "page=2"), ("/accounts/2", "")]

        let store: any CacheStore
        let entries: [(key: CacheKey, entry: CacheEntry)]

        static func make(_ context: Context) async throws -> Fixture {
            let store = try await context.makeStore()
            var entries: [(key: CacheKey, entry: CacheEntry)] = []
            for partition in partitions {
                for endpoint in endpoints {
                    for request in requests {
                        let key = Keys.key(endpoint: endpoint, path: request.path, query: request.query, partition: partition)
                        let entry = Entries.entry("\(endpoint) \(request.path)?\(request.query) \(partition ?? "shared")", date: context.clock.now)
                        try await store.setEntry(entry, for: key)
                        entries.append((key, entry))
                    }
                }
            }
            return Fixture(store: store, entries: entries)
        }

        /// Fails unless exactly the entries `removed` names are gone; entries `mayGo` names
        /// may be either.
        func expect(
            _ context: Context, after removal: String, removed: (CacheKey) -> Bool, mayGo: (CacheKey) -> Bool = { _ in false },
            file: StaticString = #fileID, line: UInt = #line
        ) async throws {
            var kept = 0
            for (key, entry) in entries {
                let found = try await store.entry(for: key)
                let name = "\(key.endpoint) \(key.path) \(key.partition ?? "shared") (\(key.text.split(separator: "\n")[5]))"
                if removed(key) {
                    try context.expect(found == nil, "\(removal) left \(name)", file: file, line: line)
                } else if !mayGo(key) {
                    try context.expect(found == entry, "\(removal) removed or changed \(name)", file: file, line: line)
                    kept += 1
                } else if found != nil {
                    kept += 1
                }
            }
            let count = try await store.entryCount()
            try context.expect(count == kept, "entryCount() after \(removal) is \(count), expected \(kept)", file: file, line: line)
        }
    }

    static let removalChecks: [Check] = [
        Check("removeEntryRemovesOneKey", "removeEntry(for:) removes that key's entry and nothing else; a missing key is no error.") { context in
            let fixture = try await Fixture.make(context)
            let target = fixture.entries[0].key
            try await fixture.store.removeEntry(for: target)
            try await fixture.expect(context, after: "removeEntry(for:)", removed: { $0 == target })
            try await fixture.store.removeEntry(for: target)
            try await fixture.store.removeEntry(for: Keys.key(suffix: "never stored"))
        },
        Check("removeAllRemovesEverything", "removeAll() leaves no entry, no bytes and no count, and the store takes writes again.") { context in
            let fixture = try await Fixture.make(context)
            try await fixture.store.removeAll()
            try await fixture.expect(context, after: "removeAll()", removed: { _ in true })
            try await context.expectEmptySize(fixture.store, "totalSize() after removeAll()")
            let (key, entry) = fixture.entries[0]
            try await fixture.store.setEntry(entry, for: key)
            try await context.expectEntry(fixture.store, key, entry, "a write after removeAll()")
        },
        Check(
            "removeAllPartitionKeepsOthers",
            "removeAll(partition:) removes every entry of that partition (every endpoint) and keeps other partitions' and shared ones."
        ) { context in
            let fixture = try await Fixture.make(context)
            try await fixture.store.removeAll(partition: "alice")
            try await fixture.expect(context, after: "removeAll(partition: \"alice\")", removed: { $0.partition == "alice" })
            try await fixture.store.removeAll(partition: "nobody")
            try await fixture.expect(context, after: "removeAll(partition: \"nobody\")", removed: { $0.partition == "alice" })
            let (key, entry) = fixture.entries[0]
            try await fixture.store.setEntry(entry, for: key)
            try await context.expectEntry(fixture.store, key, entry, "a write to a partition after its removal")
        },
        Check(
            "removeAllEndpointRemovesItEverywhere",
            "removeAll(endpoint:) removes that endpoint's entries in every partition and shared, and keeps other endpoints'."
        ) { context in
            let fixture = try await Fixture.make(context)
            try await fixture.store.removeAll(endpoint: Keys.endpoint)
            try await fixture.expect(context, after: "removeAll(endpoint:)", removed: { $0.endpoint == Keys.endpoint })
            try await fixture.store.removeAll(endpoint: "Nobody.calls")
            try await fixture.expect(context, after: "removeAll(endpoint:) of an unknown endpoint", removed: { $0.endpoint == Keys.endpoint })
        },
        Check(
            "removeAllEndpointPathRemovesThatPathEverywhere",
            "removeAll(endpoint:path:) removes the path's entries (every query, partition and shared); other endpoints' stay, the endpoint's other paths may go."
        ) { context in
            let fixture = try await Fixture.make(context)
            try await fixture.store.removeAll(endpoint: Keys.endpoint, path: "/accounts/1")
            try await fixture.expect(
                context, after: "removeAll(endpoint:path:)",
                removed: { $0.endpoint == Keys.endpoint && $0.path == "/accounts/1" },
                mayGo: { $0.endpoint == Keys.endpoint })
            try await fixture.store.removeAll(endpoint: Keys.otherEndpoint, path: "/accounts/3")
            try await fixture.expect(
                context, after: "removeAll(endpoint:path:) of a path without entries",
                removed: { $0.endpoint == Keys.endpoint && $0.path == "/accounts/1" },
                mayGo: { $0.endpoint == Keys.endpoint || $0.path == "/accounts/3" })
        },
        Check(
            "removalCountGrowsWithEveryRemoveAll",
            "removalCount grows with every removeAll… form (even of nothing) and never goes back, whatever else happens."
        ) { context in
            let fixture = try await Fixture.make(context)
            let store = fixture.store
            var last = store.removalCount
            func step(_ name: String, counts: Bool, _ body: () async throws -> Void) async throws {
                try await body()
                let now = store.removalCount
                try context.expect(now >= last, "removalCount went back from \(last) to \(now) after \(name)")
                if counts { try context.expect(now > last, "removalCount stayed \(now) after \(name)") }
                last = now
            }
            try await step("setEntry", counts: false) { try await store.setEntry(fixture.entries[0].entry, for: Keys.key(suffix: "n")) }
            try await step("entry(for:)", counts: false) { _ = try await store.entry(for: fixture.entries[0].key) }
            try await step("removeEntry(for:)", counts: false) { try await store.removeEntry(for: fixture.entries[0].key) }
            try await step("removeAll(endpoint:path:)", counts: true) { try await store.removeAll(endpoint: Keys.endpoint, path: "/accounts/2") }
            try await step("removeAll(endpoint:)", counts: true) { try await store.removeAll(endpoint: Keys.otherEndpoint) }
            try await step("removeAll(partition:)", counts: true) { try await store.removeAll(partition: "bob") }
            try await step("removeAll()", counts: true) { try await store.removeAll() }
            try await step("removeAll() of an empty store", counts: true) { try await store.removeAll() }
            try await step("removeAll(partition:) of an empty store", counts: true) { try await store.removeAll(partition: "alice") }
            try await step("removeAll(endpoint:) of an empty store", counts: true) { try await store.removeAll(endpoint: Keys.endpoint) }
            try await step("removeAll(endpoint:path:) of an empty store", counts: true) {
                try await store.removeAll(endpoint: Keys.endpoint, path: "/accounts/1")
            }
        },
    ]
}
