/// The pages of a paged endpoint, first to last, each as a `CachedValue`: fresh from the
/// network, or from the cache with the date it was stored.
///
/// Each page is an ordinary cached call with its own key (the paging parameter is part of
/// it), so offline every page seen before is read back with its date, and invalidating
/// the endpoint drops all of them. The sequence ends when `next` finds no further page; a
/// failure ends it by throwing. Iteration runs under the caller's task: cancelling it
/// cancels the page being loaded.
///
/// ```swift
/// for try await page in repo.getFeedPages(policy: .networkFirst) {
///     show(page.value.items, updated: page.date)
/// }
/// ```
public struct CachedPages<Page: Sendable>: AsyncSequence, Sendable {
    /// One page, fresh or cached.
    public typealias Element = CachedValue<Page>

    let first: @Sendable () async throws -> CachedValue<Page>
    let next: @Sendable (Page, Progress) async throws -> CachedValue<Page>?
    let count: @Sendable (Page) -> Int

    /// How far an iteration got: pages and items before the page to load.
    struct Progress: Sendable {
        var pages = 0
        var items = 0
    }

    /// Creates the sequence from a call for the first page and one for the page after a
    /// given one (`nil` when it was the last).
    public init(
        first: @escaping @Sendable () async throws -> CachedValue<Page>,
        next: @escaping @Sendable (_ after: Page) async throws -> CachedValue<Page>?
    ) {
        self.first = first
        self.next = { page, _ in try await next(page) }
        self.count = { _ in 0 }
    }

    /// Cursor paging: the first page without a cursor, then each page with the cursor the
    /// previous one holds, until one holds none.
    public init<Cursor: Sendable>(
        cursor: @escaping @Sendable (Page) -> Cursor?,
        load: @escaping @Sendable (_ cursor: Cursor?) async throws -> CachedValue<Page>
    ) {
        self.first = { try await load(nil) }
        self.next = { page, _ in
            guard let next = cursor(page) else { return nil }
            return try await load(next)
        }
        self.count = { _ in 0 }
    }

    /// Page-number paging: pages 1, 2, … until one is empty (an empty page after the first
    /// ends the sequence without being yielded; an empty first page is yielded).
    public init<Item>(pageNumbers load: @escaping @Sendable (_ page: Int) async throws -> CachedValue<Page>)
    where Page == [Item] {
        self.first = { try await load(1) }
        self.next = { page, progress in
            guard !page.isEmpty else { return nil }
            let following = try await load(progress.pages + 1)
            return following.value.isEmpty ? nil : following
        }
        self.count = { $0.count }
    }

    /// Offset paging: offsets 0, then the number of items so far, until a page is empty (an
    /// empty page after the first ends the sequence without being yielded).
    public init<Item>(offsets load: @escaping @Sendable (_ offset: Int) async throws -> CachedValue<Page>)
    where Page == [Item] {
        self.first = { try await load(0) }
        self.next = { page, progress in
            guard !page.isEmpty else { return nil }
            let following = try await load(progress.items)
            return following.value.isEmpty ? nil : following
        }
        self.count = { $0.count }
    }

    /// Loads pages one at a time, as they are asked for.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let pages: CachedPages
        var previous: Page?
        var finished = false
        var progress = Progress()

        /// The next page, or `nil` after the last.
        public mutating func next() async throws -> CachedValue<Page>? {
            guard !finished else { return nil }
            let page: CachedValue<Page>?
            do {
                if let previous {
                    page = try await pages.next(previous, progress)
                } else {
                    page = try await pages.first()
                }
            } catch {
                finished = true
                throw error
            }
            guard let page else {
                finished = true
                return nil
            }
            previous = page.value
            progress.pages += 1
            progress.items += pages.count(page.value)
            return page
        }
    }

    /// Starts at the first page.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(pages: self)
    }
}
