import Foundation

// The child process of the kill -9 test (`FileCacheStoreCrashTests`): writes entries to the
// store folder given as its only argument until it is killed. See `WriterFixture`.
let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: StoreWriter <store folder>\n".utf8))
    exit(2)
}
try await WriterFixture.run(directory: URL(fileURLWithPath: arguments[1], isDirectory: true))
