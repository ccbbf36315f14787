import Foundation

// Server-driven freshness (RFC 9111, RFC 5861), in this one place: parsing `Cache-Control`,
// `Expires`, `Date` and `Age`, computing what to store with an entry, and judging a stored
// entry under its endpoint's rule. `CachedClient` only asks the questions at the bottom.

/// What a response said about its own freshness, stored with its entry so that an app
/// relaunched a week later judges the entry the way the server asked.
///
/// Recorded for every response that carries `Cache-Control`, `Expires` or `Age`, but
/// consulted only for endpoints whose rule has `ttlFromServer` (`ttl: "server"` in the
/// spec); for every other endpoint the spec's `ttl` governs and these values are ignored.
/// Durations are in seconds. Only these derived numbers are kept, never the raw header
/// fields, so nothing a server sends besides them and the validators reaches disk.
///
/// What each directive does under `ttlFromServer` (the rule's `maxStale` caps everything):
/// - `max-age`, else `Expires` − `Date`: how long `cacheFirst` answers without the network.
///   When the server states neither, the rule's `ttl` stands in.
/// - `no-cache`: a lifetime of 0, so every use asks the server first (cheap with a 304),
///   and, like `must-revalidate`, no fallback on errors unless `stale-if-error` allows it.
/// - `must-revalidate`: once stale, the entry is never shown in place of an answer the
///   network failed to give, unless `stale-if-error` allows it.
/// - `stale-if-error=N`: a transport failure or a 5xx may be answered with the entry while it
///   is at most N seconds stale, even under `must-revalidate` or `no-cache` (RFC 5861).
///   It only ever widens what may be shown: without these two directives the client's own
///   fallback already covers every entry within `maxStale`, so it changes nothing there.
///   `networkOnly` never falls back, whatever the server says: the caller asked for the
///   network's answer or an error.
/// - `stale-while-revalidate=N`: up to N seconds past its lifetime, `cacheFirst` answers
///   with the entry at once and refreshes it in the background (not with `no-cache` or
///   `must-revalidate`, which demand confirmation before use).
/// - `no-store` is never recorded: such a response is not stored at all, for every
///   endpoint, and any earlier entry for its key is removed (see `CachedClient`).
///
/// The `staleWhileRevalidate` and `cacheOnly` policies and the first value of a stream are
/// the caller asking for the stored value by name, labelled with its date; they follow
/// `maxStale` alone.
public struct ServerFreshness: Sendable, Hashable {
    /// The response's freshness lifetime: `max-age`, else `Expires` minus `Date` (0 for an
    /// invalid `Expires` or `max-age`, which RFC 9111 treats as already expired); `nil`
    /// when the server stated neither, so the rule's `ttl` applies.
    public var lifetime: Double?
    /// How old the response already was when it arrived (RFC 9111 §4.2.3, the corrected
    /// initial age): the larger of `Age` plus the time in transit and how far the
    /// response's `Date` lay behind the client's clock. The entry's current age is this
    /// plus the time since `CacheEntry.date`.
    public var initialAge: Double
    /// `no-cache`: never used without the server's confirmation.
    public var noCache: Bool
    /// `must-revalidate`: once stale, never used without the server's confirmation.
    public var mustRevalidate: Bool
    /// `stale-if-error`: how many seconds past its lifetime the entry may still answer a
    /// call whose network request failed (transport failure or 5xx).
    public var staleIfError: Double?
    /// `stale-while-revalidate`: how many seconds past its lifetime `cacheFirst` may answer
    /// with the entry at once while it is refreshed in the background.
    public var staleWhileRevalidate: Double?

    /// Creates the record; `CachedClient` derives it from the response's header fields.
    public init(
        lifetime: Double? = nil, initialAge: Double = 0, noCache: Bool = false, mustRevalidate: Bool = false,
        staleIfError: Double? = nil, staleWhileRevalidate: Double? = nil
    ) {
        self.lifetime = lifetime
        self.initialAge = initialAge
        self.noCache = noCache
        self.mustRevalidate = mustRevalidate
        self.staleIfError = staleIfError
        self.staleWhileRevalidate = staleWhileRevalidate
    }
}

// MARK: - What a response says

/// What one response says about being kept: whether it may be stored at all, and the
/// freshness to store with it.
struct ResponseCaching: Equatable {
    /// `Cache-Control: no-store`: the answer must not be kept, on any endpoint.
    var noStore: Bool
    /// `nil` when the response carries none of `Cache-Control`, `Expires` and `Age`.
    var freshness: ServerFreshness?

    /// The parts as given; for tests and for combining what two responses said.
    init(noStore: Bool, freshness: ServerFreshness?) {
        self.noStore = noStore
        self.freshness = freshness
    }

    /// Reads a 2xx response.
    ///
    /// - Parameters:
    ///   - requestTime: when the request was sent, so that time in transit counts as age.
    ///   - responseTime: when the response arrived; the stored entry's date.
    init(_ response: HTTPResponse, requestTime: Date, responseTime: Date) {
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
    init(revalidation response: HTTPResponse, stored: ServerFreshness?, requestTime: Date, responseTime: Date) {
        self.init(response, requestTime: requestTime, responseTime: responseTime)
        guard response.header("Cache-Control") == nil, response.header("Expires") == nil, var kept = stored else { return }
        let date = response.header("Date").flatMap { HTTPDate.parse($0, now: responseTime) }
        kept.initialAge = Self.initialAge(
            age: response.header("Age"), date: date, requestTime: requestTime, responseTime: responseTime)
        freshness = kept
    }

    /// RFC 9111 §4.2.3: `max(apparent_age, Age + response_delay)`. A clock ahead of the
    /// server's makes responses look older, which costs a revalidation, never a stale answer.
    static func initialAge(age: String?, date: Date?, requestTime: Date, responseTime: Date) -> Double {
        let apparentAge = max(0, responseTime.timeIntervalSince(date ?? responseTime))
        let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        // An invalid Age is ignored (RFC 9111 §5.1); of a list, the first value counts.
        let ageValue = age.flatMap { CacheControl.deltaSeconds($0.split(separator: ",").first.map(String.init) ?? "") } ?? 0
        return max(apparentAge, ageValue + responseDelay)
    }
}

// MARK: - Cache-Control

/// The `Cache-Control` directives a private client cache acts on (RFC 9111 §5.2.2, RFC 5861).
///
/// Directive names are case-insensitive, values may be tokens or quoted strings, and
/// several field lines arrive joined with commas, which the grammar already allows. Of a
/// directive given twice the first counts. `public`, `private`, `s-maxage` and
/// `proxy-revalidate` concern shared caches and are ignored, as are unknown extensions.
struct CacheControl: Equatable {
    /// `max-age`; an invalid value counts as 0, since RFC 9111 §4.2.1 advises treating
    /// invalid freshness information as stale.
    var maxAge: Double?
    /// `no-store`: the response must not be kept.
    var noStore = false
    /// `no-cache`, only the unqualified form: `no-cache="Set-Cookie"` restricts header fields this
    /// client never stores, so it leaves the body usable.
    var noCache = false
    /// `must-revalidate`: once stale, not used without the server's confirmation.
    var mustRevalidate = false
    /// `stale-if-error`; an invalid value is ignored.
    var staleIfError: Double?
    /// `stale-while-revalidate`; an invalid value is ignored.
    var staleWhileRevalidate: Double?

    /// The largest delta-seconds kept: RFC 9111 §1.2.2 caps larger values at 2^31.
    static let maximumDelta: Double = 2_147_483_648

    /// Parses one field value (or several joined with commas).
    init(_ value: String) {
        var seen: Set<String> = []
        for (name, argument) in Self.directives(value) where seen.insert(name).inserted {
            switch name {
            case "max-age": maxAge = argument.flatMap(Self.deltaSeconds) ?? 0
            case "no-store": noStore = true
            case "no-cache": noCache = argument == nil
            case "must-revalidate": mustRevalidate = true
            case "stale-if-error": staleIfError = argument.flatMap(Self.deltaSeconds)
            case "stale-while-revalidate": staleWhileRevalidate = argument.flatMap(Self.deltaSeconds)
            default: break
            }
        }
    }

    /// `1*DIGIT` after trimming spaces, capped at `maximumDelta`; `nil` for anything else
    /// (a sign, a fraction, an empty value).
    static func deltaSeconds(_ text: String) -> Double? {
        let digits = text.trimmingCharacters(in: .whitespaces)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return min(Double(digits) ?? maximumDelta, maximumDelta)
    }

    /// Splits a field value into lower-cased names and unquoted arguments; commas inside a
    /// quoted string do not split it.
    static func directives(_ value: String) -> [(name: String, argument: String?)] {
        var result: [(name: String, argument: String?)] = []
        var scalars = value.unicodeScalars[...]
        while !scalars.isEmpty {
            var name = ""
            while let scalar = scalars.first, scalar != ",", scalar != "=" {
                name.unicodeScalars.append(scalar)
                scalars.removeFirst()
            }
            var argument: String?
            if scalars.first == "=" {
                scalars.removeFirst()
                while scalars.first == " " || scalars.first == "\t" { scalars.removeFirst() }
                var text = ""
                if scalars.first == "\"" {
                    scalars.removeFirst()
                    while let scalar = scalars.popFirst(), scalar != "\"" {
                        if scalar == "\\", let escaped = scalars.popFirst() {
                            text.unicodeScalars.append(escaped)
                        } else {
                            text.unicodeScalars.append(scalar)
                        }
                    }
                    // Anything between the closing quote and the next comma is malformed; skip it.
                    while let scalar = scalars.first, scalar != "," { scalars.removeFirst() }
                } else {
                    while let scalar = scalars.first, scalar != "," {
                        text.unicodeScalars.append(scalar)
                        scalars.removeFirst()
                    }
                    text = text.trimmingCharacters(in: .whitespaces)
                }
                argument = text
            }
            if scalars.first == "," { scalars.removeFirst() }
            let trimmed = name.trimmingCharacters(in: .whitespaces).lowercased()
            if !trimmed.isEmpty { result.append((trimmed, argument)) }
        }
        return result
    }
}

// MARK: - HTTP dates

/// HTTP-date (RFC 9110 §5.6.7) without `DateFormatter`: locale-free, allocation-light and
/// the same on every platform.
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Parses the three forms a recipient must accept: IMF-fixdate
    /// (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete RFC 850 form
    /// (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`).
    ///
    /// - Parameter now: resolves an RFC 850 two-digit year: one that would lie more than
    ///   50 years ahead is taken from the previous century.
    static func parse(_ text: String, now: Date) -> Date? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        switch parts.count {
        case 6 where parts[0].hasSuffix(",") && parts[5] == "GMT":  // IMF-fixdate
            guard parts[1].count == 2, parts[3].count == 4, let day = Int(parts[1]), let year = Int(parts[3]) else { return nil }
            return make(year: year, month: parts[2], day: day, time: parts[4])
        case 4 where parts[0].hasSuffix(",") && parts[3] == "GMT":  // RFC 850
            let fields = parts[1].split(separator: "-").map(String.init)
            guard fields.count == 3, fields[0].count == 2, fields[2].count == 2,
                let day = Int(fields[0]), let shortYear = Int(fields[2])
            else { return nil }
            let currentYear = civil(fromDays: Int((now.timeIntervalSince1970 / 86_400).rounded(.down))).year
            var year = currentYear - currentYear % 100 + shortYear
            if year > currentYear + 50 { year -= 100 }
            return make(year: year, month: fields[1], day: day, time: parts[2])
        case 5 where !parts[0].hasSuffix(","):  // asctime
            guard parts[4].count == 4, let day = Int(parts[2]), let year = Int(parts[4]) else { return nil }
            return make(year: year, month: parts[1], day: day, time: parts[3])
        default:
            return nil
        }
    }

    /// IMF-fixdate, for tests and servers written in Swift.
    static func format(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let (year, month, day) = civil(fromDays: days)
        let time = seconds - days * 86_400
        let weekday = weekdays[((days % 7) + 11) % 7]  // 1970-01-01 was a Thursday.
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekday), \(two(day)) \(monthNames[month - 1]) \(year) \(two(time / 3_600)):\(two(time / 60 % 60)):\(two(time % 60)) GMT"
    }

    private static func make(year: Int, month: String, day: Int, time: String) -> Date? {
        guard let monthIndex = months.firstIndex(of: month.lowercased()) else { return nil }
        let clock = time.split(separator: ":").map(String.init)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
            let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
            (1...31).contains(day), (1...9999).contains(year)
        else { return nil }
        let days = days(fromCivil: year, month: monthIndex + 1, day: day)
        guard civil(fromDays: days) == (year, monthIndex + 1, day) else { return nil }  // 31 Feb
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func days(fromCivil year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of `days(fromCivil:month:day:)`.
    private static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

// MARK: - Judging a stored entry

extension CacheRule {
    /// Seconds `entry` is fresh for: the server's lifetime under `ttlFromServer` (0 for
    /// `no-cache`, the rule's `ttl` when the server stated none), else the rule's `ttl`.
    func freshnessLifetime(of entry: CacheEntry) -> Double {
        guard ttlFromServer, let server = entry.freshness else { return ttl }
        return server.noCache ? 0 : server.lifetime ?? ttl
    }

    /// The entry's age as freshness counts it: under `ttlFromServer` the age it arrived
    /// with plus the time since, else the time since it was stored.
    func currentAge(of entry: CacheEntry, at now: Date) -> Double {
        let resident = now.timeIntervalSince(entry.date)
        guard ttlFromServer, let server = entry.freshness else { return resident }
        return server.initialAge + resident
    }

    /// Whether `cacheFirst` may answer with `entry` without the network. Never past
    /// `maxStale`, and never for an entry dated in the future (the clock was set back), whose
    /// age is unknown.
    func isFresh(_ entry: CacheEntry, at now: Date) -> Bool {
        let resident = now.timeIntervalSince(entry.date)
        guard resident >= 0, resident < maxStale else { return false }
        return currentAge(of: entry, at: now) < freshnessLifetime(of: entry)
    }

    /// Whether `entry` may stand in for an answer the network failed to give (a transport
    /// failure or a 5xx): within `maxStale`, and, under `ttlFromServer`, not forbidden by
    /// `must-revalidate` or `no-cache` once stale unless `stale-if-error` covers it.
    func allowsFallback(to entry: CacheEntry, at now: Date) -> Bool {
        guard now.timeIntervalSince(entry.date) < maxStale else { return false }
        guard ttlFromServer, let server = entry.freshness, server.noCache || server.mustRevalidate else { return true }
        if isFresh(entry, at: now) { return true }
        guard let allowed = server.staleIfError else { return false }
        return currentAge(of: entry, at: now) - freshnessLifetime(of: entry) <= allowed
    }

    /// Whether `cacheFirst` may answer with a stale `entry` at once and refresh it in the
    /// background: within the server's `stale-while-revalidate` window and `maxStale`.
    func allowsBackgroundRevalidation(of entry: CacheEntry, at now: Date) -> Bool {
        guard ttlFromServer, let server = entry.freshness, let window = server.staleWhileRevalidate,
            !server.noCache, !server.mustRevalidate
        else { return false }
        let resident = now.timeIntervalSince(entry.date)
        guard resident >= 0, resident < maxStale else { return false }
        return currentAge(of: entry, at: now) <= freshnessLifetime(of: entry) + window
    }
}
