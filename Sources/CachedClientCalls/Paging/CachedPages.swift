@_spi(Generated) import CachedClientValues

/// The pages of a paged endpoint, first to last, each as a `CachedValue`: fresh from the
/// network, or from the cache with the date it was stored.
///
/// Each page is an ordinary cached call with its own key (the paging parameter, or the next
/// link's URL, is part of it), so offline every page seen before is read back with its
/// date, and invalidating the endpoint drops all of them. The sequence ends when there is no
/// further page; a failure ends it by throwing. Iteration runs under the caller's task:
/// cancelling it cancels the page being loaded.
///
/// ```swift
/// for try await page in repository.getTransactionsPages(accountId: "a1", xApiVersion: "2") {
///     show(page.value.items, updated: page.date)
/// }
/// ```
public struct CachedPages<Page: Sendable>: AsyncSequence, Sendable {
    /// One page, fresh or cached.
    public typealias Element = CachedValue<Page>

    /// Loads the page after `progress` (the first one for an empty progress), or `nil` past the last.
    package let load: @Sendable (Progress) async throws -> Loaded?
    /// Whether a page has a next one as far as can be told without loading it.
    package let hasNext: @Sendable (Loaded) -> Bool
    /// The number of items of a page, for offset paging.
    package let count: @Sendable (Page) -> Int

    /// One page loaded, with what it said about the next (link paging's next request).
    package struct Loaded: Sendable {
        package var page: CachedValue<Page>
        package var next: (any Sendable)?
    }

    /// How far an iteration got: pages and items before the page to load, and the last page.
    package struct Progress: Sendable {
        package var pages = 0
        package var items = 0
        package var previous: Loaded?

        /// The progress after `loaded`.
        package func advanced(past loaded: Loaded, count: Int) -> Progress {
            Progress(pages: pages + 1, items: items + count, previous: loaded)
        }

        /// The memberwise initializer, for the package's other modules.
        package init(pages: Int = 0, items: Int = 0, previous: Loaded? = nil) {
            self.pages = pages
            self.items = items
            self.previous = previous
        }
    }

    package init(
        load: @escaping @Sendable (Progress) async throws -> Loaded?, hasNext: @escaping @Sendable (Loaded) -> Bool,
        count: @escaping @Sendable (Page) -> Int = { _ in 0 }
    ) {
        self.load = load
        self.hasNext = hasNext
        self.count = count
    }

    /// Creates the sequence from a call for the first page and one for the page after a
    /// given one (`nil` when it was the last). `hasNext` says whether a page has a next one
    /// without loading it (for `CachedPagedQuery.hasMore`); without it, any page may have one.
    public init(
        first: @escaping @Sendable () async throws -> CachedValue<Page>,
        next: @escaping @Sendable (_ after: Page) async throws -> CachedValue<Page>?,
        hasNext: (@Sendable (Page) -> Bool)? = nil
    ) {
        self.init(
            load: { progress in
                guard let previous = progress.previous else { return Loaded(page: try await first()) }
                return try await next(previous.page.value).map { Loaded(page: $0) }
            },
            hasNext: { hasNext?($0.page.value) ?? true })
    }

    /// Cursor paging: the first page without a cursor, then each page with the cursor the
    /// previous one holds, until one holds none.
    public init<Cursor: Sendable>(
        cursor: @escaping @Sendable (Page) -> Cursor?,
        load: @escaping @Sendable (_ cursor: Cursor?) async throws -> CachedValue<Page>
    ) {
        self.init(
            load: { progress in
                guard let previous = progress.previous else { return Loaded(page: try await load(nil)) }
                guard let next = cursor(previous.page.value) else { return nil }
                return Loaded(page: try await load(next))
            },
            hasNext: { cursor($0.page.value) != nil })
    }

    /// Page-number paging: pages 1, 2, … until one is empty (an empty page after the first
    /// ends the sequence without being yielded; an empty first page is yielded).
    public init<Item>(pageNumbers load: @escaping @Sendable (_ page: Int) async throws -> CachedValue<Page>)
    where Page == [Item] {
        self.init(
            load: { progress in
                guard let previous = progress.previous else { return Loaded(page: try await load(1)) }
                guard !previous.page.value.isEmpty else { return nil }
                let following = try await load(progress.pages + 1)
                return following.value.isEmpty ? nil : Loaded(page: following)
            },
            hasNext: { !$0.page.value.isEmpty },
            count: { $0.count })
    }

    /// Offset paging: offsets 0, then the number of items so far, until a page is empty (an
    /// empty page after the first ends the sequence without being yielded).
    public init<Item>(offsets load: @escaping @Sendable (_ offset: Int) async throws -> CachedValue<Page>)
    where Page == [Item] {
        self.init(
            load: { progress in
                guard let previous = progress.previous else { return Loaded(page: try await load(0)) }
                guard !previous.page.value.isEmpty else { return nil }
                let following = try await load(progress.items)
                return following.value.isEmpty ? nil : Loaded(page: following)
            },
            hasNext: { !$0.page.value.isEmpty },
            count: { $0.count })
    }

    /// Loads pages one at a time, as they are asked for.
    public struct AsyncIterator: AsyncIteratorProtocol {
        package let pages: CachedPages
        package var finished = false
        package var progress = Progress()

        /// The next page, or `nil` after the last.
        public mutating func next() async throws -> CachedValue<Page>? {
            guard !finished else { return nil }
            let loaded: Loaded?
            do {
                loaded = try await pages.load(progress)
            } catch {
                finished = true
                throw error
            }
            guard let loaded else {
                finished = true
                return nil
            }
            progress = progress.advanced(past: loaded, count: pages.count(loaded.page.value))
            return loaded.page
        }
    }

    /// Starts at the first page.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(pages: self)
    }
}
