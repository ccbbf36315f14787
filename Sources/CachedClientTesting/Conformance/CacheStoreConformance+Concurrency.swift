import CachedClientRuntime
import Foundation

// Many tasks at once: writes are atomic, nothing is lost, and removals racing writes never
// leave what they removed.
extension CacheStoreConformance {
    static let concurrencyChecks: [Check] = [
        Check(
            "replaceIsAtomicUnderConcurrentReads",
            "While tasks replace one key's entry back and forth, every read returns one of the written entries whole, or none."
        ) { context in
            let store = try await context.makeStore()
            let key = Keys.key()
            let a = Entries.entry(String(repeating: "a", count: 1_000), date: context.clock.now, etag: "\"a\"")
            let b = Entries.entry(
                String(repeating: "b", count: 70_000), date: context.clock.now.addingTimeInterval(1), etag: "\"b\"",
                lastModified: nil, freshness: nil)
            let problem = try await withThrowingTaskGroup(of: String?.self) { group in
                for writer in 0..<4 {
                    group.addTask {
                        for round in 0..<40 { try await store.setEntry((writer + round) % 2 == 0 ? a : b, for: key) }
                        return nil
                    }
                }
                for _ in 0..<4 {
                    group.addTask {
                        for _ in 0..<40 {
                            if let found = try await store.entry(for: key), found != a, found != b {
                                return "a read returned \(Context.describe(found)), neither entry written"
                            }
                        }
                        return nil
                    }
                }
                var problem: String?
                for try await found in group where problem == nil { problem = found }
                return problem
            }
            if let problem { throw context.failure(problem) }
            let last = try await store.entry(for: key)
            try context.expect(last == a || last == b, "after the writes the key holds \(Context.describe(last))")
            try await context.expectCount(store, 1, "entryCount()")
        },
        Check("manyTasksOnManyKeys", "32 tasks writing and reading 16 keys each lose nothing and mix nothing up.") { context in
            let store = try await context.makeStore()
            let date = context.clock.now
            let problem = try await withThrowingTaskGroup(of: String?.self) { group in
                for task in 0..<32 {
                    group.addTask {
                        for index in 0..<16 {
                            let key = Keys.key(query: "t=\(task)&i=\(index)", partition: task % 2 == 0 ? "alice" : nil)
                            let entry = Entries.entry("\(task).\(index)", date: date)
                            try await store.setEntry(entry, for: key)
                            let found = try await store.entry(for: key)
                            if found != entry { return "task \(task) wrote \(Context.describe(entry)) and read back \(Context.describe(found))" }
                        }
                        return nil
                    }
                }
                var problem: String?
                for try await found in group where problem == nil { problem = found }
                return problem
            }
            if let problem { throw context.failure(problem) }
            for task in 0..<32 {
                for index in 0..<16 {
                    let key = Keys.key(query: "t=\(task)&i=\(index)", partition: task % 2 == 0 ? "alice" : nil)
                    try await context.expectEntry(store, key, Entries.entry("\(task).\(index)", date: date), "key \(index) of task \(task)")
                }
            }
            try await context.expectCount(store, 512, "entryCount()")
        },
        Check(
            "removalsRacingWritesRemoveWhatWasThere",
            "A removeAll(partition:) racing writes removes every entry stored before it started, keeps other partitions' writes, and removalCount never goes back."
        ) { context in
            let store = try await context.makeStore()
            let date = context.clock.now
            for round in 0..<8 {
                let before = (0..<8).map { Keys.key(query: "r=\(round)&before=\($0)") }
                for key in before { try await store.setEntry(Entries.entry("before", date: date), for: key) }
                let others = (0..<8).map { Keys.key(query: "r=\(round)&other=\($0)", partition: "bob") }
                let problem = try await withThrowingTaskGroup(of: String?.self) { group in
                    group.addTask {
                        try await store.removeAll(partition: "alice")
                        return nil
                    }
                    group.addTask {
                        for key in others { try await store.setEntry(Entries.entry("other", date: date), for: key) }
                        return nil
                    }
                    group.addTask {
                        // Writes to the partition being removed: each may land or not, but must not fail the store.
                        for index in 0..<8 {
                            try await store.setEntry(Entries.entry("racing", date: date), for: Keys.key(query: "r=\(round)&racing=\(index)"))
                        }
                        return nil
                    }
                    group.addTask {
                        var last = store.removalCount
                        for _ in 0..<200 {
                            let now = store.removalCount
                            if now < last { return "removalCount went back from \(last) to \(now) during a removal" }
                            last = now
                            await Task.yield()
                        }
                        return nil
                    }
                    var problem: String?
                    for try await found in group where problem == nil { problem = found }
                    return problem
                }
                if let problem { throw context.failure(problem) }
                for key in before {
                    try await context.expectEntry(store, key, nil, "round \(round): an entry stored before removeAll(partition:) started")
                }
                for key in others {
                    try await context.expectEntry(store, key, Entries.entry("other", date: date), "round \(round): another partition's write")
                }
            }
        },
    ]
}
