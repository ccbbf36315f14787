import CachedClientRuntime
import CachedClientTesting
import Foundation
import Observation
import Testing

// The code of LiveQueries.md: arguments that change, and only real changes notify.

/// A list with a page picker: picking a page points the query at it, and the page before
/// stays on screen, dimmed, until the new one arrives.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
final class AccountPages {
    let repository: any AccountRepository
    let accounts: CachedQuery<[Account]>
    /// What the header shows: its observers hear only of a new number, not of each refetch.
    let count: CachedSelection<[Account], Int>

    init(repository: any AccountRepository) {
        self.repository = repository
        accounts = repository.getAccountsQuery(page: 1)
        count = accounts.select(\.count)
    }

    func show(page: Int) {
        repository.getAccountsQuery(updating: accounts, page: page)
    }

    var opacity: Double { accounts.isPlaceholder ? 0.5 : 1 }
    var header: String { "\(count.value ?? 0) accounts" }
}

/// The same with a function of yours: `update(_:)` takes any fetch.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
func showLargePages(_ accounts: CachedQuery<[Account]>, page: Int, in repository: any AccountRepository) {
    accounts.update { policy in try await repository.getAccounts(page: page, perPage: 100, policy: policy) }
}

@Suite(.timeLimit(.minutes(1))) struct LiveQueriesTests {
    static func account(_ id: String) -> Account {
        var account = sampleAccount
        account.id = id
        return account
    }

    /// Page 1 has one account, page 2 two; page 2 waits for `release` so the test sees the placeholder.
    static func repository(release: Gate) -> MockAccountRepository {
        MockAccountRepository(getAccounts: { page, _, _ in
            if page == 2 { await release.wait() }
            return .fresh(value: page == 1 ? [account("a1")] : [account("a2"), account("a3")])
        })
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @MainActor
    @Test func aPickedPageShowsThePreviousOneDimmedUntilItArrives() async throws {
        let release = Gate()
        let screen = AccountPages(repository: Self.repository(release: release))
        await screen.accounts.load()
        #expect(screen.header == "1 accounts" && screen.opacity == 1)

        screen.show(page: 2)
        #expect(screen.accounts.value?.map(\.id) == ["a1"] && screen.opacity == 0.5)
        release.open()

        await waitUntil { screen.header == "2 accounts" }
        #expect(screen.accounts.value?.map(\.id) == ["a2", "a3"] && screen.opacity == 1)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @MainActor
    @Test func aFetchOfYoursTakesNewArgumentsToo() async throws {
        let pages = Guarded<[Int?]>([])
        let repository = MockAccountRepository(getAccounts: { page, perPage, _ in
            pages.withLock { $0.append(perPage) }
            return .fresh(value: [Self.account("a\(page)")])
        })
        let accounts = repository.getAccountsQuery(page: 1)
        await accounts.load()

        showLargePages(accounts, page: 5, in: repository)

        await waitUntil { accounts.value?.first?.id == "a5" }
        #expect(pages.withLock { $0 } == [nil, 100])
    }
}

/// A value behind a lock.
final class Guarded<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { body(&value) }
    }
}

/// Opened once; `wait()` returns when it is.
final class Gate: Sendable {
    private let state = Guarded<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        for waiter in state.withLock({ state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }) { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                if !state.open { state.waiters.append(continuation) }
                return state.open
            }
            if isOpen { continuation.resume() }
        }
    }
}
