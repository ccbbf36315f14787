import CachedClientFileStore
import CachedClientStore
@_spi(Generated) import CachedClientValues
import Foundation

/// `cachegen-cache inspect <folder>`: a store's folder as a table or JSON, read-only. A
/// program of its own, not a `cachegen` command, so that the generator every user's build
/// compiles does not compile the runtime's store too.
enum CacheCommand {
    static let help = """
        OVERVIEW: Look inside a cachegen cache folder (a FileCacheStore's) without changing it.

        USAGE: cachegen-cache inspect <folder> [--json] [--values] [--now <date>]
                                      [--ttl <Repository.method>=<seconds>]...

        COMMANDS:
          inspect <folder>
                      List per partition and endpoint the entries, their size, age,
                      freshness and pins, the mutations waiting to be sent, and the files
                      that cannot be read. Read-only: it takes no lock and changes nothing,
                      so the app may keep running.

        OPTIONS:
          --json      Print JSON with stable field names ("format": 1) instead of a table.
          --values    Print the stored bodies of entries and queued mutations too.
                      Credentials (request headers such as Authorization, Cookie or an
                      API key, query parameters, idempotency keys) are never printed.
          --now <date>
                      Judge ages and freshness at this ISO 8601 date instead of now.
          --ttl <Repository.method>=<seconds>
                      Seconds that endpoint's entries stay fresh, for entries without a
                      lifetime from the server (repeatable); others count as unknown.
          -h, --help  Show this help.

        EXIT STATUS: 0 success, 1 no cache in the folder or it cannot be read, 2 usage errors.
        """

    /// Runs one command line (without the program name) and returns the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first else { return usageError(nil) }
        switch command {
        case "-h", "--help", "help":
            print(help)
            return 0
        case "inspect":
            return inspect(Array(arguments.dropFirst()))
        default:
            return usageError("unknown command '\(command)'; use 'inspect' (see cachegen-cache --help)")
        }
    }

    private static func inspect(_ arguments: [String]) -> Int32 {
        var folder: String?
        var json = false
        var options = CacheInspection.Options()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--json":
                json = true
            case "--values":
                options.includeValues = true
            case "--now", "--ttl":
                guard index + 1 < arguments.count else { return usageError("\(argument) needs a value") }
                let value = arguments[index + 1]
                index += 1
                if argument == "--now" {
                    guard let date = ISO8601.parse(value) else {
                        return usageError("--now must be an ISO 8601 date such as 2026-05-01T12:00:00Z, not '\(value)'")
                    }
                    options.now = date
                } else {
                    guard let equals = value.lastIndex(of: "="), let seconds = TimeInterval(value[value.index(after: equals)...]),
                        seconds.isFinite, seconds >= 0, equals != value.startIndex
                    else { return usageError("--ttl must be <Repository.method>=<seconds>, not '\(value)'") }
                    options.ttls[String(value[..<equals])] = seconds
                }
            default:
                if argument.hasPrefix("-") { return usageError("unknown option '\(argument)' for inspect") }
                guard folder == nil else { return usageError("inspect takes one folder") }
                folder = argument
            }
            index += 1
        }
        guard let folder else { return usageError("inspect needs a folder, the FileCacheStore's directory") }
        let inspection: CacheInspection
        do {
            inspection = try FileCacheStore.inspect(directory: URL(fileURLWithPath: folder, isDirectory: true), options: options)
        } catch {
            printError("error: \(error)")
            return 1
        }
        if json {
            print(inspection.json())
        } else {
            print("Cache in \(CacheInspection.printable(folder))")
            print(inspection.table)
        }
        return 0
    }

    private static func usageError(_ message: String?) -> Int32 {
        printError(message.map { "error: " + $0 } ?? help)
        return 2
    }

    private static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
