import Foundation

/// ISO 8601 parsing and formatting in one place, for bodies, parameters and keys.
package enum ISO8601 {
    private static let plain = Date.ISO8601FormatStyle()
    private static let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// Parses a date with or without fractional seconds.
    package static func parse(_ text: String) -> Date? {
        if let date = try? plain.parse(text) { return date }
        return try? fractional.parse(text)
    }

    /// Formats a date in UTC, with milliseconds only when it has any.
    package static func format(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        return seconds == seconds.rounded() ? plain.format(date) : fractional.format(date)
    }
}
