import CachedClientRuntime
import Foundation

// The code of the DocC article `LiveQueries` that is not SwiftUI, compiled here (SwiftUI
// itself does not exist on Linux) and used by `GeneratedQueryTests`; the README's live query
// calls it. Keep them in step.

/// "Updated 5 min ago, offline": how old the list on screen is. With the default
/// `networkFirst` policy a stored value (`date != nil`) means the network failed.
enum AgeBanner {
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @MainActor
    static func text<Value>(for query: CachedQuery<Value>, now: Date) -> String? {
        guard let updatedAt = query.updatedAt, query.date != nil || query.isStale else { return nil }
        let minutes = Int(now.timeIntervalSince(updatedAt) / 60)
        let age = minutes < 1 ? "just now" : "\(minutes) min ago"
        return query.date != nil ? "Updated \(age), offline" : "Updated \(age)"
    }
}

/// A mutation: nothing else to do, the spec's `invalidates` makes every live
/// `getAccountsQuery` refetch and show the new name.
func renameAccount(_ id: String, to nickname: String, in repository: any AccountRepository) async throws {
    _ = try await repository.updateAccount(id: id, body: AccountUpdate(nickname: nickname))
}

/// Sign-out: live queries of user-scoped endpoints clear at once and load for the new
/// partition; then the old user's entries leave the disk.
func signOut(_ client: CachedClient) async throws {
    let previous = client.partition
    client.setPartition(nil)
    if let previous { try await client.removeAll(partition: previous) }
}

/// What a preview shows: one account, stored five minutes ago ("Updated 5 min ago, offline").
extension Account {
    static let preview = Account(
        id: "1", balance: 120.5, currency: "EUR", openedAt: Date(timeIntervalSince1970: 1_700_000_000),
        kind: .checking, tags: [], limits: [:], nickname: "Main")
}

/// A repository for previews: mock data, no network.
let previewRepository = MockAccountRepository(getAccounts: { _, _, _ in
    .cached(value: [.preview], date: Date().addingTimeInterval(-300))
})
