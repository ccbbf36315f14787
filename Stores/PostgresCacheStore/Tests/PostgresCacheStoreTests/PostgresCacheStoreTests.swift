import CachedClientRuntime
import Foundation
import PostgresNIO
import Testing

@testable import PostgresCacheStore

/// The store's own rules on a real server: rows, keys, removal forms, running totals.
@Suite(
    .enabled(if: TestDatabase.enabled, "CACHEGEN_POSTGRES_URL is not set: run through Scripts/with-postgres.sh"),
    .timeLimit(.minutes(3)))
struct PostgresCacheStoreTests {
    @Test func anEntryRoundTripsWithItsValidatorsAndFreshness() async throws {
        try await TestDatabase.withStore { store in
            let freshness = ServerFreshness(
                lifetime: 60, initialAge: 3.5, noCache: true, mustRevalidate: true, staleIfError: 30, staleWhileRevalidate: nil)
            let entry = CacheEntry(
                body: Data([0, 1, 2, 255]), date: Date(timeIntervalSinceReferenceDate: 812_345_678.123456789),
                etag: "W/\"7\"", lastModified: "Tue, 15 Nov 1994 12:45:26 GMT", freshness: freshness)
            try await store.setEntry(entry, for: testKey("a"))
            #expect(try await store.entry(for: testKey("a")) == entry)
            #expect(try await store.entry(for: testKey("b")) == nil)

            let replacement = testEntry("second")
            try await store.setEntry(replacement, for: testKey("a"))
            #expect(try await store.entry(for: testKey("a")) == replacement)
            #expect(try await store.entryCount() == 1)
        }
    }

    /// A row whose stored key text is not the key's (what a digest collision would look like)
    /// is a miss.
    @Test func aRowOfAnotherKeyIsAMiss() async throws {
        try await TestDatabase.withStore { store in
            try await store.setEntry(testEntry("a"), for: testKey("a"))
            try await TestDatabase.execute(
                "UPDATE \(unescaped: store.entries) SET key_text = key_text || 'x' WHERE digest = \(testKey("a").digest)")
            #expect(try await store.entry(for: testKey("a")) == nil)
        }
    }

    @Test func eachRemovalFormRemovesWhatItNamesAndMovesTheCount() async throws {
        try await TestDatabase.withStore { store in
            let keys = [
                testKey("1", partition: "user-1"), testKey("2", partition: "user-2"),
                testKey("3", partition: nil), testKey("4", endpoint: "Accounts.list", partition: "user-1", path: "/accounts"),
                testKey("5", partition: "user-1", path: "/accounts/2"),
            ]
            for key in keys { try await store.setEntry(testEntry(key.text), for: key) }
            func present() async throws -> [Bool] {
                var result: [Bool] = []
                for key in keys { result.append(try await store.entry(for: key) != nil) }
                return result
            }
            var count = store.removalCount
            try await store.removeAll(endpoint: "Accounts.get", path: "/accounts/2")
            #expect(try await present() == [true, true, true, true, false])
            #expect(store.removalCount > count)
            count = store.removalCount

            try await store.removeAll(partition: "user-1")
            #expect(try await present() == [false, true, true, false, false])
            #expect(store.removalCount > count)
            count = store.removalCount

            try await store.removeAll(endpoint: "Accounts.get")
            #expect(try await present() == [false, false, false, false, false])
            #expect(store.removalCount > count)

            for key in keys { try await store.setEntry(testEntry(key.text), for: key) }
            try await store.removeEntry(for: keys[0])
            #expect(try await present() == [false, true, true, true, true])
            count = store.removalCount
            try await store.removeAll()
            #expect(try await present() == [false, false, false, false, false])
            #expect(store.removalCount > count)
            #expect(try await store.entryCount() == 0)
            #expect(try await store.totalSize() == 0)
        }
    }

    /// The running total agrees with the rows after inserts, replacements and every removal form.
    @Test func theRunningTotalMatchesTheRows() async throws {
        try await TestDatabase.withStore { store in
            for index in 0..<40 {
                let key = testKey("\(index % 25)", partition: index % 3 == 0 ? nil : "user-\(index % 2)", path: "/a/\(index % 4)")
                try await store.setEntry(testEntry(String(repeating: "x", count: index * 7)), for: key)
            }
            try await store.removeAll(partition: "user-1")
            try await store.removeAll(endpoint: "Accounts.get", path: "/a/2")
            let (bytes, entries) = try await TestDatabase.withClient { client in
                (
                    try await TestDatabase.integer(
                        "SELECT coalesce(sum(octet_length(body) + octet_length(key_text)), 0)::bigint FROM \(unescaped: store.entries)",
                        on: client),
                    try await TestDatabase.integer("SELECT count(*)::bigint FROM \(unescaped: store.entries)", on: client)
                )
            }
            #expect(try await store.totalSize() == bytes)
            #expect(try await store.entryCount() == entries)
            #expect(entries > 0)
        }
    }

    @Test func entriesOlderThanMaxAgeAreNeverReturnedAndTrimDeletesThem() async throws {
        let clock = TestClock()
        try await TestDatabase.withStore(maxAge: 100, now: { clock.now }) { store in
            try await store.setEntry(testEntry("old", date: clock.now), for: testKey("old"))
            clock.advance(60)
            try await store.setEntry(testEntry("new", date: clock.now), for: testKey("new"))
            clock.advance(50)
            #expect(try await store.entry(for: testKey("old")) == nil)
            #expect(try await store.entry(for: testKey("new")) != nil)
            #expect(try await store.entryCount() == 2)
            try await store.trim()
            #expect(try await store.entryCount() == 1)
        }
    }

    /// Over `maxBytes`, the least recently used entries go first, until under 90% of it.
    @Test func overMaxBytesTheLeastRecentlyUsedEntriesAreEvicted() async throws {
        let clock = TestClock()
        let entrySize = testKey("k00").text.utf8.count + 1_000
        try await TestDatabase.withStore(maxBytes: entrySize * 10, now: { clock.now }) { store in
            for index in 0..<10 {
                try await store.setEntry(testEntry(String(repeating: "b", count: 1_000)), for: testKey(String(format: "k%02d", index)))
                clock.advance(120)
            }
            // A read of the oldest brings its last use forward (it is more than a minute behind).
            #expect(try await store.entry(for: testKey("k00")) != nil)
            clock.advance(120)
            try await store.setEntry(testEntry(String(repeating: "b", count: 1_000)), for: testKey("k10"))

            #expect(try await store.totalSize() <= entrySize * 9)
            #expect(try await store.entry(for: testKey("k00")) != nil, "used recently, so kept")
            #expect(try await store.entry(for: testKey("k01")) == nil, "the least recently used")
            #expect(try await store.entry(for: testKey("k10")) != nil)
        }
    }

    @Test func aNamespaceThatIsNotAPlainIdentifierIsRefused() throws {
        #expect(throws: PostgresCacheStoreError.invalidNamespace) {
            try PostgresCacheStore(url: "postgres://u@localhost/db", namespace: "x; DROP TABLE y")
        }
        #expect(throws: PostgresCacheStoreError.invalidURL) {
            try PostgresCacheStore(url: "http://localhost/db")
        }
    }
}
