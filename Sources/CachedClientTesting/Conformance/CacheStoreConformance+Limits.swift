import CachedClientRuntime
import Foundation

// Age and size limits, for stores declared to support them (`run(limits:)`).
extension CacheStoreConformance {
    static let limitChecks: [Check] = [
        Check(
            "maxAgeDropsOlderEntries",
            "A store made with maxAge reports it and never returns an entry stored longer ago, by the Setup clock; made without, it reports nil."
        ) { context in
            try context.requireSupport(of: .maxAge, named: "maxAge")
            let unlimited = try await context.makeStore()
            try context.expect(unlimited.maxAge == nil, "a store made without maxAge reports maxAge \(unlimited.maxAge.map { "\($0)" } ?? "nil")")
            let store = try await context.makeStore(maxAge: 300)
            try context.expect(store.maxAge == 300, "a store made with maxAge 300 reports \(store.maxAge.map { "\($0)" } ?? "nil")")
            let start = context.clock.now
            let old = Entries.entry("old", date: start.addingTimeInterval(-290))
            let young = Entries.entry("young", date: start)
            try await store.setEntry(old, for: Keys.key(query: "old"))
            try await store.setEntry(young, for: Keys.key(query: "young"))
            try await context.expectEntry(store, Keys.key(query: "old"), old, "an entry 290 s old with maxAge 300")
            context.clock.advance(by: 20)
            try await context.expectEntry(store, Keys.key(query: "old"), nil, "an entry 310 s old with maxAge 300")
            try await context.expectEntry(store, Keys.key(query: "young"), young, "an entry 20 s old with maxAge 300")
            context.clock.advance(by: 281)
            try await context.expectEntry(store, Keys.key(query: "young"), nil, "an entry 301 s old with maxAge 300")
        },
        Check(
            "maxBytesTrimsLeastRecentlyUsed",
            "Over maxBytes, the store trims to at most maxBytes of totalSize(), least recently used (read or written, by the Setup clock) first."
        ) { context in
            try context.requireSupport(of: .maxBytes, named: "maxBytes")
            let limit = 64 * 1024
            let store = try await context.makeStore(maxBytes: limit)
            func entry(_ index: Int) -> CacheEntry {
                Entries.entry(String(repeating: Character(UnicodeScalar(UInt8(65 + index % 26))), count: 4_096), date: context.clock.now)
            }
            func key(_ index: Int) -> CacheKey { Keys.key(query: "n=\(index)") }
            // 14 entries of 4 KiB stay under 64 KiB even with some bytes of overhead each.
            for index in 0..<14 {
                context.clock.advance(by: 1)
                try await store.setEntry(entry(index), for: key(index))
            }
            context.clock.advance(by: 7_200)
            try context.expect(try await store.entry(for: key(0)) != nil, "entry 0 of 14 (56 KiB of bodies, maxBytes 64 KiB) was removed")
            for index in 14..<18 {
                context.clock.advance(by: 1)
                try await store.setEntry(entry(index), for: key(index))
            }
            try await context.trim(store)
            let size = try await store.totalSize()
            try context.expect(size <= limit, "totalSize() is \(size) after trimming to maxBytes \(limit)")
            try context.expect(try await store.entry(for: key(17)) != nil, "the entry written last was trimmed")
            try context.expect(
                try await store.entry(for: key(0)) != nil,
                "the entry read two hours after it was written, after 13 others were written, was trimmed before them")
            try context.expect(try await store.entry(for: key(1)) == nil, "the least recently used entry was kept")
            let count = try await store.entryCount()
            try context.expect(count < 18, "entryCount() is \(count) after trimming 18 entries of 4 KiB to 64 KiB")
        },
    ]
}
