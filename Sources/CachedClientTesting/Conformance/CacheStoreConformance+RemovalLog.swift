import CachedClientRuntime
import Foundation

// What a store says its removals covered (`removals(since:)`), which clients trust to keep
// what a removal did not cover: never less than what was removed, from the moment the count
// moves. A store that cannot say (`nil`, the default) passes: clients then treat every
// removal as a removal of everything.
extension CacheStoreConformance {
    /// Fails unless `scopes` is `nil` or covers every key `removed` names.
    static func expectCovered(
        _ context: Context, _ scopes: [RemovalScope]?, _ keys: [CacheKey], removed: (CacheKey) -> Bool, after removal: String,
        file: StaticString = #fileID, line: UInt = #line
    ) throws {
        guard let scopes else { return }
        for key in keys where removed(key) && !scopes.contains(where: { $0.covers(key) }) {
            throw context.failure(
                "removals(since:) after \(removal) names no scope covering \(key.endpoint) \(key.path) \(key.partition ?? "shared") "
                    + "(it said \(scopes)); a client would keep serving it", file: file, line: line)
        }
    }

    static let removalLogChecks: [Check] = [
        Check(
            "removalsSinceNameEveryRemoval",
            "removals(since:) is nil or has a scope covering every entry each removeAll… form removed, alone and together with later removals."
        ) { context in
            let forms: [(String, (CacheKey) -> Bool, @Sendable (any CacheStore) async throws -> Void)] = [
                ("removeAll(partition: \"alice\")", { $0.partition == "alice" }, { try await $0.removeAll(partition: "alice") }),
                ("removeAll(endpoint:)", { $0.endpoint == Keys.otherEndpoint }, { try await $0.removeAll(endpoint: Keys.otherEndpoint) }),
                (
                    "removeAll(endpoint:path:)", { $0.endpoint == Keys.endpoint && $0.path == "/accounts/1" },
                    { try await $0.removeAll(endpoint: Keys.endpoint, path: "/accounts/1") }
                ),
                ("removeAll()", { _ in true }, { try await $0.removeAll() }),
            ]
            for (name, removed, remove) in forms {
                let fixture = try await Fixture.make(context)
                let keys = fixture.entries.map(\.key)
                let before = fixture.store.removalCount
                try await remove(fixture.store)
                try expectCovered(context, fixture.store.removals(since: before), keys, removed: removed, after: name)
                // A later removal of another partition: the earlier one is still named.
                try await fixture.store.removeAll(partition: "bob")
                try expectCovered(
                    context, fixture.store.removals(since: before), keys, removed: { removed($0) || $0.partition == "bob" },
                    after: "\(name) then removeAll(partition: \"bob\")")
            }
        },
        Check(
            "removalsSinceCoverARemovalUnderWay",
            "Once removalCount has moved past a count, removals(since:) that count is nil or covers the removal, even before it returns."
        ) { context in
            let store = try await context.makeStore()
            let key = Keys.key(endpoint: Keys.endpoint, path: "/accounts/1", query: "", partition: "alice")
            for round in 0..<20 {
                try await store.setEntry(Entries.entry("round \(round)", date: context.clock.now), for: key)
                let before = store.removalCount
                let removal = Task { try await store.removeAll(partition: "alice") }
                // Polls while the removal runs, until the count has moved and the entry is gone.
                for _ in 0..<10_000 {
                    if store.removalCount != before {
                        try expectCovered(
                            context, store.removals(since: before), [key], removed: { _ in true },
                            after: "removeAll(partition: \"alice\") under way (round \(round))")
                        if try await store.entry(for: key) == nil { break }
                    }
                    await Task.yield()
                }
                try await removal.value
                try expectCovered(
                    context, store.removals(since: before), [key], removed: { _ in true },
                    after: "removeAll(partition: \"alice\") (round \(round))")
            }
        },
    ]
}
