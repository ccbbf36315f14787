import Foundation

let status = CommandLineTool(output: StandardStreams()).run(Array(CommandLine.arguments.dropFirst()))
exit(status.rawValue)
