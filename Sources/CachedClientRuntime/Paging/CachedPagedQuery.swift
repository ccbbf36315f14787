#if canImport(Observation)
import Foundation
import Observation

/// A live query over a paged endpoint, for "load more" lists: the items of every page
/// loaded so far, whether there are more, and `loadMore()`.
///
/// It is a `CachedQuery` over the list of pages, so it is live in the same way: a mutation's
/// invalidation, a removal or a sign-out makes it refetch, and that refetch starts again from
/// the first page and loads as many pages as were shown, stopping early where pages no longer
/// exist (as TanStack Query's infinite queries do). `loadMore()` loads only the next page.
/// Every page is a cached call of its own, so offline the pages seen before are shown, each
/// with its date (`pages`).
///
/// ```swift
/// @State var feed = repo.getFeedPagedQuery()
/// List(feed.items) { ItemRow(item: $0) }
///     .task { await feed.load() }
///     .onAppear(of: last) { Task { await feed.loadMore() } }
/// ```
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
@Observable
public final class CachedPagedQuery<Page: Sendable, Item: Sendable> {
    /// The pages loaded, first to last, in the underlying query's value.
    struct Loaded: Sendable {
        var pages: [CachedValue<Page>]
        var hasMore: Bool
    }

    /// The query over all loaded pages; its signals drive the refetches.
    public let query: CachedQuery<[CachedValue<Page>]>
    /// Whether `loadMore()` is loading the next page now.
    public private(set) var isLoadingMore = false
    /// Whether the last page loaded had a next one; `true` before the first load.
    public private(set) var hasMore = true

    @ObservationIgnored private let itemsOf: @Sendable (Page) -> [Item]
    @ObservationIgnored private let state: Locked<State>

    private struct State: Sendable {
        /// Pages a restart loads: as many as were shown.
        var wanted = 1
        /// Set by `loadMore()` for the fetch it starts: append one page instead of restarting.
        var appendOne = false
        var loaded: [CachedValue<Page>] = []
        var hasMore = true
    }

    /// Creates a paged query from a call for the first page and one for the page after a
    /// given one (`nil` after the last), each given the policy (`nil`: the endpoint's own).
    /// `hasNext` says whether a page has a next one without asking (a cursor that is not
    /// `nil`); without it, a page with no items is taken as the last.
    nonisolated public init(
        first: @escaping @Sendable (CachePolicy?) async throws -> CachedValue<Page>,
        next: @escaping @Sendable (_ after: Page, CachePolicy?) async throws -> CachedValue<Page>?,
        hasNext: (@Sendable (Page) -> Bool)? = nil,
        items: @escaping @Sendable (Page) -> [Item]
    ) {
        let state = Locked(State())
        self.state = state
        self.itemsOf = items
        self.query = CachedQuery { policy in
            let (appendOne, wanted, loaded) = state.withLock { state in
                defer { state.appendOne = false }
                return (state.appendOne, state.wanted, state.loaded)
            }
            var pages: [CachedValue<Page>] = appendOne ? loaded : []
            var hasMore = true
            let target = appendOne ? loaded.count + 1 : max(1, wanted)
            while pages.count < target {
                let page: CachedValue<Page>?
                if let last = pages.last {
                    page = try await next(last.value, policy)
                } else {
                    page = try await first(policy)
                }
                guard let page else {
                    hasMore = false
                    break
                }
                pages.append(page)
            }
            if hasMore, let last = pages.last {
                // Where the page says (a cursor), or else an empty page is the end; otherwise
                // the next `loadMore()` finds the end and loads nothing.
                hasMore = hasNext?(last.value) ?? !items(last.value).isEmpty
            }
            let result = pages
            let more = hasMore
            state.withLock { state in
                state.loaded = result
                state.hasMore = more
                state.wanted = result.count
            }
            return .fresh(value: pages)
        }
    }

    /// The items of all loaded pages, in order.
    public var items: [Item] {
        (query.value ?? []).flatMap { itemsOf($0.value) }
    }

    /// The loaded pages, each fresh or cached with its date.
    public var pages: [CachedValue<Page>] {
        query.value ?? []
    }

    /// Whether the first load or a refetch runs now.
    public var isLoading: Bool { query.isLoading && !isLoadingMore }

    /// The last load's error, if it failed.
    public var error: (any Error)? { query.error }

    /// Loads (from the first page, as many pages as were shown) with the endpoint's policy.
    public func load() async {
        await query.load()
        syncHasMore()
    }

    /// Loads again from the first page from the network (pull to refresh).
    public func refresh() async {
        await query.refresh()
        syncHasMore()
    }

    /// Loads the page after the last one, unless one is loading or there is none.
    public func loadMore() async {
        guard hasMore, !isLoadingMore, query.value != nil else { return }
        isLoadingMore = true
        state.withLock { $0.appendOne = true }
        await query.load()
        syncHasMore()
        isLoadingMore = false
    }

    private func syncHasMore() {
        let more = state.withLock { $0.hasMore }
        if hasMore != more { hasMore = more }
    }
}
#endif
