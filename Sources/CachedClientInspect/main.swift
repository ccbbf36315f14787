import Foundation

let status = CacheCommand.run(Array(CommandLine.arguments.dropFirst()))
exit(status)
