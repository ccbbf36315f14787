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
    let next: @Sendable (Page) async throws -> CachedValue<Page>?

    /// Creates the sequence from a call for the first page and one for the page after a
    /// given one (`nil` when it was the last).
    public init(
        first: @escaping @Sendable () async throws -> CachedValue<Page>,
        next: @escaping @Sendable (_ after: Page) async throws -> CachedValue<Page>?
    ) {
        self.first = first
        self.next = next
    }

    /// Loads pages one at a time, as they are asked for.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let pages: CachedPages
        var previous: Page?
        var finished = false

        /// The next page, or `nil` after the last.
        public mutating func next() async throws -> CachedValue<Page>? {
            guard !finished else { return nil }
            let page: CachedValue<Page>?
            do {
                if let previous {
                    page = try await pages.next(previous)
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
            return page
        }
    }

    /// Starts at the first page.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(pages: self)
    }
}
