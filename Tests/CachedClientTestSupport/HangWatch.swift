import Dispatch
import FixtureServerSupport
import Foundation

@_spi(RuntimeLayers) import CachedClientValues

/// What became of a call watched for a hang.
package enum Watched<T: Sendable>: Sendable {
    case ended(Result<T, any Error>)
    /// It had not ended when the limit ran out.
    case hung
}

/// Waits for `task` on a thread of its own, never on a task: a deadlock that holds the
/// concurrency pool's threads cannot keep this from answering. `.hung` after `limit` seconds.
///
/// The limit is a deadline for a hang, never a measure of speed: a call that ends, however
/// slowly, is `.ended`.
package func watch<T: Sendable>(_ task: Task<T, any Error>, limit: Double = 30) async -> Watched<T> {
    let ended = DispatchSemaphore(value: 0)
    let result = Locked<Result<T, any Error>?>(nil)
    Task.detached {
        let outcome = await task.result
        result.withLock { $0 = outcome }
        ended.signal()
    }
    return await withCheckedContinuation { continuation in
        Thread {
            guard ended.wait(timeout: .now() + limit) == .success, let outcome = result.withLock({ $0 }) else {
                continuation.resume(returning: .hung)
                return
            }
            continuation.resume(returning: .ended(outcome))
        }.start()
    }
}

/// Whether `semaphore` is signalled within `limit` seconds, waited for on a thread of its own.
package func signalled(_ semaphore: DispatchSemaphore, within limit: Double) async -> Bool {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: semaphore.wait(timeout: .now() + limit) == .success) }.start()
    }
}

package enum ThreadStacks {
    /// Every thread's stack of this process, from gdb (Debian's package) when it is installed;
    /// printed when a test sees a hang, so that the report says where everything waits.
    package static func ofThisProcess() -> String {
        let gdb = ["/usr/bin/gdb", "/usr/local/bin/gdb"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let gdb else { return "(gdb is not installed: no stacks)" }
        // Into a file, not a pipe: gdb stops every thread of this process, the one that
        // would read a pipe too, and a full pipe would then stop gdb.
        let file = FileManager.default.temporaryDirectory.appending(path: "cachegen-stacks-\(UUID().uuidString).txt")
        guard FileManager.default.createFile(atPath: file.path, contents: nil),
              let handle = try? FileHandle(forWritingTo: file) else { return "(no file for gdb's output)" }
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(filePath: gdb)
        process.arguments = ["-p", "\(getpid())", "-batch", "-nx", "-ex", "thread apply all bt"]
        process.standardOutput = handle
        process.standardError = handle
        guard (try? ChildProcess.start(process)) != nil else { return "(gdb did not start)" }
        process.waitUntilExit()
        try? handle.close()
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? "(gdb wrote nothing readable)"
        return text
    }
}
