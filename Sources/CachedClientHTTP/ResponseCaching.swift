@_spi(Generated) import CachedClientValues
import Foundation

/// What one response says about being kept: whether it may be stored at all, and the
/// freshness to store with it.
package struct ResponseCaching: Equatable {
    /// `Cache-Control: no-store`: the answer must not be kept, on any endpoint.
    package var noStore: Bool
    /// `nil` when the response carries none of `Cache-Control`, `Expires` and `Age`.
    package var freshness: ServerFreshness?

    /// The parts as given; for tests and for combining what two responses said.
    package init(noStore: Bool, freshness: ServerFreshness?) {
        self.noStore = noStore
        self.freshness = freshness
    }

    /// Reads a 2xx response.
    ///
    /// - Parameters:
    ///   - requestTime: when the request was sent, so that time in transit counts as age.
    ///   - responseTime: when the response arrived; the stored entry's date.
    package init(_ response: HTTPResponse, requestTime: Date, responseTime: Date) {
        let cacheControlText = response.header("Cache-Control")
        let expiresText = response.header("Expires")
        let ageText = response.header("Age")
        let directives = CacheControl(cacheControlText ?? "")
        noStore = directives.noStore
        guard cacheControlText != nil || expiresText != nil || ageText != nil else {
            freshness = nil
            return
        }
        let date = response.header("Date").flatMap { HTTPDate.parse($0, now: responseTime) }
        var lifetime = directives.maxAge
        if lifetime == nil, let expiresText {
            // An invalid Expires, such as "0", means already expired (RFC 9111 §5.3).
            lifetime = HTTPDate.parse(expiresText, now: responseTime)
                .map { max(0, $0.timeIntervalSince(date ?? responseTime)) } ?? 0
        }
        freshness = ServerFreshness(
            lifetime: lifetime,
            initialAge: Self.initialAge(age: ageText, date: date, requestTime: requestTime, responseTime: responseTime),
            noCache: directives.noCache, mustRevalidate: directives.mustRevalidate,
            staleIfError: directives.staleIfError, staleWhileRevalidate: directives.staleWhileRevalidate)
    }

    /// Reads a 304 that confirmed an entry stored with `stored`.
    ///
    /// A 304 must repeat the `Cache-Control` and `Expires` a 200 would carry (RFC 9110
    /// §15.4.5), so when it has either, it alone decides. When it has neither, the stored
    /// directives and lifetime stay, and only the initial age is taken afresh.
    package init(revalidation response: HTTPResponse, stored: ServerFreshness?, requestTime: Date, responseTime: Date) {
        self.init(response, requestTime: requestTime, responseTime: responseTime)
        guard response.header("Cache-Control") == nil, response.header("Expires") == nil, var kept = stored else { return }
        let date = response.header("Date").flatMap { HTTPDate.parse($0, now: responseTime) }
        kept.initialAge = Self.initialAge(
            age: response.header("Age"), date: date, requestTime: requestTime, responseTime: responseTime)
        freshness = kept
    }

    /// RFC 9111 §4.2.3: `max(apparent_age, Age + response_delay)`. A clock ahead of the
    /// server's makes responses look older, which costs a revalidation, never a stale answer.
    package static func initialAge(age: String?, date: Date?, requestTime: Date, responseTime: Date) -> Double {
        let apparentAge = max(0, responseTime.timeIntervalSince(date ?? responseTime))
        let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        // An invalid Age is ignored (RFC 9111 §5.1); of a list, the first value counts.
        let ageValue = age.flatMap { CacheControl.deltaSeconds($0.split(separator: ",").first.map(String.init) ?? "") } ?? 0
        return max(apparentAge, ageValue + responseDelay)
    }
}
