import CachedClientRuntime
import Foundation
import PostgresNIO
import Synchronization
import Testing

@testable import PostgresCacheStore

/// A queued mutation as the client makes one.
func testMutation(
    _ name: String, partition: String? = "user-1", path: String = "/notes", headers: [QueuedMutation.Parameter] = []
) -> QueuedMutation {
    QueuedMutation(
        id: UUID().uuidString, partition: partition, scope: path, endpoint: "Notes.create", method: "POST", path: path,
        query: [.init(name: "trace", value: name)], headers: headers, body: Data(#"{"text":"\#(name)"}"#.utf8),
        contentType: "application/json", idempotencyKey: UUID().uuidString,
        invalidations: [.init(endpoint: "Notes.list", path: nil)], createdAt: Date(timeIntervalSince1970: 1_700_000_000))
}

/// The outbox contract (`MutationOutbox`) on PostgreSQL: `<ns>_outbox` and its sequences.
@Suite(
    .enabled(if: TestDatabase.enabled, "CACHEGEN_POSTGRES_URL is not set: run through Scripts/with-postgres.sh"),
    .timeLimit(.minutes(3)))
struct PostgresMutationOutboxTests {
    /// A second store on the same tables, as after a relaunch; shut down after `body`.
    private func relaunched<T>(_ namespace: String, _ body: (PostgresCacheStore) async throws -> T) async throws -> T {
        try await TestDatabase.withStore(namespace: namespace, body)
    }

    private func count(_ query: PostgresQuery) async throws -> Int {
        try await TestDatabase.withClient { try await TestDatabase.integer(query, on: $0) }
    }

    @Test func enqueuedMutationsComeBackInOrderWithGrowingSequences() async throws {
        let namespace = TestDatabase.namespace()
        try await TestDatabase.withStore(namespace: namespace) { store async throws in
            var stored: [QueuedMutation] = []
            for name in ["a", "b", "c"] { stored.append(try await store.enqueueMutation(testMutation(name))) }
            #expect(stored.map(\.sequence) == [1, 2, 3])
            #expect(try await store.queuedMutations(partition: "user-1") == stored)
            #expect(try await store.queuedMutations(partition: "user-2").isEmpty)
            #expect(try await store.queuedMutations(partition: nil).isEmpty)
            // A partition named "" is not signed out.
            let empty = try await store.enqueueMutation(testMutation("d", partition: ""))
            let signedOut = try await store.enqueueMutation(testMutation("e", partition: nil))
            #expect(try await store.queuedMutations(partition: "") == [empty])
            #expect(try await store.queuedMutations(partition: nil) == [signedOut])
            #expect(empty.sequence == 1 && signedOut.sequence == 1)
            // Mutations are not entries, and count toward no limit.
            #expect(try await store.entryCount() == 0)
            #expect(try await store.totalSize() == 0)
            try await relaunched(namespace) { again async throws in
                #expect(try await again.queuedMutations(partition: "user-1") == stored)
                #expect(try await again.queuedMutation(stored[1]) == stored[1])
            }
        }
    }

    @Test func updateAndRemoveActOnOneMutation() async throws {
        let namespace = TestDatabase.namespace()
        try await TestDatabase.withStore(namespace: namespace) { store async throws in
            let first = try await store.enqueueMutation(testMutation("a"))
            var second = try await store.enqueueMutation(testMutation("b"))
            second.attempts = 3
            second.failure = MutationFailure(status: 422, message: "refused", body: Data(#"{"error":"title"}"#.utf8))
            try await store.updateMutation(second)
            try await relaunched(namespace) { again async throws in
                #expect(try await again.queuedMutations(partition: "user-1") == [first, second])
                #expect(try await again.queuedMutation(second) == second)
            }
            var elsewhere = first
            elsewhere.partition = "user-2"
            #expect(try await store.queuedMutation(elsewhere) == nil)
            try await store.updateMutation(elsewhere)  // another partition's id: nothing changes
            try await store.removeMutation(elsewhere)
            #expect(try await store.queuedMutations(partition: "user-1") == [first, second])
            try await store.removeMutation(first)
            try await store.removeMutation(first)  // gone already: not an error
            #expect(try await store.queuedMutations(partition: "user-1") == [second])
            try await store.removeMutation(second)
            #expect(try await store.queuedMutation(second) == nil)
            try await store.updateMutation(second)  // gone: not brought back
            #expect(try await store.queuedMutations(partition: "user-1").isEmpty)
            // Numbers are not given twice: the counter outlives the mutations sent.
            #expect(try await store.enqueueMutation(testMutation("c")).sequence == 3)
        }
    }

    @Test func sequencesKeepGrowingAfterARelaunch() async throws {
        let namespace = TestDatabase.namespace()
        let first = try await TestDatabase.withStore(namespace: namespace) { try await $0.enqueueMutation(testMutation("a")) }
        let second = try await relaunched(namespace) { try await $0.enqueueMutation(testMutation("b")) }
        #expect(second.sequence > first.sequence)
        try await relaunched(namespace) { store async throws in
            #expect(try await store.queuedMutations(partition: "user-1").map(\.id) == [first.id, second.id])
        }
    }

    @Test func unreadableRowsAreListedAsFailedInTheirPlaceAndCanBeRemoved() async throws {
        let namespace = TestDatabase.namespace()
        try await TestDatabase.withStore(namespace: namespace) { store async throws in
            let good = try await store.enqueueMutation(testMutation("a"))
            let torn = try await store.enqueueMutation(testMutation("b"))
            let later = try await store.enqueueMutation(testMutation("c"))
            let moved = try await store.enqueueMutation(testMutation("d"))
            let outbox = namespace + "_outbox"
            try await TestDatabase.execute(
                "UPDATE \(unescaped: outbox) SET record = substring(record from 1 for 20) WHERE id = \(torn.id)")
            // A record of a later format, as after a downgrade, is not guessed at.
            try await TestDatabase.execute("UPDATE \(unescaped: outbox) SET format = 2 WHERE id = \(later.id)")
            // Another row's record in this row.
            try await TestDatabase.execute(
                """
                UPDATE \(unescaped: outbox) SET record = (SELECT record FROM \(unescaped: outbox) WHERE id = \(good.id))
                WHERE id = \(moved.id)
                """)

            let listed = try await relaunched(namespace) { try await $0.queuedMutations(partition: "user-1") }
            #expect(listed.map(\.id) == [good.id, torn.id, later.id, moved.id])
            #expect(listed.map(\.sequence) == [1, 2, 3, 4])
            #expect(listed[0] == good)
            #expect(listed[1].failure?.message == "unreadable queued mutation: damaged")
            #expect(listed[1].method.isEmpty && listed[1].partition == "user-1")
            #expect(listed[2].failure?.message == "unreadable queued mutation: of an unknown format")
            #expect(listed[3].failure?.message == "unreadable queued mutation: its content is another row's")
            #expect(try await store.queuedMutation(torn) == listed[1])
            try await store.removeMutation(listed[1])
            #expect(try await store.queuedMutations(partition: "user-1").map(\.id) == [good.id, later.id, moved.id])
        }
    }

    @Test func signOutAndRemoveAllTakeTheMutationsAndInvalidationsLeaveThem() async throws {
        let namespace = TestDatabase.namespace()
        try await TestDatabase.withStore(namespace: namespace) { store async throws in
            _ = try await store.enqueueMutation(testMutation("a", partition: "user-1"))
            _ = try await store.enqueueMutation(testMutation("b", partition: "user-1", path: "/notes/1"))
            try await store.setEntry(testEntry("x"), for: testKey("x", endpoint: "Notes.create", path: "/notes"))
            let other = try await store.enqueueMutation(testMutation("c", partition: "user-2"))
            let signedOut = try await store.enqueueMutation(testMutation("d", partition: nil))
            try await store.removeAll(endpoint: "Notes.create")
            try await store.removeAll(endpoint: "Notes.create", path: "/notes")
            try await store.removeAll(endpoint: "Notes.list")
            try await store.trim()
            #expect(try await store.queuedMutations(partition: "user-1").count == 2)
            #expect(try await store.entryCount() == 0)

            try await store.removeAll(partition: "user-1")
            try await relaunched(namespace) { again async throws in
                #expect(try await again.queuedMutations(partition: "user-1").isEmpty)
                #expect(try await again.queuedMutations(partition: "user-2") == [other])
                #expect(try await again.queuedMutations(partition: nil) == [signedOut])
            }
            // No row names the signed-out partition any more, not even its counter.
            let sequences = namespace + "_outbox_sequences"
            #expect(try await count("SELECT count(*)::bigint FROM \(unescaped: sequences) WHERE slot = '+user-1'") == 0)
            // The next user of the partition starts a queue of their own.
            #expect(try await store.enqueueMutation(testMutation("e", partition: "user-1")).sequence == 1)

            try await store.removeAll()
            try await relaunched(namespace) { again async throws in
                for partition in ["user-1", "user-2", nil] as [String?] {
                    #expect(try await again.queuedMutations(partition: partition).isEmpty)
                }
            }
            #expect(try await count("SELECT count(*)::bigint FROM \(unescaped: sequences)") == 0)
        }
    }

    @Test func credentialsAreNeverWritten() async throws {
        let namespace = TestDatabase.namespace()
        try await TestDatabase.withStore(namespace: namespace) { store async throws in
            let headers: [QueuedMutation.Parameter] = [
                .init(name: "Authorization", value: "Bearer secret-token"), .init(name: "cookie", value: "session=secret-token"),
                .init(name: "X-Request-Tag", value: "kept"),
            ]
            var stored = try await store.enqueueMutation(testMutation("a", headers: headers))
            #expect(stored.headers == [.init(name: "X-Request-Tag", value: "kept")])
            stored.headers.append(.init(name: "Proxy-Authorization", value: "Basic secret-token"))
            try await store.updateMutation(stored)
            stored.headers.removeLast()
            #expect(try await store.queuedMutation(stored) == stored)
            let outbox = namespace + "_outbox"
            #expect(try await count(
                "SELECT count(*)::bigint FROM \(unescaped: outbox) WHERE position('secret-token'::bytea in record) > 0") == 0)
        }
    }

    /// Stores on several connection pools enqueue into one partition at once while another
    /// lists it again and again: every number is given once, a later number never appears
    /// before a smaller one (no listing shows a gap that a smaller number fills later), and
    /// each enqueuer's mutations are numbered in the order their enqueues returned.
    @Test func concurrentEnqueuesFromManyConnectionsKeepStrictOrder() async throws {
        let namespace = TestDatabase.namespace()
        let stores = 4
        let tasksPerStore = 3
        let perTask = 15
        try await TestDatabase.withStore(namespace: namespace) { lister async throws in
            let done = StopFlag()
            async let watching = Self.watchOrder(of: lister, partition: "user-1", until: done)
            let returned = try await withThrowingTaskGroup(of: [QueuedMutation].self) { group in
                for _ in 0..<stores {
                    group.addTask {
                        try await TestDatabase.withStore(namespace: namespace) { store async throws in
                            try await withThrowingTaskGroup(of: [QueuedMutation].self) { tasks in
                                for task in 0..<tasksPerStore {
                                    tasks.addTask {
                                        var mine: [QueuedMutation] = []
                                        for index in 0..<perTask {
                                            mine.append(try await store.enqueueMutation(testMutation("\(task)-\(index)")))
                                        }
                                        let numbers = mine.map(\.sequence)
                                        #expect(numbers == numbers.sorted() && Set(numbers).count == numbers.count)
                                        return mine
                                    }
                                }
                                return try await tasks.reduce(into: []) { $0 += $1 }
                            }
                        }
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            done.stop()
            let problems = try await watching
            #expect(problems.isEmpty, "\(problems.prefix(5))")
            let total = stores * tasksPerStore * perTask
            let listed = try await lister.queuedMutations(partition: "user-1")
            #expect(listed.map(\.sequence) == Array(1...UInt64(total)))
            #expect(Set(listed.map(\.id)).count == total)
            #expect(Set(listed) == Set(returned))
        }
    }

    /// Lists `partition` again and again until `flag` stops it, and returns what broke the
    /// order: a listing out of order or with a number twice, or a mutation that appeared with
    /// a number not above every number listed before it.
    static func watchOrder(of store: PostgresCacheStore, partition: String?, until flag: StopFlag) async throws -> [String] {
        var problems: [String] = []
        var seen: Set<String> = []
        var highest: UInt64 = 0
        while !flag.isStopped && !Task.isCancelled {
            let listed = try await store.queuedMutations(partition: partition)
            let sequences = listed.map(\.sequence)
            if sequences != sequences.sorted() || Set(sequences).count != sequences.count {
                problems.append("listed out of order or twice: \(sequences)")
            }
            for mutation in listed where !seen.contains(mutation.id) {
                if mutation.sequence <= highest { problems.append("\(mutation.sequence) appeared after \(highest)") }
                seen.insert(mutation.id)
            }
            highest = max(highest, sequences.last ?? 0)
        }
        return problems
    }
}

/// Tells a loop in another task to stop.
final class StopFlag: Sendable {
    private let stopped = Atomic<Bool>(false)
    var isStopped: Bool { stopped.load(ordering: .acquiring) }
    func stop() { stopped.store(true, ordering: .releasing) }
}
