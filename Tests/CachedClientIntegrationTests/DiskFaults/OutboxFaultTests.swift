import CachedClientTestSupport
import Foundation
import StoreTestSupport
import Testing

@_spi(Generated) @testable import CachedClientRuntime
@testable import CachedClientFileStore
@testable import StoreWriter

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What the caller of a queued mutation sees when the outbox fails: never `.queued` for a
/// mutation the outbox did not keep. Offline, a failed enqueue throws
/// `MutationNotQueuedError` (nothing is kept); online, the mutation is sent at once. With a
/// fault at every system call of the client's enqueue, each call either returns `.queued`
/// and the mutation is held once and sent once when the network is back, or throws and
/// nothing of it is held or sent.
@Suite("Offline writes when the outbox fails", .timeLimit(.minutes(1)))
struct OutboxFaultTests {
    static func client(_ server: OfflineServer, directory: URL, events: EventLog = EventLog()) throws -> CachedClient {
        OfflineFixtures.client(server, store: try FileCacheStore(directory: directory), events: events)
    }

    /// The error's text with the random part of the temporary file's name replaced.
    static func normalized(_ text: String) -> String {
        text.replacingOccurrences(of: #"\.tmp-[0-9a-f]+"#, with: ".tmp-<random>", options: .regularExpression)
    }

    @Test func anEnqueueThatCannotBeFlushedOfflineThrowsAndKeepsNothing() async throws {
        try await DiskFaultFolders.with { directory in
            let server = OfflineServer()
            let events = EventLog()
            let store = try FileCacheStore(directory: directory)
            let client = OfflineFixtures.client(server, store: store, events: events)
            let faults = SystemCallFaults(operation: "flush", fault: .error(EIO))
            let error = await #expect(throws: MutationNotQueuedError.self) {
                try await POSIX.$faults.withValue(faults) {
                    try await client.queueableResponse(for: OfflineFixtures.request("hi"), endpoint: OfflineFixtures.create, as: Note.self)
                }
            }
            #expect(faults.injected == 1)
            let outbox = store.outboxPath(partition: "user-1")
            #expect(
                Self.normalized(error?.description ?? "")
                    == "Notes.create: the mutation was neither queued nor sent, so nothing of it is kept: the outbox could not keep it "
                    + "(FileCacheStore could not flush \(outbox)/.tmp-<random>: Input/output error (errno 5)) and the server could "
                    + "not be reached (URLError -1009 (not connected to the internet)). Keep the user's change and try again.")
            #expect(try await store.queuedMutations(partition: "user-1").isEmpty)
            #expect(client.pendingMutations.items.isEmpty)
            #expect((try? FileManager.default.contentsOfDirectory(atPath: outbox)) == [])  // no temporary file left either

            // Once the fault goes, the same client queues again.
            let queued = try await client.queueableResponse(for: OfflineFixtures.request("again"), endpoint: OfflineFixtures.create, as: Note.self)
            #expect(queued.queuedID != nil)
        }
    }

    @Test func anEnqueueThatFailsOnlineIsSentAtOnceWithItsKey() async throws {
        try await DiskFaultFolders.with { directory in
            let server = OfflineServer()
            server.online = true
            let client = try Self.client(server, directory: directory)
            let result = try await POSIX.$faults.withValue(SystemCallFaults(operation: "flush", fault: .error(ENOSPC))) {
                try await client.queueableResponse(for: OfflineFixtures.request("hi"), endpoint: OfflineFixtures.create, as: Note.self)
            }
            #expect(result == .sent(Note(id: "n1", text: "hi")))
            #expect(server.requests.count == 1)
            #expect(server.requests.first?.headers["Idempotency-Key"] != nil)
            #expect(try await FileCacheStore(directory: directory).queuedMutations(partition: "user-1").isEmpty)
        }
    }

    /// A mutation of another scope than `first`'s, so it is attempted at once.
    static let second = OfflineFixtures.request("second", path: "/other")

    @Test func aFaultAtEveryCallOfAnEnqueueNeverSaysQueuedForWhatIsNotKept() async throws {
        // The calls of one enqueue, offline, after a first one (so the outbox is loaded).
        let counting = SystemCallFaults()
        try await DiskFaultFolders.with { directory in
            let client = try Self.client(OfflineServer(), directory: directory)
            _ = try await client.queueableResponse(for: OfflineFixtures.request("first"), endpoint: OfflineFixtures.create, as: Note.self)
            _ = try await POSIX.$faults.withValue(counting) {
                try await client.queueableResponse(for: Self.second, endpoint: OfflineFixtures.create, as: Note.self)
            }
        }
        let calls = counting.count
        // The enqueue (mkdir, create, write, fchmod, fsync, close, rename), then the attempt
        // that finds no network and counts it in the record (the same and an `access`).
        try #require(
            counting.operations.filter { $0 == "flush" }.count == 2 && counting.operations.last == "rename",
            "an enqueue makes \(calls) calls: \(counting.operations)")
        var queued = 0
        var refused = 0
        for at in 1...calls {
            for fault in [SystemCallFaults.Fault.error(ENOSPC), .error(EIO), .error(EACCES), .error(EROFS), .error(EINTR), .shortWrite] {
                let name = "\(fault) at call \(at) (\(counting.operations[at - 1]))"
                try await DiskFaultFolders.with { directory in
                    let server = OfflineServer()
                    let client = try Self.client(server, directory: directory)
                    let first = try await client.queueableResponse(
                        for: OfflineFixtures.request("first"), endpoint: OfflineFixtures.create, as: Note.self)
                    let faults = SystemCallFaults(at: at, fault: fault)
                    let result = await POSIX.$faults.withValue(faults) {
                        await Result(awaiting: {
                            try await client.queueableResponse(for: Self.second, endpoint: OfflineFixtures.create, as: Note.self)
                        })
                    }
                    let held = try await FileCacheStore(directory: directory).queuedMutations(partition: "user-1")
                    switch result {
                    case .success(let value):
                        queued += 1
                        let id = try #require(value.queuedID, "\(name): \(value)")
                        #expect(held.map(\.id) == [try #require(first.queuedID), id], "\(name)")
                    case .failure(let error):
                        refused += 1
                        #expect(error is MutationNotQueuedError, "\(name): \(error)")
                        #expect(held.map(\.id) == [first.queuedID], "\(name)")
                    }
                    if case .error(EINTR) = fault { #expect(result.isSuccess, "\(name): EINTR was not retried") }
                    if fault == .shortWrite { #expect(result.isSuccess, "\(name): a short write was not completed") }
                    // The network is back: what was queued is sent once, and nothing else.
                    server.online = true
                    await client.replayPendingMutations()
                    let relaunched = try Self.client(server, directory: directory)
                    await relaunched.replayPendingMutations()
                    let expected = ["first"] + (result.isSuccess ? ["second"] : [])
                    #expect(OfflineFixtures.texts(server.requests).sorted() == expected, "\(name)")
                    #expect(Set(server.requests.compactMap { $0.headers["Idempotency-Key"] }).count == expected.count, "\(name)")
                    #expect(try await FileCacheStore(directory: directory).queuedMutations(partition: "user-1").isEmpty, "\(name)")
                }
            }
        }
        print(
            "outbox faults: \(calls) calls of an enqueue × 6 kinds; \(queued) queued and sent once, "
                + "\(refused) refused with MutationNotQueuedError and never sent")
        #expect(refused > 0 && queued > 0)
    }
}

extension OutboxFaultTests {
    @Test func aFaultAtEveryCallOfAReplaySendsEachMutationOnce() async throws {
        // Two mutations of one scope and one of another wait; the network is back; the calls of the replay.
        func queueThree(_ client: CachedClient) async throws {
            for (text, path) in [("one", "/notes"), ("two", "/notes"), ("three", "/other")] {
                let result = try await client.queueableResponse(
                    for: OfflineFixtures.request(text, path: path), endpoint: OfflineFixtures.create, as: Note.self)
                try #require(result.queuedID != nil)
            }
        }
        let counting = SystemCallFaults()
        try await DiskFaultFolders.with { directory in
            let server = OfflineServer()
            let client = try Self.client(server, directory: directory)
            try await queueThree(client)
            server.online = true
            await POSIX.$faults.withValue(counting) { await client.replayPendingMutations() }
            try #require(OfflineFixtures.texts(server.requests).sorted() == ["one", "three", "two"])
        }
        let calls = counting.count
        try #require(counting.operations.filter { $0 == "remove" }.count == 3, "a replay makes \(calls) calls: \(counting.operations)")
        var runs = 0
        for at in 1...calls {
            for fault in [SystemCallFaults.Fault.error(EIO), .error(EACCES), .error(EINTR)] {
                let name = "\(fault) at call \(at) (\(counting.operations[at - 1]))"
                try await DiskFaultFolders.with { directory in
                    let server = OfflineServer()
                    let client = try Self.client(server, directory: directory)
                    try await queueThree(client)
                    server.online = true
                    await POSIX.$faults.withValue(SystemCallFaults(at: at, fault: fault)) { await client.replayPendingMutations() }
                    // The fault goes: the same client replays what is left, then the app relaunches.
                    await client.replayPendingMutations()
                    let relaunched = try Self.client(server, directory: directory)
                    await relaunched.replayPendingMutations()
                    #expect(OfflineFixtures.texts(server.requests).sorted() == ["one", "three", "two"], "\(name)")
                    #expect(try await FileCacheStore(directory: directory).queuedMutations(partition: "user-1").isEmpty, "\(name)")
                    runs += 1
                }
            }
        }
        print("replay faults: \(calls) calls of a replay × 3 kinds, \(runs) runs; each mutation sent once")
    }
}

extension Result {
    fileprivate init(awaiting body: () async throws(Failure) -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }

    fileprivate var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
