import CachedClientTestSupport
import FixtureServerSupport
import Foundation
import StoreTestSupport
import Testing

@_spi(Generated) @testable import CachedClientRuntime
@testable import StoreWriter

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A process killed with SIGKILL halfway through a write (an app killed by the system, an
/// extension over its memory limit) leaves either the old entry or the new one, never a
/// torn file that reads as an entry.
///
/// The writer is a real separate process, the `StoreWriter` executable target built next
/// to the tests; it writes, replaces and removes entries in a loop until it is killed.
@Suite("FileCacheStore survives kill -9", .timeLimit(.minutes(2)))
struct FileCacheStoreCrashTests {
    static let rounds = 30

    @Test func everyEntryReadsBackWholeOrIsAMissAfterEachKill() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "cachegen-kill-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let events = EventLog()
        var entriesChecked = 0
        var hits = 0

        // This process reads the same folder while the child writes, as an app does while
        // its extension writes.
        let reader = try FileCacheStore(directory: directory, events: events.record)
        var concurrentReads = 0

        for round in 1...Self.rounds {
            let child = try RunningChild("StoreWriter", [directory.path])
            // Its first entry is written.
            #expect(await child.nextLine() == "READY")
            let killAt = ContinuousClock.now + .milliseconds(Int.random(in: 0...40))
            if round.isMultiple(of: 2) {
                // Kill at a random moment while it writes: after 0 to 40 ms of writing,
                // spent reading every entry the child is replacing.
                repeat {
                    for item in 0..<WriterFixture.itemCount {
                        concurrentReads += 1
                        guard let entry = try await reader.entry(for: WriterFixture.key(item)) else { continue }
                        let version = try #require(WriterFixture.version(of: entry.body, item: item), "round \(round): item \(item)")
                        #expect(entry == WriterFixture.entry(item, version), "round \(round): item \(item) read torn while written")
                    }
                } while ContinuousClock.now < killAt
            } else {
                // Kill the moment a write is seen under way (its temporary file exists),
                // which most random moments miss: a write is a small part of the loop.
                while ContinuousClock.now < killAt, !Self.hasTemporaryFile(in: directory) { await Task.yield() }
            }
            child.killHard()
            let (reason, status, errors) = await child.wait()
            if reason != .uncaughtSignal || status != SIGKILL {
                Issue.record("round \(round): the writer ended on its own (\(status)): \(errors)")
            }

            // A new store, as the next launch would open it.
            let store = try FileCacheStore(directory: directory, events: events.record)
            for item in 0..<WriterFixture.itemCount {
                entriesChecked += 1
                guard let entry = try await store.entry(for: WriterFixture.key(item)) else { continue }
                hits += 1
                let version = try #require(
                    WriterFixture.version(of: entry.body, item: item), "round \(round): item \(item) has a damaged header")
                #expect(entry == WriterFixture.entry(item, version), "round \(round): item \(item) version \(version) is not whole")
            }
        }

        // No file was ever unreadable: a rename either happened or did not.
        #expect(events.all.isEmpty, "\(events.all)")
        #expect(hits > 0)
        // A kill during a write leaves its temporary file (swept after 10 minutes), never an entry.
        let files = FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String] ?? []
        let halfWritten = files.filter { ($0 as NSString).lastPathComponent.hasPrefix(".tmp-") }.count
        print(
            "kill -9: \(Self.rounds) rounds survived, \(halfWritten) kills during a write, \(entriesChecked) reads after kills "
                + "(\(hits) whole entries), \(concurrentReads) reads while the child wrote, 0 torn")
    }

    /// Whether a write is under way in the writer's folders (the shared partition).
    static func hasTemporaryFile(in directory: URL) -> Bool {
        let shared = directory.path + "/" + FileCacheStore.layoutFolderName + "/shared"
        let endpoint = shared + "/" + FileCacheStore.Folder.endpointFolderName(WriterFixture.endpoint)
        for item in 0..<10 {
            let folder = endpoint + "/" + FileCacheStore.Folder.pathFolderName(WriterFixture.path(item))
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            if names.contains(where: { $0.hasPrefix(".tmp-") }) { return true }
        }
        return false
    }
}
