import Foundation
import Testing

/// The `PostgresStoreChild` executable, built next to the tests (the test target depends on it).
enum ChildProcess {
    static func locate() -> URL? {
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
        return folders.map { $0.appending(path: "PostgresStoreChild") }.first {
            FileManager.default.isExecutableFile(atPath: $0.path)
        }
    }

    /// Runs the child to its end and returns its status and output. The wait is blocking, so
    /// it runs on a thread of its own.
    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String, errors: String) {
        let executable = try #require(locate(), "PostgresStoreChild was not built next to the tests")
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result {
                    let process = Process()
                    process.executableURL = executable
                    process.arguments = arguments
                    let output = Pipe()
                    let errors = Pipe()
                    process.standardOutput = output
                    process.standardError = errors
                    try process.run()
                    let out = output.fileHandleForReading.readDataToEndOfFile()
                    let err = errors.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
                })
            }.start()
        }
    }
}

/// A child left running: started, then read line by line, killed or waited for.
/// `@unchecked Sendable`: `Process` is not `Sendable`; its methods are thread-safe.
final class RunningChild: @unchecked Sendable {
    let process: Process
    private let output: Pipe
    private let errors: Pipe
    private let input: Pipe

    init(_ arguments: [String]) throws {
        let executable = try #require(ChildProcess.locate(), "PostgresStoreChild was not built next to the tests")
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        output = Pipe()
        errors = Pipe()
        input = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        try process.run()
    }

    /// Sends a line to the child's standard input.
    func send(_ line: String) {
        try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// The next line the child prints (without the line break), or "" at its end. Blocking,
    /// so on a thread of its own.
    func nextLine() async -> String {
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
    func killHard() {
        kill(process.processIdentifier, SIGKILL)
    }

    /// Waits for the end and returns the status and what the child wrote to standard error.
    func wait() async -> (status: Int32, errors: String) {
        await withCheckedContinuation { continuation in
            Thread {
                let err = self.errors.fileHandleForReading.readDataToEndOfFile()
                self.process.waitUntilExit()
                continuation.resume(returning: (self.process.terminationStatus, String(decoding: err, as: UTF8.self)))
            }.start()
        }
    }
}
