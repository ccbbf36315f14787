import CachedClientRuntime
import Foundation

// The rules of `MutationOutbox` that hold for any store, run through the same `Check.run` as
// the others: order and sequence, partitions apart, update and removal of one mutation,
// sign-out and `removeAll()` taking mutations while invalidations leave them, concurrent
// enqueues. What needs a store's own storage (a record damaged on disk or in a table, a
// relaunch, `kill -9`) is tested beside each store.
extension CacheStoreConformance {
    /// The checks a store that adopts `MutationOutbox` passes as well (run them with
    /// `Check.run(limits:makeStore:trim:)`; the store `makeStore` returns must adopt it).
    public static var outboxChecks: [Check] {
        outbox
    }

    static let outbox: [Check] = [
        Check("outboxListsInSequenceOrder", "Enqueued mutations get growing sequences and are listed in that order, each readable by itself.") { context in
            let store = try await context.makeOutboxStore()
            var stored: [QueuedMutation] = []
            for index in 0..<5 { stored.append(try await store.enqueueMutation(Mutations.mutation("\(index)"))) }
            let sequences = stored.map(\.sequence)
            try context.expect(
                zip(sequences, sequences.dropFirst()).allSatisfy { $0 < $1 }, "enqueue gave sequences \(sequences), not growing")
            let listed = try await store.queuedMutations(partition: "alice")
            try context.expect(listed == stored, "queuedMutations(partition:) listed \(Mutations.describe(listed)), expected \(Mutations.describe(stored))")
            for mutation in stored {
                let found = try await store.queuedMutation(mutation)
                try context.expect(found == mutation, "queuedMutation(_:) of sequence \(mutation.sequence) read \(Mutations.describe(found.map { [$0] } ?? []))")
            }
        },
        Check("outboxRecordsRoundTripEveryField", "A mutation comes back with every field as it was enqueued, but its sequence; one without body or partition too.") { context in
            let store = try await context.makeOutboxStore()
            var full = Mutations.mutation("full")
            full.headers = [.init(name: "X-Request-Tag", value: "t é ✓"), .init(name: "If-Match", value: "\"v1\"")]
            full.body = Data([0, 0xFF, 0xFE, 0x7B, 0x0A])
            full.contentType = "application/octet-stream"
            full.idempotencyHeader = "X-Idempotency"
            full.maxRetries = 2
            full.invalidations = [.init(endpoint: "Notes.list", path: nil), .init(endpoint: "Notes.get", path: "/notes/1")]
            full.attempts = 4
            full.failure = MutationFailure(status: 409, message: "conflict", body: Data(#"{"error":"version"}"#.utf8))
            var bare = Mutations.mutation("bare", partition: nil)
            bare.body = nil
            bare.contentType = nil
            bare.query = []
            for mutation in [full, bare] {
                let stored = try await store.enqueueMutation(mutation)
                var expected = mutation
                expected.sequence = stored.sequence
                try context.expect(stored == expected, "enqueueMutation(_:) returned another mutation than it was given: \(stored)")
                let listed = try await store.queuedMutations(partition: mutation.partition)
                try context.expect(listed == [expected], "the mutation read back differs: \(listed)")
            }
        },
        Check("outboxKeepsPartitionsApart", "Each partition (signed out included) lists only its own mutations; another partition's id is not found; mutations are not entries.") { context in
            let store = try await context.makeOutboxStore()
            var stored: [String?: QueuedMutation] = [:]
            for partition in Mutations.partitions {
                stored[partition] = try await store.enqueueMutation(Mutations.mutation("of \(partition ?? "shared")", partition: partition))
            }
            for partition in Mutations.partitions {
                let listed = try await store.queuedMutations(partition: partition)
                try context.expect(listed == [stored[partition]!], "partition \(partition ?? "nil") lists \(Mutations.describe(listed))")
            }
            var elsewhere = stored["alice"]!
            elsewhere.partition = "carol"
            try context.expect(try await store.queuedMutation(elsewhere) == nil, "queuedMutation(_:) found alice's mutation under carol")
            try await context.expectCount(store, 0, "entryCount() with only mutations stored")
        },
        Check("outboxUpdateReplacesOneMutation", "updateMutation(_:) replaces the mutation of that partition and id, keeps its place, and never brings back one that is gone.") { context in
            let store = try await context.makeOutboxStore()
            let first = try await store.enqueueMutation(Mutations.mutation("a"))
            var second = try await store.enqueueMutation(Mutations.mutation("b"))
            let third = try await store.enqueueMutation(Mutations.mutation("c"))
            second.attempts = 3
            second.failure = MutationFailure(status: 422, message: "refused")
            try await store.updateMutation(second)
            var listed = try await store.queuedMutations(partition: "alice")
            try context.expect(listed == [first, second, third], "after updateMutation(_:) the list is \(Mutations.describe(listed))")
            var elsewhere = first
            elsewhere.partition = "bob"
            elsewhere.attempts = 9
            try await store.updateMutation(elsewhere)
            listed = try await store.queuedMutations(partition: "bob")
            try context.expect(listed.isEmpty, "updateMutation(_:) of an id alice has, in bob's partition, stored \(Mutations.describe(listed))")
            try await store.removeMutation(third)
            try await store.updateMutation(third)
            listed = try await store.queuedMutations(partition: "alice")
            try context.expect(listed == [first, second], "updateMutation(_:) of a removed mutation brought it back: \(Mutations.describe(listed))")
        },
        Check("outboxRemoveTakesOneMutation", "removeMutation(_:) removes that mutation only, is no error when it is gone, and later enqueues still come last.") { context in
            let store = try await context.makeOutboxStore()
            var stored: [QueuedMutation] = []
            for index in 0..<4 { stored.append(try await store.enqueueMutation(Mutations.mutation("\(index)"))) }
            var other = stored[1]
            other.partition = "bob"
            try await store.removeMutation(other)
            try await store.removeMutation(stored[1])
            try await store.removeMutation(stored[1])
            try await store.removeMutation(stored[0])
            var listed = try await store.queuedMutations(partition: "alice")
            try context.expect(listed == [stored[2], stored[3]], "after removing two the list is \(Mutations.describe(listed))")
            try context.expect(try await store.queuedMutation(stored[1]) == nil, "queuedMutation(_:) found a removed mutation")
            let later = try await store.enqueueMutation(Mutations.mutation("later"))
            listed = try await store.queuedMutations(partition: "alice")
            try context.expect(
                later.sequence > stored[3].sequence && listed == [stored[2], stored[3], later],
                "an enqueue after removals is listed as \(Mutations.describe(listed))")
        },
        Check("signOutRemovesThePartitionsMutations", "removeAll(partition:) removes that partition's mutations and keeps other partitions' and signed-out ones.") { context in
            let store = try await context.makeOutboxStore()
            let all = try await Mutations.fill(store)
            try await store.removeAll(partition: "alice")
            for partition in Mutations.partitions {
                let listed = try await store.queuedMutations(partition: partition)
                let expected = partition == "alice" ? [] : all[partition]!
                try context.expect(listed == expected, "after removeAll(partition: \"alice\"), \(partition ?? "nil") lists \(Mutations.describe(listed))")
            }
        },
        Check("removeAllRemovesEveryMutation", "removeAll() removes every partition's mutations, signed-out ones included, and the outbox takes enqueues again.") { context in
            let store = try await context.makeOutboxStore()
            _ = try await Mutations.fill(store)
            try await store.removeAll()
            for partition in Mutations.partitions {
                let listed = try await store.queuedMutations(partition: partition)
                try context.expect(listed.isEmpty, "after removeAll(), \(partition ?? "nil") lists \(Mutations.describe(listed))")
            }
            let again = try await store.enqueueMutation(Mutations.mutation("again"))
            try context.expect(try await store.queuedMutations(partition: "alice") == [again], "an enqueue after removeAll() is not listed alone")
        },
        Check("invalidationsLeaveMutations", "removeAll(endpoint:) and removeAll(endpoint:path:), of the mutations' own endpoint and path, leave every mutation.") { context in
            let store = try await context.makeOutboxStore()
            let all = try await Mutations.fill(store)
            try await store.removeAll(endpoint: Mutations.endpoint)
            try await store.removeAll(endpoint: Mutations.endpoint, path: Mutations.path)
            try await store.removeAll(endpoint: "Notes.list")
            for partition in Mutations.partitions {
                let listed = try await store.queuedMutations(partition: partition)
                try context.expect(listed == all[partition]!, "an invalidation changed \(partition ?? "nil")'s mutations to \(Mutations.describe(listed))")
            }
        },
        Check("concurrentEnqueuesGetDistinctGrowingSequences", "Enqueues of one partition from 8 tasks at once each get a distinct sequence, growing within each task, and all are listed in order.") { context in
            let store = try await context.makeOutboxStore()
            let returned = try await withThrowingTaskGroup(of: [QueuedMutation].self) { group in
                for task in 0..<8 {
                    group.addTask {
                        var mine: [QueuedMutation] = []
                        for index in 0..<10 { mine.append(try await store.enqueueMutation(Mutations.mutation("\(task)-\(index)"))) }
                        return mine
                    }
                }
                var all: [[QueuedMutation]] = []
                for try await mine in group { all.append(mine) }
                return all
            }
            for mine in returned {
                let sequences = mine.map(\.sequence)
                try context.expect(zip(sequences, sequences.dropFirst()).allSatisfy { $0 < $1 }, "one task's enqueues got \(sequences)")
            }
            let listed = try await store.queuedMutations(partition: "alice")
            let sequences = listed.map(\.sequence)
            try context.expect(
                zip(sequences, sequences.dropFirst()).allSatisfy { $0 < $1 }, "the list's sequences are \(sequences), not growing")
            try context.expect(
                listed.count == 80 && Set(listed) == Set(returned.joined()), "listed \(listed.count) of 80 mutations, or others than enqueued")
        },
    ]

    /// Mutations like those `CachedClient` queues, in the partitions the checks use.
    enum Mutations {
        static let partitions: [String?] = ["alice", "bob", nil]
        static let endpoint = "NoteRepository.createNote"
        static let path = "/notes"

        static func mutation(_ name: String, partition: String? = "alice") -> QueuedMutation {
            QueuedMutation(
                id: UUID().uuidString, partition: partition, scope: path, endpoint: endpoint, method: "POST", path: path,
                query: [.init(name: "name", value: name)], body: Data(#"{"text":"\#(name)"}"#.utf8),
                contentType: "application/json", idempotencyKey: UUID().uuidString,
                invalidations: [.init(endpoint: "Notes.list", path: nil)],
                createdAt: Date(timeIntervalSinceReferenceDate: 800_000_000.125))
        }

        /// Two mutations in each partition, and an entry of the mutations' endpoint in each.
        static func fill(_ store: any CacheStore & MutationOutbox) async throws -> [String?: [QueuedMutation]] {
            var all: [String?: [QueuedMutation]] = [:]
            for partition in partitions {
                for name in ["first", "second"] {
                    all[partition, default: []].append(try await store.enqueueMutation(mutation(name, partition: partition)))
                }
                let key = Keys.key(endpoint: endpoint, path: path, partition: partition)
                try await store.setEntry(Entries.entry("note", date: Date(timeIntervalSinceReferenceDate: 800_000_000)), for: key)
            }
            return all
        }

        /// Sequences and names, never bodies.
        static func describe(_ mutations: [QueuedMutation]) -> String {
            "[" + mutations.map { "\($0.sequence) \($0.query.first?.value ?? $0.id)" }.joined(separator: ", ") + "]"
        }
    }
}

extension CacheStoreConformance.Context {
    /// A new empty store that adopts `MutationOutbox`, or a failure saying it does not.
    func makeOutboxStore(file: StaticString = #fileID, line: UInt = #line) async throws -> any CacheStore & MutationOutbox {
        let store = try await makeStore()
        guard let outbox = store as? any CacheStore & MutationOutbox else {
            throw failure("\(type(of: store)) does not adopt MutationOutbox", file: file, line: line)
        }
        return outbox
    }
}
