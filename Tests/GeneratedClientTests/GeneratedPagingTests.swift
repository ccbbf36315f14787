@_spi(Generated) import CachedClientRuntime
import CachedClientTesting
import Foundation
import Testing

/// The generated `…Pages` methods of the golden code: cursor paging over `getTransactions`,
/// page numbers over `search`, each page cached under its own key and read back offline.
@Suite struct GeneratedPagingTests {
    let clock = GeneratedClientTests.Clock()

    func client(_ transport: StubTransport, base: String) -> CachedClient {
        CachedClient(baseURL: URL(string: base)!, transport: transport, partition: "alice", retry: .none, now: { [clock] in clock.now })
    }

    @Test func cursorPagesOnlineThenOfflineWithTheirDates() async throws {
        let transport = StubTransport { request in
            let second = request.url.query?.contains("cursor=c2") == true
            return .json(second ? #"{"items": [], "next_cursor": null}"# : #"{"items": [], "next_cursor": "c2"}"#)
        }
        let repository = LiveAccountRepository(client: client(transport, base: "https://bank.test/v1"))

        var online: [CachedValue<TransactionPage>] = []
        for try await page in repository.getTransactionsPages(accountId: "a1", xApiVersion: "2") { online.append(page) }
        #expect(online.map(\.isCached) == [false, false])
        #expect(transport.requests.map { $0.url.query ?? "" } == ["", "cursor=c2"])

        transport.goOffline()
        clock.advance(120)
        var offline: [CachedValue<TransactionPage>] = []
        for try await page in repository.getTransactionsPages(accountId: "a1", xApiVersion: "2") { offline.append(page) }
        #expect(offline.map(\.date) == [clock.now.addingTimeInterval(-120), clock.now.addingTimeInterval(-120)])
        #expect(offline.last?.value.nextCursor == nil)
    }

    @Test func pageNumbersUntilAnEmptyPage() async throws {
        let transport = StubTransport { request in
            let page = request.url.query?.components(separatedBy: "page=").last.flatMap { Int($0) } ?? 0
            return .json(page >= 3 ? "[]" : #"[{"id": "p\#(page)", "headline": "H", "published_at": "2024-05-01T10:00:00Z", "section": "s", "reading_minutes": 3}]"#)
        }
        let repository = LiveNewsRepository(client: client(transport, base: "https://news.test/api"))

        var count = 0
        for try await page in repository.searchPages(q: "swift") { count += page.value.count }
        #expect(count == 2)
        #expect(transport.requests.compactMap(\.url.query) == ["q=swift&page=1", "q=swift&page=2", "q=swift&page=3"])
    }
}
