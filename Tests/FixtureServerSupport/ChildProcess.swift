import Foundation

// Child processes the tests start: executables SwiftPM builds next to the test bundle (a test
// target depends on them), run to their end or left running to be read, killed and waited
// for. Shared by this package's tests and the PostgreSQL store's.

/// Runs an executable built next to the tests.
public enum ChildProcess {
    /// Held while a child is started and while the pipes for one are made.
    ///
    /// On Linux, Foundation's `Process.run()` closes in the child every descriptor open when it
    /// starts building the spawn, but one made by another thread in the instant before the
    /// spawn is inherited. `Process` learns that a child exited when the socket that child holds
    /// closes, and a reader when its pipe's last writer closes: a long-lived child (a fixture
    /// server) that inherited another child's socket or pipe keeps that child "running", so a
    /// test waiting for it hangs until the server stops, and the shared server never stops.
    /// Every child the tests start goes through `start(_:)`, and its pipes through `pipe()`.
    private static let spawning = NSLock()

    /// Starts `process` while no other child of the tests starts or gets its pipes.
    public static func start(_ process: Process) throws {
        try spawning.withLock { try process.run() }
    }

    /// A pipe made while no child of the tests starts.
    public static func pipe() -> Pipe {
        spawning.withLock { Pipe() }
    }

    /// The executable's path is not next to the tests: the test target does not depend on it.
    public struct NotBuilt: Error, CustomStringConvertible {
        /// The executable's name.
        public var name: String
        /// What to do.
        public var description: String { "\(name) was not built next to the tests; make the test target depend on it" }
    }

    /// The executable `name` next to the running tests, or `nil`.
    public static func locate(_ name: String) -> URL? {
        var folders: [URL] = []
        #if os(Linux)
        folders.append(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent())
        #endif
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        if let executable = Bundle.main.executableURL {
            folders.append(executable.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        return folders.map { $0.appending(path: name) }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// The executable `name` next to the running tests; throws `NotBuilt` without it.
    public static func require(_ name: String) throws -> URL {
        guard let url = locate(name) else { throw NotBuilt(name: name) }
        return url
    }

    /// Runs `name` with `arguments` to its end and returns its status and output; with a
    /// `limit`, a child still running after that many seconds is terminated (a hang is a
    /// failure, never a wait without end). The waits block, so they run on a thread of their own.
    public static func run(
        _ name: String, _ arguments: [String], limit: Double? = nil
    ) async throws -> (status: Int32, output: String, errors: String) {
        let executable = try require(name)
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result {
                    let process = Process()
                    process.executableURL = executable
                    process.arguments = arguments
                    let output = ChildProcess.pipe()
                    let errors = ChildProcess.pipe()
                    process.standardOutput = output
                    process.standardError = errors
                    try ChildProcess.start(process)
                    let watchdog = DispatchWorkItem { process.terminate() }
                    if let limit { DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: watchdog) }
                    let out = output.fileHandleForReading.readDataToEndOfFile()
                    let err = errors.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    watchdog.cancel()
                    return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
                })
            }.start()
        }
    }
}

/// A child left running: started, then read line by line, written to, killed or waited for.
/// `@unchecked Sendable`: `Process` is not `Sendable`; its methods are thread-safe.
public final class RunningChild: @unchecked Sendable {
    private let process: Process
    private let output = ChildProcess.pipe()
    private let errors = ChildProcess.pipe()
    private let input = ChildProcess.pipe()

    /// Starts the executable `name` (built next to the tests) with `arguments`.
    public init(_ name: String, _ arguments: [String]) throws {
        process = Process()
        process.executableURL = try ChildProcess.require(name)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        try ChildProcess.start(process)
    }

    /// Sends a line to the child's standard input.
    public func send(_ line: String) {
        try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// The next line the child prints (without the line break), or "" at its end. Blocking,
    /// so on a thread of its own.
    public func nextLine() async -> String {
        await withCheckedContinuation { continuation in
            Thread {
                var line = Data()
                let handle = self.output.fileHandleForReading
                while true {
                    let byte = handle.readData(ofLength: 1)
                    if byte.isEmpty || byte.first == UInt8(ascii: "\n") { break }
                    line.append(byte)
                }
                continuation.resume(returning: String(decoding: line, as: UTF8.self))
            }.start()
        }
    }

    /// `kill -9`: the child gets no chance to clean up.
    public func killHard() {
        kill(process.processIdentifier, SIGKILL)
    }

    /// Waits for the end: how it ended, its status and what it wrote to standard error.
    public func wait() async -> (reason: Process.TerminationReason, status: Int32, errors: String) {
        await withCheckedContinuation { continuation in
            Thread {
                let err = self.errors.fileHandleForReading.readDataToEndOfFile()
                self.process.waitUntilExit()
                continuation.resume(
                    returning: (self.process.terminationReason, self.process.terminationStatus, String(decoding: err, as: UTF8.self)))
            }.start()
        }
    }
}
