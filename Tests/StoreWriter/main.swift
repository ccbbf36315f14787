import Foundation

// The child process of the multi-process tests. Modes:
// - `StoreWriter <store folder>`: the kill -9 test's writer (`FileCacheStoreCrashTests`):
//   writes entries until it is killed. See `WriterFixture`.
// - `StoreWriter remove-partition <store folder> <partition>`: removes one partition and
//   exits (`FileCacheStoreRemovalCountTests`).
// - `StoreWriter churn <store folder> <gate file> <seconds> <seed>` and
//   `StoreWriter sign-out <store folder> <gate file> <seconds>`: the two roles of the
//   many-processes test (`FileCacheStoreManyProcessesTests`). See `ManyProcessesFixture`.
// - `StoreWriter queue <store folder> <base URL> <path> <count>` and
//   `StoreWriter send <store folder> <base URL> <path>`: the offline-writes tests
//   (`OfflineWritesIntegrationTests`). See `OfflineFixture`.
// - `StoreWriter fault-workload <store folder> <call> kill|short-write-then-kill`: the
//   disk-fault workload, killed at system call `<call>` (`0`: never) of the store
//   (`FileCacheStoreCrashPointTests`). See `FaultWorkload`.
let arguments = Array(CommandLine.arguments.dropFirst())
switch (arguments.first, arguments.count) {
case (_, 1):
    try await WriterFixture.run(directory: URL(fileURLWithPath: arguments[0], isDirectory: true))
case ("remove-partition", 3):
    try await WriterFixture.removePartition(arguments[2], directory: URL(fileURLWithPath: arguments[1], isDirectory: true))
case ("churn", 5):
    guard let seconds = Double(arguments[3]), let seed = UInt64(arguments[4]) else { fallthrough }
    await ManyProcessesFixture.churn(directory: arguments[1], gate: arguments[2], seconds: seconds, seed: seed)
case ("sign-out", 4):
    guard let seconds = Double(arguments[3]) else { fallthrough }
    await ManyProcessesFixture.signOut(directory: arguments[1], gate: arguments[2], seconds: seconds)
case ("queue", 5):
    guard let count = Int(arguments[4]) else { fallthrough }
    try await OfflineFixture.queue(directory: arguments[1], baseURL: arguments[2], path: arguments[3], count: count)
case ("send", 4):
    try await OfflineFixture.send(directory: arguments[1], baseURL: arguments[2], path: arguments[3])
case ("fault-workload", 4):
    guard let call = Int(arguments[2]), let fault = FaultWorkload.fault(named: arguments[3]) else { fallthrough }
    await FaultWorkload.runChild(directory: arguments[1], at: call, fault: fault)
default:
    FileHandle.standardError.write(Data(
        "usage: StoreWriter <store folder> | remove-partition <folder> <partition> | churn <folder> <gate> <seconds> <seed> | sign-out <folder> <gate> <seconds> | queue <folder> <base URL> <path> <count> | send <folder> <base URL> <path> | fault-workload <folder> <call> kill|short-write-then-kill\n".utf8))
    exit(2)
}
