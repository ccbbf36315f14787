import CachedClientRuntime
import Foundation

// Reading and writing single entries: what is stored comes back whole, under exactly its
// key's text and no other.
extension CacheStoreConformance {
    static let entryChecks: [Check] = [
        Check("emptyStoreHoldsNothing", "A new store has no entry, no bytes and no count.") { context in
            let store = try await context.makeStore()
            try await context.expectEntry(store, Keys.key(), nil, "a new store")
            try await context.expectCount(store, 0, "entryCount() of a new store")
            try await context.expectEmptySize(store, "totalSize() of a new store")
        },
        Check(
            "everyFieldRoundTrips",
            "Body, date (to the bit), ETag, Last-Modified and every ServerFreshness field come back as stored; nil stays nil and \"\" stays \"\"."
        ) { context in
            let store = try await context.makeStore()
            let date = Date(timeIntervalSinceReferenceDate: 800_000_000.123_456_789)
            let cases: [(String, CacheEntry)] = [
                ("every field set", CacheEntry(
                    body: Data("{\"id\":\"1\"}".utf8), date: date, etag: "W/\"a\\\"b\"", lastModified: "Tue, 15 Nov 1994 08:12:31 GMT",
                    freshness: ServerFreshness(
                        lifetime: 0, initialAge: 1.5, noCache: true, mustRevalidate: true, staleIfError: 30.25,
                        staleWhileRevalidate: 0.125))),
                ("no validators, no freshness", CacheEntry(body: Data("[]".utf8), date: date)),
                ("empty validators", CacheEntry(body: Data("[]".utf8), date: date, etag: "", lastModified: "")),
                ("only Last-Modified", CacheEntry(body: Data("1".utf8), date: date, lastModified: "Wed, 21 Oct 2015 07:28:00 GMT")),
                ("freshness without lifetime", CacheEntry(
                    body: Data("2".utf8), date: date, etag: "\"é✓\"", freshness: ServerFreshness(initialAge: 0, noCache: true))),
                ("freshness with stale windows only", CacheEntry(
                    body: Data("3".utf8), date: date.addingTimeInterval(-86_400 * 365),
                    freshness: ServerFreshness(lifetime: 31_536_000, staleIfError: 0, staleWhileRevalidate: 86_400))),
                ("a date before 2001", CacheEntry(body: Data("4".utf8), date: Date(timeIntervalSince1970: 12.5))),
            ]
            for (index, (_, entry)) in cases.enumerated() {
                try await store.setEntry(entry, for: Keys.key(query: "case=\(index)"))
            }
            for (index, (name, entry)) in cases.enumerated() {
                try await context.expectEntry(store, Keys.key(query: "case=\(index)"), entry, name)
            }
        },
        Check("bodiesRoundTripByteForByte", "Empty, binary and large bodies come back byte for byte.") { context in
            let store = try await context.makeStore()
            let date = context.clock.now
            var random = SplitMix64(seed: 42)
            let bodies: [(String, Data)] = [
                ("an empty body", Data()),
                ("every byte value", Data((0...255).map { UInt8($0) } + (0...255).reversed().map { UInt8($0) })),
                ("a body that looks like a header", Data("cachegen-key 1\nendpoint X\n\0\r\n".utf8)),
                ("a 1 MiB body", Data((0..<(1 << 20)).map { _ in UInt8(truncatingIfNeeded: random.next()) })),
            ]
            for (index, (_, body)) in bodies.enumerated() {
                try await store.setEntry(CacheEntry(body: body, date: date), for: Keys.key(query: "body=\(index)"))
            }
            for (index, (name, body)) in bodies.enumerated() {
                try await context.expectEntry(store, Keys.key(query: "body=\(index)"), CacheEntry(body: body, date: date), name)
            }
        },
        Check("setEntryReplaces", "A second write under a key replaces the first: one entry, counted once.") { context in
            let store = try await context.makeStore()
            let key = Keys.key()
            let first = Entries.entry(String(repeating: "a", count: 2_000), date: context.clock.now)
            let second = Entries.entry("b", date: context.clock.now.addingTimeInterval(5), etag: "\"v2\"", freshness: nil)
            try await store.setEntry(first, for: key)
            let sizeOfFirst = try await store.totalSize()
            try await store.setEntry(first, for: key)
            let sizeAfterRewrite = try await store.totalSize()
            try context.expect(
                sizeAfterRewrite == sizeOfFirst,
                "writing the same entry twice changed totalSize() from \(sizeOfFirst) to \(sizeAfterRewrite)")
            try await store.setEntry(second, for: key)
            try await context.expectEntry(store, key, second, "after replacing with a smaller entry")
            try await context.expectCount(store, 1, "entryCount() after replacing")
            let sizeOfSecond = try await store.totalSize()
            try context.expect(
                sizeOfSecond < sizeOfFirst,
                "totalSize() after replacing 2,000 bytes with 1 is \(sizeOfSecond), not below \(sizeOfFirst)")
        },
        Check(
            "keyTextIsComparedExactly",
            "Keys of one endpoint, partition and path whose texts differ anywhere (last byte, prefix, query) never see each other's entries."
        ) { context in
            let store = try await context.makeStore()
            let keys = [
                Keys.key(query: "page=1"), Keys.key(query: "page=10"), Keys.key(query: "page=1", suffix: "x"),
                Keys.key(query: "page=1", suffix: "y"), Keys.key(query: "page=2"),
            ]
            for (index, key) in keys.enumerated() {
                try await store.setEntry(Entries.entry("entry \(index)", date: context.clock.now), for: key)
            }
            for (index, key) in keys.enumerated() {
                try await context.expectEntry(
                    store, key, Entries.entry("entry \(index)", date: context.clock.now), "key \(index) of \(keys.count) sharing a path")
            }
            for (name, key) in [
                ("a key that is a prefix of stored ones", Keys.key(query: "page=")),
                ("a key one byte longer than a stored one", Keys.key(query: "page=1", suffix: "xx")),
                ("a key of another partition", Keys.key(query: "page=1", partition: "bob")),
            ] {
                try await context.expectEntry(store, key, nil, name)
            }
        },
        Check(
            "looselyEqualTextsStayApart",
            "Texts that weak hashes or loose comparisons confuse (case, trailing spaces, \"Aa\"/\"BB\") are different keys."
        ) { context in
            let store = try await context.makeStore()
            let groups: [[String]] = [["Aa", "BB"], ["AaAa", "BBBB", "AaBB", "BBAa"], ["q", "Q"], ["v", "v ", "v  "], ["n", "n\n"]]
            for (group, suffixes) in groups.enumerated() {
                for (index, suffix) in suffixes.enumerated() {
                    try await store.setEntry(
                        Entries.entry("\(group).\(index)", date: context.clock.now), for: Keys.key(query: "g=\(group)", suffix: suffix))
                }
            }
            for (group, suffixes) in groups.enumerated() {
                for (index, suffix) in suffixes.enumerated() {
                    try await context.expectEntry(
                        store, Keys.key(query: "g=\(group)", suffix: suffix),
                        Entries.entry("\(group).\(index)", date: context.clock.now),
                        "the key ending in \(suffix.debugDescription) among \(suffixes.map(\.debugDescription))")
                }
            }
            try await context.expectCount(store, 13, "entryCount()")
        },
        Check("longKeysWork", "Keys with a 16 KiB text and a 2 KiB path are stored, read and removed by path.") { context in
            let store = try await context.makeStore()
            let longPath = "/search/" + String(repeating: "%E2%9C%93", count: 230)
            let key = Keys.key(path: longPath, query: "q=" + String(repeating: "abcdefgh", count: 2_048))
            let sibling = Keys.key(path: longPath, query: "q=" + String(repeating: "abcdefgh", count: 2_047) + "abcdefgx")
            let entry = Entries.entry("long", date: context.clock.now)
            try await store.setEntry(entry, for: key)
            try await context.expectEntry(store, key, entry, "a key with a 16 KiB text")
            try await context.expectEntry(store, sibling, nil, "a 16 KiB key differing in its last query byte")
            try await store.removeAll(endpoint: Keys.endpoint, path: longPath)
            try await context.expectEntry(store, key, nil, "after removeAll(endpoint:path:) of the 2 KiB path")
        },
        Check(
            "partitionsAreSeparate",
            "The same request in different partitions (any string: slashes, quotes, non-ASCII, empty) and shared are different entries."
        ) { context in
            let store = try await context.makeStore()
            let partitions: [String?] = [
                "alice", "bob", nil, "", "alice/../bob", "O'Brien'); DROP TABLE entries; --", "ユーザー 7", "a%2Fb", "*shared*",
                "\\", String(repeating: "p", count: 1_000),
            ]
            for (index, partition) in partitions.enumerated() {
                try await store.setEntry(Entries.entry("p\(index)", date: context.clock.now), for: Keys.key(partition: partition))
            }
            for (index, partition) in partitions.enumerated() {
                try await context.expectEntry(
                    store, Keys.key(partition: partition), Entries.entry("p\(index)", date: context.clock.now),
                    "partition \(partition.map(\.debugDescription) ?? "nil (shared)")")
            }
            try await store.removeAll(partition: "alice/../bob")
            try await context.expectEntry(store, Keys.key(partition: "alice/../bob"), nil, "after removeAll(partition: \"alice/../bob\")")
            for (index, partition) in partitions.enumerated() where partition != "alice/../bob" {
                try await context.expectEntry(
                    store, Keys.key(partition: partition), Entries.entry("p\(index)", date: context.clock.now),
                    "partition \(partition.map(\.debugDescription) ?? "nil (shared)") after removing \"alice/../bob\"")
            }
        },
    ]
}

/// A small deterministic generator, so a failing body is the same on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
