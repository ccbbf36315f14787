import Foundation
import PostgresCacheStore

// The child process of the many-process tests and benchmarks (a real separate process on
// the same database). Modes, each printing `READY` when set up and `DONE …` when finished:
// - `remove-partition <url> <namespace> <partition>`: removes one partition, then exits.
// - `fetch …`: one process of the fleet-collapsing tests and benchmark (see `ChildModes.fetch`).
// - `hits …`: one process of the hits-per-second benchmark (see `ChildModes.hits`).
// - `enqueue …`: enqueues queued mutations, to be killed with `kill -9` or to run beside
//   other processes doing the same (see `ChildModes.enqueue`).
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    try await ChildModes.run(arguments)
} catch {
    FileHandle.standardError.write(Data("PostgresStoreChild: \(error)\n".utf8))
    exit(1)
}
