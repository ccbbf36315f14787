import Foundation
import Testing

@_spi(Generated) @testable import CachedClientRuntime
@testable import CachedClientFileStore
@_spi(RuntimeLayers) import CachedClientValues
@testable import StoreWriter

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Every system call of `FileCacheStore`, its removal log and its outbox can fail: the
/// workload (`FaultWorkload`: writes, reads, removals, a sign-out, enqueues, a replay, a
/// discard) runs with `ENOSPC`, `EIO`, `EACCES` or `EROFS` at each of its calls in turn
/// (once, and from there on, as a disk that stays full), `EINTR` at each, and a short write
/// at each write. Each run: no crash; no value read that was not written whole; no queued
/// mutation lost, doubled or torn; an enqueue that failed leaves nothing; and once the fault
/// goes, the same store writes and reads, and its outbox replays what it holds once.
///
/// The faults come from `SystemCallFaults`, bound to each run's task, so runs side by side
/// count only their own calls.
@Suite("FileCacheStore under disk faults at every system call", .timeLimit(.minutes(3)))
struct FileCacheStoreFaultTests {
    /// One run of the workload under `faults`: its reports, what the store held, and what the
    /// store did once the fault went.
    struct Run {
        var lines: [String] = []
        var violations: [String] = []
        var calls = 0
        var injected = 0
    }

    /// Runs the workload in a fresh folder under `faults`, then checks the store (the same
    /// one, and one opened afresh) without them, then uses it again.
    static func run(_ faults: SystemCallFaults) async -> Run {
        let directory = DiskFaultFolders.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        var run = Run()
        let lines = Locked<[String]>([])
        let store = await POSIX.$faults.withValue(faults) {
            await FaultWorkload.run(directory: directory) { line in lines.withLock { $0.append(line) } }
        }
        run.lines = lines.withLock { $0 }
        run.calls = faults.count
        run.injected = faults.injected
        let model = DiskFaultModel(run.lines)
        run.violations = model.violations
        if model.opened != (store != nil) { run.violations.append("the store's opening was reported wrong") }
        if let store { run.violations += await model.check(store: store).map { "the same store: " + $0 } }
        do {
            let reopened = try FileCacheStore(directory: directory, now: { FaultWorkload.date })
            run.violations += await model.check(store: reopened).map { "reopened: " + $0 }
            run.violations += await DiskFaultRecovery.check(store ?? reopened, model: model)
        } catch {
            run.violations.append("the store does not open after the fault went: \(error)")
        }
        return run
    }

    /// The faults tried at each call: every kind once, the errors also from there on.
    static func plans(calls: Int, writes: [Int]) -> [SystemCallFaults] {
        var plans: [SystemCallFaults] = []
        for at in 1...calls {
            for code in [ENOSPC, EIO, EACCES, EROFS] {
                plans.append(SystemCallFaults(at: at, fault: .error(code)))
                plans.append(SystemCallFaults(at: at, fault: .error(code), persistent: true))
            }
            plans.append(SystemCallFaults(at: at, fault: .error(EINTR)))
        }
        plans += writes.map { SystemCallFaults(at: $0, fault: .shortWrite) }
        return plans
    }

    @Test func everyFaultAtEveryCallKeepsTheGuarantees() async throws {
        let started = ContinuousClock.now
        // A run without faults: its calls, which are writes, and what it reports.
        let counted = SystemCallFaults()
        let clean = await Self.run(counted)
        #expect(clean.violations.isEmpty, "\(clean.violations)")
        #expect(!clean.lines.contains { $0.contains(" failed: ") }, "\(clean.lines)")
        #expect(clean.lines.contains("read b ok b2") && clean.lines.contains("read a ok a2"), "\(clean.lines)")
        let calls = clean.calls
        let writes = counted.writes
        try #require(calls > 50 && writes.count > 10, "the workload makes \(calls) calls, \(writes.count) writes")

        let plans = Self.plans(calls: calls, writes: writes)
        // Side by side, as many as there are cores: each counts its own calls only.
        let results = await withTaskGroup(of: (SystemCallFaults, Run).self) { group in
            var results: [(SystemCallFaults, Run)] = []
            var next = plans.makeIterator()
            let width = max(2, ProcessInfo.processInfo.activeProcessorCount)
            for _ in 0..<width {
                guard let plan = next.next() else { break }
                group.addTask { (plan, await Self.run(plan)) }
            }
            while let result = await group.next() {
                results.append(result)
                if let plan = next.next() { group.addTask { (plan, await Self.run(plan)) } }
            }
            return results
        }

        var failedSteps = 0
        var byKind: [String: Int] = [:]
        for (plan, run) in results {
            let name = "\(plan.fault)\(plan.persistent ? " from" : " at") call \(plan.at ?? 0) (\(counted.operations[(plan.at ?? 1) - 1]))"
            byKind[plan.fault.description + (plan.persistent ? ", persistent" : ""), default: 0] += 1
            #expect(run.violations.isEmpty, "\(name): \(run.violations)\n\(run.lines.joined(separator: "\n"))")
            // The call was reached: every run makes the same calls as the clean one up to the fault.
            #expect(run.injected >= 1, "\(name): the fault was never injected")
            failedSteps += run.lines.filter { $0.contains(" failed: ") }.count
            switch plan.fault {
            case .error(EINTR), .shortWrite:
                // Retried or completed: the workload cannot tell.
                #expect(run.lines == clean.lines, "\(name) changed what the workload saw: \(run.lines)")
            default:
                break
            }
        }
        let elapsed = ContinuousClock.now - started
        print(
            "disk faults: \(calls) system calls in the workload (\(writes.count) writes); \(results.count) runs "
                + "(\(byKind.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))); "
                + "\(failedSteps) steps failed cleanly; 0 crashes, "
                + "\(results.filter { !$0.1.violations.isEmpty }.count) runs with a torn value, a lost or doubled mutation "
                + "or a store that did not recover; \(elapsed)")
    }

    @Test func concurrentWorkloadsCountOnlyTheirOwnCalls() async {
        let first = SystemCallFaults()
        _ = await Self.run(first)
        let counts = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let faults = SystemCallFaults()
                    _ = await Self.run(faults)
                    return faults.count
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts == Array(repeating: first.count, count: 4))
    }

    @Test func interruptedCallsAreRetriedByTheWrapper() throws {
        try DiskFaultFolders.with { directory in
            let path = directory.path + "/file"
            let faults = SystemCallFaults(at: 1, fault: .error(EINTR))
            let fd = try POSIX.$faults.withValue(faults) { try POSIX.createForWriting(path, operation: "create") }
            defer { try? POSIX.closeFile(fd, path: path) }
            #expect(faults.count == 2)  // the interrupted call, then the retry
            #expect(try POSIX.isPresent(path))
        }
    }

    @Test func aShortWriteIsCompletedByTheWrapper() throws {
        try DiskFaultFolders.with { directory in
            let path = directory.path + "/file"
            let fd = try POSIX.createForWriting(path, operation: "create")
            let bytes = (0..<1_000).map { UInt8(truncatingIfNeeded: $0) }
            let faults = SystemCallFaults(at: 1, fault: .shortWrite)
            try POSIX.$faults.withValue(faults) { try POSIX.writeAll(fd, bytes, path: path) }
            try POSIX.closeFile(fd, path: path)
            #expect(faults.writes == [1, 2])  // half, then the rest
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes))
        }
    }

    @Test func aCloseThatFailsIsNotRepeated() async throws {
        // A failed `close` has closed the descriptor; closing it again could close a file
        // another thread opened since (runs side by side above once saw their files closed).
        try await DiskFaultFolders.with { directory in
            let store = try FileCacheStore(directory: directory, now: { FaultWorkload.date })
            let faults = SystemCallFaults(operation: "close", fault: .error(EIO))
            await #expect(throws: FileCacheStoreError.self) {
                try await POSIX.$faults.withValue(faults) {
                    _ = try await store.enqueueMutation(FaultWorkload.mutation("m0", partition: "user-1"))
                }
            }
            #expect(faults.operations.filter { $0 == "close" } == ["close"], "\(faults.operations)")
            #expect(try await store.queuedMutations(partition: "user-1").isEmpty)
        }
    }

    @Test func aFailedListingIsAnErrorNotAnEmptyOutbox() async throws {
        try await DiskFaultFolders.with { directory in
            let store = try FileCacheStore(directory: directory, now: { FaultWorkload.date })
            _ = try await store.enqueueMutation(FaultWorkload.mutation("m0", partition: "user-1"))
            let listing = SystemCallFaults(at: 1, fault: .error(EIO))
            let error = await #expect(throws: FileCacheStoreError.self) {
                try await POSIX.$faults.withValue(listing) { try await store.queuedMutations(partition: "user-1") }
            }
            #expect(
                error?.description
                    == "FileCacheStore could not list the queued mutations in \(store.outboxPath(partition: "user-1")): "
                    + "Input/output error (errno 5)")
            #expect(try await store.queuedMutations(partition: "user-1").map(\.id) == ["m0"])
        }
    }
}

/// The folders of the fault tests: in memory where the system has a tmpfs (`/dev/shm`),
/// since the faults come from the wrapper, not the disk, and thousands of runs would
/// otherwise wait on `fsync`.
enum DiskFaultFolders {
    static func make() -> URL {
        var base = FileManager.default.temporaryDirectory
        #if os(Linux)
        if access("/dev/shm", W_OK) == 0 { base = URL(fileURLWithPath: "/dev/shm", isDirectory: true) }
        #endif
        return base.appending(path: "cachegen-faults-\(UUID().uuidString)")
    }

    static func with<T>(_ body: (URL) async throws -> T) async throws -> T {
        let directory = make()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { remove(directory) }
        return try await body(directory)
    }

    static func with<T>(_ body: (URL) throws -> T) throws -> T {
        let directory = make()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { remove(directory) }
        return try body(directory)
    }

    /// Removes the folder, again if a store's background removal (a sweep, the trash) took
    /// a file from under the first walk, which then stops and leaves the rest.
    private static func remove(_ directory: URL) {
        for _ in 0..<3 where FileManager.default.fileExists(atPath: directory.path) {
            try? FileManager.default.removeItem(at: directory)
        }
    }
}

/// After a fault: the same store writes and reads, takes a new mutation, and its outbox
/// replays what it holds exactly once (each listed once, then none).
enum DiskFaultRecovery {
    static func check(_ store: FileCacheStore, model: DiskFaultModel) async -> [String] {
        var found: [String] = []
        do {
            try await store.setEntry(FaultWorkload.entry("a9"), for: FaultWorkload.key("a"))
            let seen = FaultWorkload.name(of: try await store.entry(for: FaultWorkload.key("a")))
            if seen != "a9" { found.append("after the fault a write then a read gave \(seen)") }
        } catch {
            found.append("after the fault a write or a read failed: \(error)")
        }
        do {
            _ = try await store.enqueueMutation(FaultWorkload.mutation("r0", partition: "user-1"))
            let held = try await store.queuedMutations(partition: "user-1")
            var sent: [String] = []
            for mutation in held where mutation.failure == nil {
                sent.append(mutation.id)
                try await store.removeMutation(mutation)
            }
            if sent.count != Set(sent).count || !sent.contains("r0") || sent.count != held.count {
                found.append("the replay after the fault sent \(sent) of \(held.map(\.id))")
            }
            let left = try await store.queuedMutations(partition: "user-1")
            if !left.isEmpty { found.append("the outbox still holds \(left.map(\.id)) after its replay") }
        } catch {
            found.append("after the fault the outbox failed: \(error)")
        }
        return found
    }
}
