import Foundation
import PostgresCacheStore

// The child process of the many-process tests and benchmarks (a real separate process on
// the same database). Modes, each printing `READY` when set up and `DONE …` when finished:
// - `remove-partition <url> <namespace> <partition>`: removes one partition, then exits.
// - further modes (fleet collapsing, lease holders, benchmark load) in ChildModes.swift.
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    try await ChildModes.run(arguments)
} catch {
    FileHandle.standardError.write(Data("PostgresStoreChild: \(error)\n".utf8))
    exit(1)
}
