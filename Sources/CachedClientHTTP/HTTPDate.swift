import Foundation

/// HTTP-date (RFC 9110 §5.6.7) without `DateFormatter`: locale-free, allocation-light and
/// the same on every platform.
package enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Parses the three forms a recipient must accept: IMF-fixdate
    /// (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete RFC 850 form
    /// (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`).
    ///
    /// - Parameter now: resolves an RFC 850 two-digit year: one that would lie more than
    ///   50 years ahead is taken from the previous century.
    package static func parse(_ text: String, now: Date) -> Date? {
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
    package static func format(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let (year, month, day) = civil(fromDays: days)
        let time = seconds - days * 86_400
        let weekday = weekdays[((days % 7) + 11) % 7]  // 1970-01-01 was a Thursday.
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        // IMF-fixdate's year is four digits: 0997, not 997, or `parse` would not read it back.
        let digits = String(year)
        let fourDigitYear = year >= 0 && digits.count < 4 ? String(repeating: "0", count: 4 - digits.count) + digits : digits
        return "\(weekday), \(two(day)) \(monthNames[month - 1]) \(fourDigitYear) \(two(time / 3_600)):\(two(time / 60 % 60)):\(two(time % 60)) GMT"
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
