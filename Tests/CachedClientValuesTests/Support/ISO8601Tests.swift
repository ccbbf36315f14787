import Foundation
import Testing

@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// Dates in bodies, parameters and keys: UTC out, fractions only when there are any, and
/// both forms in.
@Suite("ISO8601")
struct ISO8601Tests {
    @Test func formatsInUTCWithMillisecondsOnlyWhenThereAreAny() {
        #expect(ISO8601.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(ISO8601.format(Date(timeIntervalSince1970: 1_709_210_096)) == "2024-02-29T12:34:56Z")
        #expect(ISO8601.format(Date(timeIntervalSince1970: 1_709_210_096.5)) == "2024-02-29T12:34:56.500Z")
        #expect(ISO8601.format(Date(timeIntervalSince1970: -86_400)) == "1969-12-31T00:00:00Z")
    }

    @Test func parsesWithAndWithoutFractionalSeconds() throws {
        #expect(ISO8601.parse("2024-02-29T12:34:56Z") == Date(timeIntervalSince1970: 1_709_210_096))
        let fractional = try #require(ISO8601.parse("2024-02-29T12:34:56.789Z"))
        #expect(abs(fractional.timeIntervalSince1970 - 1_709_210_096.789) < 0.000_5)
    }

    @Test func parsesAnOffsetAsTheSameInstant() {
        #expect(ISO8601.parse("2024-02-29T14:34:56+02:00") == Date(timeIntervalSince1970: 1_709_210_096))
    }

    @Test(arguments: ["", "not a date", "2024-02-29", "12:34:56Z", "2024-02-29 12:34:56"])
    func rejectsWhatIsNotADateAndTime(text: String) {
        #expect(ISO8601.parse(text) == nil)
    }

    /// Foundation's parser is lenient about a day past the month's end and rolls it over;
    /// pinned so that a change of that (a server's bad date becoming an error) is seen.
    @Test func aDayPastTheMonthsEndRollsOver() {
        #expect(ISO8601.parse("2024-02-30T12:34:56Z") == Date(timeIntervalSince1970: 1_709_296_496))
    }

    @Test(arguments: [0, 946_684_800, 1_709_210_096, 1_709_210_096.25, 1_709_210_096.125, -86_400.5] as [Double])
    func roundTripsToTheMillisecond(seconds: Double) throws {
        let date = Date(timeIntervalSince1970: seconds)
        let parsed = try #require(ISO8601.parse(ISO8601.format(date)))
        #expect(parsed == date)
    }
}
