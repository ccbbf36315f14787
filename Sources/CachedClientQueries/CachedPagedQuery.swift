#if canImport(Observation)
import Foundation
import Observation
@_spi(Generated) import CachedClientCalls
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

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
/// Generated repositories make one per paged endpoint (`repository.searchPagedQuery(q:)`):
///
/// ```swift
/// @State var results = repository.searchPagedQuery(q: "swift")
/// List(results.items) { ArticleRow(article: $0) }
///     .task { await results.load() }
/// Button("More") { Task { await results.loadMore() } }.disabled(!results.hasMore)
/// ```
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
@Observable
public final class CachedPagedQuery<Page: Sendable, Item: Sendable> {
    /// The query over all loaded pages; its signals drive the refetches.
    public let query: CachedQuery<[CachedValue<Page>]>
    /// Whether `loadMore()` is loading the next page now.
    public private(set) var isLoadingMore = false
    /// Whether the last page loaded has a next one, as far as can be told without loading it
    /// (a cursor or a next link; a page-number or offset page that was not empty); `true`
    /// before the first load. Observed with the pages: a refetch after an invalidation updates it.
    public var hasMore: Bool {
        _ = query.value  // Set with every applied fetch, after `state` holds that fetch's answer.
        return state.withLock { $0.hasMore }
    }

    @ObservationIgnored private let itemsOf: @Sendable (Page) -> [Item]
    @ObservationIgnored private let state: Locked<State>

    private struct State: Sendable {
        /// Fetches started so far; only the latest one started records where the pages end.
        package var started = 0
        /// Pages a restart loads: as many as were shown.
        package var wanted = 1
        /// Set by `loadMore()` for the fetch it starts: append one page instead of restarting.
        package var appendOne = false
        /// Where the pages loaded so far end.
        package var progress = CachedPages<Page>.Progress()
        package var loaded: [CachedValue<Page>] = []
        package var hasMore = true
        /// `hasMore` as observers last heard of it, with the pages: an applied fetch whose
        /// pages equal the shown ones still notifies when `hasMore` changed.
        package var shownHasMore = true
    }

    /// Creates a paged query over the pages of an endpoint, made for a policy (`nil`: the
    /// endpoint's own; `.networkFirst` for `refresh()`), and where a page's items are.
    nonisolated public init(
        pages: @escaping @Sendable (CachePolicy?) -> CachedPages<Page>,
        items: @escaping @Sendable (Page) -> [Item]
    ) {
        let state = Locked(State())
        self.state = state
        self.itemsOf = items
        let samePages = ValueEquality.comparison(for: [CachedValue<Page>].self)
        self.query = CachedQuery(sameValue: { old, new in
            let moreChanged = state.withLock { state in
                defer { state.shownHasMore = state.hasMore }
                return state.shownHasMore != state.hasMore
            }
            return !moreChanged && samePages?(old, new) == true
        }) { policy in
            let (ticket, appendOne, wanted, saved, loaded) = state.withLock { state in
                defer { state.appendOne = false }
                state.started += 1
                return (state.started, state.appendOne, state.wanted, state.progress, state.loaded)
            }
            let sequence = pages(policy)
            var result: [CachedValue<Page>] = appendOne ? loaded : []
            var progress = appendOne ? saved : CachedPages<Page>.Progress()
            var hasMore = true
            let target = appendOne ? loaded.count + 1 : max(1, wanted)
            while result.count < target {
                guard let page = try await sequence.load(progress) else {
                    hasMore = false
                    break
                }
                result.append(page.page)
                progress = progress.advanced(past: page, count: sequence.count(page.page.value))
            }
            if hasMore, let last = progress.previous { hasMore = sequence.hasNext(last) }
            let pagesLoaded = result
            let more = hasMore
            let reached = progress
            state.withLock { state in
                guard state.started == ticket else { return }  // A later fetch owns the state.
                state.loaded = pagesLoaded
                state.hasMore = more
                state.progress = reached
                state.wanted = pagesLoaded.count
            }
            return .fresh(value: pagesLoaded)
        }
    }

    /// Creates a paged query from a call for the first page and one for the page after a
    /// given one (`nil` after the last), each given the policy (`nil`: the endpoint's own).
    /// `hasNext` says whether a page has a next one without asking (a cursor that is not
    /// `nil`); without it, a page with no items is taken as the last.
    nonisolated public convenience init(
        first: @escaping @Sendable (CachePolicy?) async throws -> CachedValue<Page>,
        next: @escaping @Sendable (_ after: Page, CachePolicy?) async throws -> CachedValue<Page>?,
        hasNext: (@Sendable (Page) -> Bool)? = nil,
        items: @escaping @Sendable (Page) -> [Item]
    ) {
        self.init(
            pages: { policy in
                CachedPages(
                    first: { try await first(policy) }, next: { try await next($0, policy) },
                    hasNext: hasNext ?? { !items($0).isEmpty })
            },
            items: items)
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
    }

    /// Loads again from the first page from the network (pull to refresh).
    public func refresh() async {
        await query.refresh()
    }

    /// Loads the page after the last one, unless one is loading or there is none.
    public func loadMore() async {
        guard hasMore, !isLoadingMore, query.value != nil else { return }
        isLoadingMore = true
        state.withLock { $0.appendOne = true }
        await query.load()
        isLoadingMore = false
    }
}
#endif
