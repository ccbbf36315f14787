import CachedClientRuntime
import FixtureServerSupport
import Foundation
import PostgresNIO
import Testing

@testable import PostgresCacheStore

/// The outbox across real processes (`PostgresStoreChild enqueue`): processes enqueueing into
/// one partition at once, and a process killed with `kill -9` in the middle of its enqueues.
@Suite(
    .enabled(if: TestDatabase.enabled, "CACHEGEN_POSTGRES_URL is not set: run through Scripts/with-postgres.sh"),
    .timeLimit(.minutes(3)))
struct OutboxProcessTests {
    /// Starts `count` children in `enqueue` mode, waits until each is ready, then lets them all go at once.
    private func startEnqueueing(
        _ count: Int, namespace: String, total: Int, tasks: Int, bodyBytes: Int
    ) async throws -> [RunningChild] {
        let url = try TestDatabase.requireURL()
        var children: [RunningChild] = []
        for _ in 0..<count {
            children.append(
                try RunningChild("PostgresStoreChild", [
                    "enqueue", url, namespace, "user-1", "\(total)", "\(tasks)", "\(bodyBytes)",
                ]))
        }
        for child in children { #expect(await child.nextLine() == "READY") }
        for child in children { child.send("GO") }
        return children
    }

    /// The `ENQUEUED <sequence> <number>` lines a child printed up to `DONE` or its end.
    private func reported(by child: RunningChild) async -> [(sequence: UInt64, number: Int)] {
        var found: [(UInt64, Int)] = []
        while true {
            let line = await child.nextLine()
            let parts = line.split(separator: " ")
            guard parts.count == 3, parts[0] == "ENQUEUED", let sequence = UInt64(parts[1]), let number = Int(parts[2])
            else { return found }
            found.append((sequence, number))
        }
    }

    /// Whether `mutation` is the whole record a child wrote: its number, and its body of that
    /// many bytes of that number.
    private func isWhole(_ mutation: QueuedMutation, bodyBytes: Int) -> Bool {
        guard mutation.failure == nil, let number = mutation.query.first.flatMap({ Int($0.value) }) else { return false }
        return mutation.body == Data(repeating: UInt8(number % 251), count: bodyBytes) && mutation.method == "POST"
    }

    /// Sessions other than this query's inside a transaction whose last statement names `table`.
    private func enqueuesInTransaction(_ table: String) async throws -> Int {
        try await TestDatabase.withClient { client in
            try await TestDatabase.integer(
                """
                SELECT count(*)::bigint FROM pg_stat_activity
                WHERE pid <> pg_backend_pid() AND xact_start IS NOT NULL AND position(\(table) in query) > 0
                """, on: client)
        }
    }

    /// Three processes, three tasks each, 20 mutations each process, one partition, while this
    /// process lists it: numbers 1…60, each once, in the order each process's enqueues returned.
    @Test func processesEnqueueingAtOnceKeepStrictOrder() async throws {
        let namespace = TestDatabase.namespace()
        try await TestDatabase.withStore(namespace: namespace) { store async throws in
            let done = StopFlag()
            async let watching = PostgresMutationOutboxTests.watchOrder(of: store, partition: "user-1", until: done)
            let children = try await startEnqueueing(3, namespace: namespace, total: 20, tasks: 3, bodyBytes: 64)
            var reports: [[(sequence: UInt64, number: Int)]] = []
            for child in children {
                reports.append(await reported(by: child))
                let result = await child.wait()
                #expect(result.status == 0, "\(result.errors)")
            }
            done.stop()
            let problems = try await watching
            #expect(problems.isEmpty, "\(problems.prefix(5))")
            let listed = try await store.queuedMutations(partition: "user-1")
            #expect(listed.map(\.sequence) == Array(1...60))
            #expect(Set(listed.map(\.id)).count == 60)
            #expect(listed.allSatisfy { isWhole($0, bodyBytes: 64) })
            #expect(Set(reports.flatMap { $0.map(\.sequence) }) == Set(1...60))
        }
    }

    /// A process enqueueing large mutations from four tasks is killed with `kill -9`, three
    /// times: every mutation whose enqueue returned is there, every row is a whole record (the
    /// ones in flight left nothing), numbers stay strictly increasing without duplicates, and
    /// the next enqueue gets a larger number.
    @Test func aProcessKilledDuringEnqueuesLeavesWholeRecordsOrNothing() async throws {
        let namespace = TestDatabase.namespace()
        let bodyBytes = 128 << 10
        let outbox = namespace + "_outbox"
        try await TestDatabase.withStore(namespace: namespace) { store async throws in
            var returned: Set<UInt64> = []
            var before = 0
            for _ in 0..<3 {
                let child = try await startEnqueueing(1, namespace: namespace, total: 0, tasks: 4, bodyBytes: bodyBytes)[0]
                // Killed once it is well under way, with enqueues in flight on its four connections.
                try await eventually {
                    try await TestDatabase.withClient { client in
                        try await TestDatabase.integer("SELECT count(*)::bigint FROM \(unescaped: outbox)", on: client)
                    } >= before + 8
                }
                // …and at a moment when the server shows one of them inside its transaction.
                try await eventually { try await enqueuesInTransaction(outbox) > 0 }
                child.killHard()
                let result = await child.wait()
                // The server ends the killed process's sessions, rolling back what they had begun.
                try await eventually { try await enqueuesInTransaction(outbox) == 0 }
                #expect(result.reason == .uncaughtSignal, "\(result.errors)")
                returned.formUnion(await reported(by: child).map(\.sequence))

                let listed = try await store.queuedMutations(partition: "user-1")
                let sequences = listed.map(\.sequence)
                #expect(sequences == sequences.sorted() && Set(sequences).count == sequences.count)
                #expect(Set(listed.map(\.id)).count == listed.count)
                #expect(returned.isSubset(of: Set(sequences)), "a mutation whose enqueue returned is missing")
                let torn = listed.filter { !isWhole($0, bodyBytes: bodyBytes) }
                #expect(torn.isEmpty, "\(torn.count) rows are not whole records")
                before = listed.count
            }
            let listed = try await store.queuedMutations(partition: "user-1")
            let next = try await store.enqueueMutation(testMutation("after"))
            #expect(next.sequence > listed.last?.sequence ?? 0)
        }
    }
}
