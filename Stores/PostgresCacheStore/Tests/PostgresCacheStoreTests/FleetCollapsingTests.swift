@_spi(Generated) import CachedClientRuntime
import FixtureServerSupport
import Foundation
import PostgresNIO
import Synchronization
import Testing

@testable import PostgresCacheStore

/// Fleet-wide request collapsing through `<ns>_leases`, with real child processes and a real
/// upstream (Tests/Fixtures/fixture_server.py, which counts the requests it serves).
@Suite(
    .enabled(if: TestDatabase.enabled, "CACHEGEN_POSTGRES_URL is not set: run through Scripts/with-postgres.sh"),
    .timeLimit(.minutes(3)))
struct FleetCollapsingTests {
    private func upstreamRequests(_ server: FixtureServer, path: String) async throws -> Int {
        try await server.requests().filter { $0.path == path }.count
    }

    /// Starts `count` children in `fetch` mode, waits until each is ready, then lets them all go at once.
    private func startFetching(
        _ count: Int, namespace: String, server: FixtureServer, path: String, tasks: Int, lease: Double, maxWait: Double
    ) async throws -> [RunningChild] {
        let url = try TestDatabase.requireURL()
        var children: [RunningChild] = []
        for _ in 0..<count {
            children.append(
                try RunningChild("PostgresStoreChild", [
                    "fetch", url, namespace, server.baseURL.absoluteString, path, "\(tasks)", "\(lease)", "\(maxWait)",
                ]))
        }
        for child in children { #expect(await child.nextLine() == "READY") }
        for child in children { child.send("GO") }
        return children
    }

    /// What a child printed at its end: the ids it got and how many calls were collapsed.
    private func finish(_ child: RunningChild, log: inout String) async -> (ids: String, collapsed: Int)? {
        let line = await child.nextLine()
        let result = await child.wait()
        #expect(result.status == 0, "\(result.errors)")
        log += "child: \(line)\n\(result.errors)"
        let parts = line.split(separator: " ")
        guard parts.count == 3, parts[0] == "DONE", let collapsed = Int(parts[2]) else {
            Issue.record("unexpected child output: \(line) \(result.errors)")
            return nil
        }
        return (String(parts[1]), collapsed)
    }

    /// Four processes, 25 concurrent calls each, one key at the same moment: one upstream request.
    ///
    /// "At the same moment" is what collapsing promises: a call that starts after the holder's
    /// answer was stored asks the network again (`networkFirst`), so a process that a loaded
    /// machine schedules late would rightly cause a second request. The upstream answer takes
    /// 3 s, so a child has to start that late to do so (with 300 ms one did, on CI).
    @Test func processesAskingForOneKeyAtOnceCauseOneUpstreamRequest() async throws {
        let server = try await FixtureServer.start()
        defer { server.stop() }
        try await server.setRoute("/accounts/1", json: ["id": "1"], delayMilliseconds: 3_000)
        let namespace = TestDatabase.namespace()
        let children = try await startFetching(
            4, namespace: namespace, server: server, path: "/accounts/1", tasks: 25, lease: 30, maxWait: 20)
        var collapsed = 0
        var log = ""
        for child in children {
            let result = await finish(child, log: &log)
            #expect(result?.ids == "1")
            collapsed += result?.collapsed ?? 0
        }
        #expect(try await upstreamRequests(server, path: "/accounts/1") == 1, "\(log)")
        #expect(collapsed == 3, "each process but the holder took the stored answer")
        #expect(!log.contains("release failed"), "flush() waits for the holder's release\n\(log)")
    }

    /// A holder killed with `kill -9` never releases its claim: the others wait until it
    /// expires, then one of them fetches and the rest take its answer.
    ///
    /// One call per process here and in the next test: a call that starts after its process's
    /// merged fetch ended is a new fetch (`networkFirst`), and on a loaded machine a task of a
    /// task group can start that late (seen: a third request). Merging within a process is
    /// `RequestMerger`'s, tested deterministically in the root package.
    @Test func aHolderKilledWithKill9LosesItsClaimAtItsExpiry() async throws {
        let server = try await FixtureServer.start()
        defer { server.stop() }
        try await server.setRoute("/accounts/2", json: ["id": "2"])
        // The holder's request hangs (the route answers one request, after a minute).
        try await server.setRoute("/accounts/2", json: ["id": "slow"], delayMilliseconds: 60_000, times: 1)
        let namespace = TestDatabase.namespace()
        let holder = try await startFetching(
            1, namespace: namespace, server: server, path: "/accounts/2", tasks: 1, lease: 3, maxWait: 20)[0]
        // Killed while its request is upstream, holding the claim.
        try await eventually { try await upstreamRequests(server, path: "/accounts/2") == 1 }
        holder.killHard()
        _ = await holder.wait()

        let waiters = try await startFetching(
            3, namespace: namespace, server: server, path: "/accounts/2", tasks: 1, lease: 30, maxWait: 20)
        var collapsed = 0
        var log = ""
        for waiter in waiters {
            let result = await finish(waiter, log: &log)
            #expect(result?.ids == "2")
            collapsed += result?.collapsed ?? 0
        }
        #expect(try await upstreamRequests(server, path: "/accounts/2") == 2, "the dead holder's and one more\n\(log)")
        #expect(collapsed == 2)
    }

    /// A waiter gives up after `maxWait` and fetches by itself: a slow holder costs a request,
    /// never a failure.
    @Test func aWaiterGivesUpAfterItsBoundAndFetchesItself() async throws {
        let server = try await FixtureServer.start()
        defer { server.stop() }
        try await server.setRoute("/accounts/3", json: ["id": "3"])
        try await server.setRoute("/accounts/3", json: ["id": "slow"], delayMilliseconds: 60_000, times: 1)
        let namespace = TestDatabase.namespace()
        let holder = try await startFetching(
            1, namespace: namespace, server: server, path: "/accounts/3", tasks: 1, lease: 120, maxWait: 20)[0]
        defer { holder.killHard() }
        try await eventually { try await upstreamRequests(server, path: "/accounts/3") == 1 }
        let waiter = try await startFetching(
            1, namespace: namespace, server: server, path: "/accounts/3", tasks: 1, lease: 120, maxWait: 0.3)[0]
        var log = ""
        let result = await finish(waiter, log: &log)
        #expect(result?.ids == "3")
        #expect(result?.collapsed == 0)
        #expect(try await upstreamRequests(server, path: "/accounts/3") == 2, "the holder's and the waiter's own\n\(log)")
    }
}
