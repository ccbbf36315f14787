import CachedClientTestSupport
import Foundation
import StoreTestSupport
import Testing

@_spi(Generated) @testable import CachedClientRuntime
@testable import StoreWriter

/// Three real processes on one store folder, as an app, its extension and a sign-out
/// would: two write, read and remove entries while the third signs `alice` out every
/// 5 ms. No store call throws, and after every sign-out none of what alice had before it
/// is anywhere under the folder, trash and temporary files included (how that is checked
/// without judging writes that race the sign-out: `ManyProcessesFixture`).
@Suite("FileCacheStore: many processes, one folder", .timeLimit(.minutes(1)))
struct FileCacheStoreManyProcessesTests {
    static let seconds = 6.0

    @Test func signOutsRacingWritesInOtherProcessesNeverThrowAndLeaveNoByte() async throws {
        try await withStoreDirectory { directory in
            let gate = directory.path + ".gate"
            #expect(FileManager.default.createFile(atPath: gate, contents: Data(count: 8)))
            defer { try? FileManager.default.removeItem(atPath: gate) }
            let duration = String(Self.seconds)
            let runs = try await withThrowingTaskGroup(of: (status: Int32, output: String, errors: String).self) { group in
                for seed in [1, 2] {
                    group.addTask { try await runStoreWriter(["churn", directory.path, gate, duration, String(seed)]) }
                }
                group.addTask { try await runStoreWriter(["sign-out", directory.path, gate, duration]) }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            var figures: [[String: String]] = []
            for run in runs {
                #expect(run.status == 0, "\(run.errors)")
                #expect(run.errors.isEmpty, "\(run.errors)")
                let line = try #require(run.output.split(separator: "\n").first { $0.hasPrefix("RESULT ") })
                figures.append(Dictionary(uniqueKeysWithValues: line.split(separator: " ").dropFirst().map {
                    let parts = $0.split(separator: "=", maxSplits: 1)
                    return (String(parts[0]), String(parts.count > 1 ? parts[1] : ""))
                }))
            }
            let signOut = try #require(figures.first { $0["role"] == "sign-out" })
            let churns = figures.filter { $0["role"] == "churn" }
            #expect(churns.count == 2)
            for process in figures {
                #expect(process["errors"] == "0", "\(process)")
                #expect(Int(process["operations"] ?? "") ?? 0 > 0, "\(process)")
            }
            #expect(signOut["filesLeft"] == "0" && signOut["bytesLeft"] == "0", "\(signOut)")
            // The check is not vacuous: alice had entries before the sign-outs.
            #expect(Int(signOut["aliceFilesBefore"] ?? "") ?? 0 > 0, "\(signOut)")
            // Every process ended normally, so no trash is left.
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(!names.contains { $0.hasPrefix(FileCacheStore.Trash.prefix) }, "\(names)")
            print(
                "many processes (\(Self.seconds) s): sign-outs \(signOut["operations"] ?? "?"), "
                    + "churn operations \(churns.map { $0["operations"] ?? "?" }.joined(separator: " + ")), "
                    + "errors \(figures.map { $0["errors"] ?? "?" }.joined(separator: "/")), "
                    + "alice files before every 10th sign-out \(signOut["aliceFilesBefore"] ?? "?"), "
                    + "left after sign-outs \(signOut["filesLeft"] ?? "?") files / \(signOut["bytesLeft"] ?? "?") bytes; "
                    + "time in sign-outs \(signOut["signOutMilliseconds"] ?? "?") ms, in checks \(signOut["checkMilliseconds"] ?? "?") ms")
        }
    }
}
