import FixtureServerSupport
import Foundation
import Testing

@_spi(Generated) @testable import CachedClientRuntime
@testable import CachedClientFileStore
@testable import StoreWriter

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A process killed between any two system calls of the store (or in the middle of a
/// write) leaves a store the next launch can use: a `StoreWriter` child runs the disk-fault
/// workload (`FaultWorkload`) and kills itself with `SIGKILL` at call N (its own
/// `SystemCallFaults`, so every point is hit, not a random few), for every N; this process
/// then opens the folder and checks that no value is torn, every mutation the child
/// reported enqueued is held exactly once (and none it reported failed), and the store
/// writes, reads and replays again.
@Suite("FileCacheStore killed at every system call", .timeLimit(.minutes(3)))
struct FileCacheStoreCrashPointTests {
    /// What one killed child left.
    struct Point: Sendable {
        var at: Int
        var fault: String
        var lines: [String]
        var killed: Bool
        var violations: [String]
    }

    /// Runs the child killed at call `at` by `fault`, then checks the folder it left.
    static func point(at: Int, fault: String) async -> Point {
        let directory = DiskFaultFolders.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        var point = Point(at: at, fault: fault, lines: [], killed: false, violations: [])
        do {
            let (status, output, errors) = try await ChildProcess.run("StoreWriter", ["fault-workload", directory.path, String(at), fault], limit: 60)
            point.lines = output.split(separator: "\n").map(String.init)
            point.killed = status == SIGKILL && !point.lines.contains { $0.hasPrefix("calls ") }
            if !point.killed, at > 0 { point.violations.append("the child was not killed (status \(status)): \(errors)") }
        } catch {
            point.violations.append("the child did not run: \(error)")
            return point
        }
        let model = DiskFaultModel(point.lines)
        point.violations += model.violations
        do {
            let store = try FileCacheStore(directory: directory, now: { FaultWorkload.date })
            point.violations += await model.check(store: store)
            point.violations += await DiskFaultRecovery.check(store, model: model)
        } catch {
            point.violations.append("the store does not open after the kill: \(error)")
        }
        return point
    }

    @Test func aKillAtEveryCallLosesNothingAndTearsNothing() async throws {
        let started = ContinuousClock.now
        // The child's calls, from a run it is not killed in.
        let clean = await Self.point(at: 0, fault: "kill")
        #expect(clean.violations.isEmpty, "\(clean.violations)")
        let calls = try #require(clean.lines.last.flatMap { $0.hasPrefix("calls ") ? Int($0.dropFirst(6)) : nil }, "\(clean.lines)")
        // The same workload in this process numbers the same calls: which of them are writes.
        let counted = SystemCallFaults()
        let countingRun = await FileCacheStoreFaultTests.run(counted)
        #expect(countingRun.violations.isEmpty, "\(countingRun.violations)")
        #expect(counted.count == calls, "the child made \(calls) calls, this process \(counted.count)")
        let writes = counted.writes.filter { $0 <= calls }

        let points = (1...calls).map { ($0, "kill") } + writes.map { ($0, "short-write-then-kill") }
        let results = await withTaskGroup(of: Point.self) { group in
            var results: [Point] = []
            var next = points.makeIterator()
            for _ in 0..<max(2, ProcessInfo.processInfo.activeProcessorCount) {
                guard let (at, fault) = next.next() else { break }
                group.addTask { await Self.point(at: at, fault: fault) }
            }
            while let result = await group.next() {
                results.append(result)
                if let (at, fault) = next.next() { group.addTask { await Self.point(at: at, fault: fault) } }
            }
            return results
        }
        var interrupted: [String: Int] = [:]
        for point in results {
            #expect(point.killed, "\(point.fault) at call \(point.at): the child was not killed")
            #expect(
                point.violations.isEmpty,
                "\(point.fault) at call \(point.at) (\(counted.operations[point.at - 1])): \(point.violations)\n\(point.lines.joined(separator: "\n"))")
            let step = point.lines.last { $0.hasPrefix("begin ") }.map { String($0.dropFirst(6).prefix { $0 != " " }) } ?? "?"
            interrupted[step, default: 0] += 1
        }
        print(
            "crash points: \(calls) calls killed before, \(writes.count) writes killed halfway; \(results.count) children killed "
                + "(in \(interrupted.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))); "
                + "\(results.filter { !$0.violations.isEmpty }.count) with a torn value, a lost or doubled mutation or a store that did not recover; "
                + "\(ContinuousClock.now - started)")
    }
}
