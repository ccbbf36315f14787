import Foundation
import PostgresCacheStore

/// What the child does, by its first argument; see `main.swift`.
enum ChildModes {
    struct Usage: Error, CustomStringConvertible {
        var description: String { "usage: PostgresStoreChild remove-partition <url> <namespace> <partition>" }
    }

    static func run(_ arguments: [String]) async throws {
        switch (arguments.first, arguments.count) {
        case ("remove-partition", 4):
            let store = try PostgresCacheStore(url: arguments[1], namespace: arguments[2])
            try await store.ready()
            let started = ContinuousClock.now
            try await store.removeAll(partition: arguments[3])
            let elapsed = ContinuousClock.now - started
            await store.shutdown()
            print("DONE \(elapsed.components.attoseconds / 1_000_000_000 + elapsed.components.seconds * 1_000_000_000)")
        default:
            throw Usage()
        }
    }
}
