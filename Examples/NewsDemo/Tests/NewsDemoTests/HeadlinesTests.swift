import CachedClientRuntime
import Foundation
import NewsDemo
import Testing

/// The app's repository replaced by its mock, which the plugin generated into this test
/// target (the app target has none).
@Suite struct HeadlinesTests {
    @Test func aMockAnswersWhatTheTestSays() async throws {
        let summary = ArticleSummary(
            id: "a1", headline: "Rain", publishedAt: Date(timeIntervalSince1970: 0), section: "world", readingMinutes: 3)
        let news: any NewsRepository = MockNewsRepository(getHeadlines: { sectionId, _, _, _ in
            .cached(value: sectionId == "world" ? [summary] : [], date: Date(timeIntervalSince1970: 60))
        })
        let headlines = try await news.getHeadlines(sectionId: "world")
        #expect(headlines.value.map(\.headline) == ["Rain"])
        #expect(headlines.isCached)
        await #expect(throws: MockNotImplemented.self) { try await news.getSections() }
    }
}
