import CachedClientRuntime
import Foundation

// The paging code of the DocC article `PagingRetriesAuth` (the README had it once, hence the
// file's name), compiled here against the News golden client (`search` pages by number,
// `getComments` by `Link` header) and run by `GeneratedPagedQueryTests`.
// Scripts/check/doc-snippets.py checks that the article's blocks are in it line for line.

/// Every page of a search, each fresh or from the cache with its date.
func searchLines(_ repository: any NewsRepository) async throws -> [String] {
    var lines: [String] = []
    for try await page in repository.searchPages(q: "swift") {
        let age = page.date.map { "stored \($0)" } ?? "fresh"
        lines.append("\(page.value.count) results, \(age)")
    }
    return lines
}

/// "Load more" under an article: a live query over the pages of comments.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
func firstComments(_ repository: any NewsRepository) async -> [Comment] {
    let comments = repository.getCommentsPagedQuery(id: "a1")
    await comments.load()  // page 1
    if comments.hasMore {
        await comments.loadMore()  // page 2, from page 1's `Link: <…>; rel="next"`
    }
    return comments.items  // comments.pages: each page, fresh or stored with its date
}
