import Foundation
import Testing

import CachedClientHTTP
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// Parsing `Cache-Control`, HTTP dates, `Age` and `Expires`, and judging a stored entry
/// under its rule: the pure functions of `HTTPFreshness.swift`, no client involved.
@Suite("HTTP freshness: parsing and judging")
struct HTTPFreshnessTests {
    static let received = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT

    // MARK: Cache-Control

    @Test func directivesAreCaseInsensitiveAndTakeTokensOrQuotedValues() {
        let directives = CacheControl(#"Max-Age="120", NO-CACHE, Must-Revalidate, stale-if-error=30, STALE-WHILE-REVALIDATE = 15"#)
        #expect(directives == CacheControl(maxAge: 120, noCache: true, mustRevalidate: true, staleIfError: 30, staleWhileRevalidate: 15))
    }

    @Test func fieldLinesJoinedWithCommasAreOneList() {
        #expect(CacheControl("public, max-age=60, stale-if-error=600") == CacheControl(maxAge: 60, staleIfError: 600))
        #expect(CacheControl(" , ,max-age=5,,") == CacheControl(maxAge: 5))
    }

    @Test func aCommaInsideAQuotedValueDoesNotSplitIt() {
        let directives = CacheControl(#"private="Set-Cookie, X-Trace", no-store, ext="a\"b,c", max-age=9"#)
        #expect(directives == CacheControl(maxAge: 9, noStore: true))
        #expect(CacheControl.directives(#"ext="a\"b,c", x"#).map(\.argument) == [#"a"b,c"#, nil])
    }

    @Test func theFirstOfARepeatedDirectiveCounts() {
        #expect(CacheControl("max-age=10, max-age=99").maxAge == 10)
    }

    @Test(arguments: ["max-age", "max-age=", "max-age=-1", "max-age=1.5", "max-age=abc", #"max-age="""#])
    func anInvalidMaxAgeMeansAlreadyStale(_ text: String) {
        #expect(CacheControl(text).maxAge == 0)
    }

    @Test func invalidStaleExtensionsAreIgnoredAndHugeValuesCapped() {
        #expect(CacheControl("stale-if-error, stale-while-revalidate=x") == CacheControl())
        #expect(CacheControl("max-age=99999999999999999999999").maxAge == CacheControl.maximumDelta)
    }

    @Test func aQualifiedNoCacheOnlyConcernsHeaderFieldsNeverStored() {
        #expect(!CacheControl(#"no-cache="Set-Cookie""#).noCache)
        #expect(CacheControl("no-cache").noCache)
    }

    @Test func sharedCacheDirectivesAndExtensionsAreIgnored() {
        #expect(CacheControl("public, private, s-maxage=600, proxy-revalidate, immutable, community=\"UCI\"") == CacheControl())
    }

    // MARK: HTTP dates

    @Test(arguments: [
        "Tue, 14 Nov 2023 22:13:20 GMT",  // IMF-fixdate
        "Tuesday, 14-Nov-23 22:13:20 GMT",  // RFC 850
        "Tue Nov 14 22:13:20 2023",  // asctime
        "tue, 14 nov 2023 22:13:20 GMT",
    ])
    func allThreeDateFormsAreRead(_ text: String) {
        #expect(HTTPDate.parse(text, now: Self.received) == Self.received)
    }

    @Test func asctimePadsSingleDigitDaysWithASpace() {
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994", now: Self.received) == Date(timeIntervalSince1970: 784_111_777))
    }

    @Test(arguments: [
        "0", "", "-1", "Tue, 31 Feb 2023 00:00:00 GMT", "Tue, 14 Nov 2023 24:00:00 GMT", "Tue, 14 Nov 2023 22:13:20 UTC",
        "Tue, 14 Foo 2023 22:13:20 GMT", "Tue, 14 Nov 23 22:13:20 GMT", "Tue, 14 Nov 2023 22:13 GMT", "2023-11-14T22:13:20Z",
    ])
    func anythingElseIsNotADate(_ text: String) {
        #expect(HTTPDate.parse(text, now: Self.received) == nil)
    }

    @Test func aTwoDigitYearMoreThan50YearsAheadIsFromTheLastCentury() {
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: Self.received) == Date(timeIntervalSince1970: 784_111_777))
        #expect(HTTPDate.parse("Friday, 06-Nov-43 08:49:37 GMT", now: Self.received).map(HTTPDate.format) == "Fri, 06 Nov 2043 08:49:37 GMT")
    }

    @Test func formatWritesIMFFixdateAndReadsBack() {
        #expect(HTTPDate.format(Self.received) == "Tue, 14 Nov 2023 22:13:20 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 951_782_400)) == "Tue, 29 Feb 2000 00:00:00 GMT")
        for seconds in stride(from: -2_000_000_000.0, through: 4_000_000_000, by: 86_399 * 377) {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(HTTPDate.parse(HTTPDate.format(date), now: Self.received) == date)
        }
    }

    // MARK: What a response says

    func caching(_ headers: [String: String], sentBefore delay: Double = 0) -> ResponseCaching {
        ResponseCaching(
            HTTPResponse(statusCode: 200, headers: headers), requestTime: Self.received.addingTimeInterval(-delay),
            responseTime: Self.received)
    }

    func date(_ offset: Double) -> String { HTTPDate.format(Self.received.addingTimeInterval(offset)) }

    @Test func aResponseWithoutFreshnessFieldsRecordsNothing() {
        #expect(caching([:]) == ResponseCaching(noStore: false, freshness: nil))
        #expect(caching(["ETag": "\"x\"", "Date": date(-500), "Last-Modified": date(-9_000)]).freshness == nil)
    }

    @Test func maxAgeWinsOverExpires() {
        let freshness = caching(["Cache-Control": "max-age=60", "Expires": date(3_600), "Date": date(0)]).freshness
        #expect(freshness == ServerFreshness(lifetime: 60))
    }

    @Test func expiresCountsFromTheServersDateSoClockSkewDoesNotMatter() {
        // The server's clock is an hour behind ours; Expires − Date is still 300 s.
        let freshness = caching(["Expires": date(-3_600 + 300), "Date": date(-3_600)]).freshness
        #expect(freshness?.lifetime == 300)
    }

    @Test func expiresWithoutDateCountsFromArrival() {
        #expect(caching(["Expires": date(90)]).freshness?.lifetime == 90)
        #expect(caching(["Expires": date(-90)]).freshness?.lifetime == 0)
    }

    @Test(arguments: ["0", "-1", "never", "Tue, 14 Nov 2023 22:13:20 GMT, Wed, 15 Nov 2023 22:13:20 GMT"])
    func anInvalidExpiresMeansAlreadyExpired(_ value: String) {
        #expect(caching(["Expires": value, "Date": date(0)]).freshness == ServerFreshness(lifetime: 0))
    }

    @Test func ageAndTimeInTransitMakeTheInitialAge() {
        #expect(caching(["Cache-Control": "max-age=600", "Age": "100"]).freshness?.initialAge == 100)
        #expect(caching(["Cache-Control": "max-age=600", "Age": "100"], sentBefore: 2).freshness?.initialAge == 102)
        #expect(caching(["Cache-Control": "max-age=600"], sentBefore: 2).freshness?.initialAge == 2)
        #expect(caching(["Age": "100, 7"]).freshness == ServerFreshness(initialAge: 100))
        #expect(caching(["Cache-Control": "max-age=600", "Age": "soon"]).freshness?.initialAge == 0)
    }

    @Test func aDateBehindTheClockIsApparentAgeAndADateAheadIsNot() {
        #expect(caching(["Cache-Control": "max-age=600", "Date": date(-250), "Age": "100"]).freshness?.initialAge == 250)
        #expect(caching(["Cache-Control": "max-age=600", "Date": date(900)]).freshness?.initialAge == 0)
    }

    @Test func noStoreIsReportedWhateverElseTheResponseSays() {
        #expect(caching(["Cache-Control": "max-age=600, No-Store"]).noStore)
        #expect(!caching(["Cache-Control": "max-age=600"]).noStore)
    }

    @Test func a304WithCacheControlOrExpiresDecidesAlone() {
        let stored = ServerFreshness(lifetime: 60, mustRevalidate: true, staleIfError: 30)
        let confirmed = ResponseCaching(
            revalidation: HTTPResponse(statusCode: 304, headers: ["Cache-Control": "max-age=120"]), stored: stored,
            requestTime: Self.received, responseTime: Self.received)
        #expect(confirmed.freshness == ServerFreshness(lifetime: 120))
    }

    @Test func a304WithoutThemKeepsTheStoredDirectivesWithANewAge() {
        let stored = ServerFreshness(lifetime: 60, initialAge: 40, mustRevalidate: true, staleIfError: 30)
        let confirmed = ResponseCaching(
            revalidation: HTTPResponse(statusCode: 304, headers: ["ETag": "\"x\"", "Age": "5"]), stored: stored,
            requestTime: Self.received, responseTime: Self.received)
        #expect(confirmed.freshness == ServerFreshness(lifetime: 60, initialAge: 5, mustRevalidate: true, staleIfError: 30))
        let nothing = ResponseCaching(
            revalidation: HTTPResponse(statusCode: 304), stored: nil, requestTime: Self.received, responseTime: Self.received)
        #expect(nothing == ResponseCaching(noStore: false, freshness: nil))
    }

    // MARK: Judging a stored entry

    static let serverRule = CacheRule(ttl: 60, maxStale: 3_600, ttlFromServer: true)
    static let specRule = CacheRule(ttl: 60, maxStale: 3_600)

    /// An entry received at `received` with what its server said.
    func stored(_ freshness: ServerFreshness?) -> CacheEntry {
        CacheEntry(body: Data(), date: Self.received, freshness: freshness)
    }

    func isFresh(_ rule: CacheRule = serverRule, age: Double, _ freshness: ServerFreshness?) -> Bool {
        rule.isFresh(stored(freshness), at: Self.received.addingTimeInterval(age))
    }

    func fallsBack(_ rule: CacheRule = serverRule, age: Double, _ freshness: ServerFreshness?) -> Bool {
        rule.allowsFallback(to: stored(freshness), at: Self.received.addingTimeInterval(age))
    }

    func revalidatesInBackground(_ rule: CacheRule = serverRule, age: Double, _ freshness: ServerFreshness?) -> Bool {
        rule.allowsBackgroundRevalidation(of: stored(freshness), at: Self.received.addingTimeInterval(age))
    }

    @Test func underTheSpecsTTLTheServersFreshnessIsIgnored() {
        let server = ServerFreshness(lifetime: 600, noCache: true)
        #expect(isFresh(Self.specRule, age: 59, server))
        #expect(!isFresh(Self.specRule, age: 60, server))
        #expect(Self.specRule.freshnessLifetime(of: stored(server)) == 60)
        #expect(Self.specRule.currentAge(of: stored(ServerFreshness(initialAge: 500)), at: Self.received) == 0)
    }

    @Test func underServerTTLTheServersLifetimeAndAgeCount() {
        let server = ServerFreshness(lifetime: 600, initialAge: 100)
        #expect(isFresh(age: 499, server))
        #expect(!isFresh(age: 500, server))
        #expect(Self.serverRule.currentAge(of: stored(server), at: Self.received.addingTimeInterval(10)) == 110)
    }

    @Test(arguments: [nil, ServerFreshness(initialAge: 0)] as [ServerFreshness?])
    func withoutAStatedLifetimeTheSpecsTTLStandsIn(_ server: ServerFreshness?) {
        #expect(isFresh(age: 59, server))
        #expect(!isFresh(age: 60, server))
    }

    @Test func noCacheIsNeverFreshAndMaxStaleCapsAnyLifetime() {
        #expect(!isFresh(age: 0, ServerFreshness(lifetime: 600, noCache: true)))
        #expect(isFresh(age: 3_599, ServerFreshness(lifetime: 86_400)))
        #expect(!isFresh(age: 3_600, ServerFreshness(lifetime: 86_400)))
    }

    @Test func anEntryFromTheFutureIsNeverFresh() {
        #expect(!isFresh(age: -10, ServerFreshness(lifetime: 600)))
    }

    @Test(arguments: [nil, ServerFreshness(lifetime: 10), ServerFreshness(lifetime: 10, staleIfError: 5)] as [ServerFreshness?])
    func withoutMustRevalidateOrNoCacheAnyEntryWithinMaxStaleMayStandIn(_ server: ServerFreshness?) {
        #expect(fallsBack(age: 3_599, server))
        #expect(!fallsBack(age: 3_600, server))
    }

    @Test func mustRevalidateForbidsAStaleFallbackAndStaleIfErrorReopensIt() {
        let strict = ServerFreshness(lifetime: 60, mustRevalidate: true)
        #expect(fallsBack(age: 59, strict))
        #expect(!fallsBack(age: 60, strict))
        #expect(fallsBack(Self.specRule, age: 600, strict))

        let lenient = ServerFreshness(lifetime: 60, mustRevalidate: true, staleIfError: 120)
        #expect(fallsBack(age: 180, lenient))
        #expect(!fallsBack(age: 181, lenient))

        let noCache = ServerFreshness(noCache: true, staleIfError: 30)
        #expect(fallsBack(age: 30, noCache))
        #expect(!fallsBack(age: 31, noCache))
        #expect(!fallsBack(age: 0, ServerFreshness(noCache: true)))

        #expect(!fallsBack(age: 3_600, ServerFreshness(lifetime: 60, mustRevalidate: true, staleIfError: 86_400)))
    }

    @Test func staleWhileRevalidateOpensAWindowAfterTheLifetime() {
        let window = ServerFreshness(lifetime: 60, staleWhileRevalidate: 30)
        #expect(revalidatesInBackground(age: 90, window))
        #expect(!revalidatesInBackground(age: 91, window))
        #expect(!revalidatesInBackground(Self.specRule, age: 70, window))
        #expect(!revalidatesInBackground(age: 70, ServerFreshness(lifetime: 60, mustRevalidate: true, staleWhileRevalidate: 30)))
        #expect(!revalidatesInBackground(age: 70, ServerFreshness(lifetime: 60, noCache: true, staleWhileRevalidate: 30)))
        #expect(!revalidatesInBackground(CacheRule(ttl: 60, maxStale: 80, ttlFromServer: true), age: 80, window))
    }
}

extension CacheControl {
    /// A value with the given fields, for comparisons.
    init(
        maxAge: Double? = nil, noStore: Bool = false, noCache: Bool = false, mustRevalidate: Bool = false,
        staleIfError: Double? = nil, staleWhileRevalidate: Double? = nil
    ) {
        self.init("")
        self.maxAge = maxAge
        self.noStore = noStore
        self.noCache = noCache
        self.mustRevalidate = mustRevalidate
        self.staleIfError = staleIfError
        self.staleWhileRevalidate = staleWhileRevalidate
    }
}
