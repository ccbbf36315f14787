/// Spec durations: whole seconds as a number (`600`) or a number with a unit (`"10m"`).
package enum SpecDuration {
    /// The message shown for any duration that cannot be read.
    package static func invalid(_ written: String) -> String {
        "invalid duration \(written); write seconds (600) or a whole number with s, m, h or d (\"10m\"); a ttl may also be \"server\""
    }

    /// Seconds for a string such as `30s`, `5m`, `2h`, `7d`; `nil` if it is not one.
    package static func seconds(_ text: String) -> Int? {
        guard let unit = text.last, let count = Int(text.dropLast()), count >= 0,
            text.dropLast().allSatisfy(\.isASCII)
        else { return nil }
        switch unit {
        case "s": return count
        case "m": return count.multipliedReportingOverflow(by: 60).overflow ? nil : count * 60
        case "h": return count.multipliedReportingOverflow(by: 3600).overflow ? nil : count * 3600
        case "d": return count.multipliedReportingOverflow(by: 86_400).overflow ? nil : count * 86_400
        default: return nil
        }
    }

    /// Human words for a number of seconds, for doc comments: `10 minutes`, `7 days`.
    package static func words(_ seconds: Int) -> String {
        func plural(_ count: Int, _ unit: String) -> String { count == 1 ? "1 \(unit)" : "\(count) \(unit)s" }
        if seconds == 0 { return "0 seconds" }
        if seconds % 86_400 == 0 { return plural(seconds / 86_400, "day") }
        if seconds % 3600 == 0 { return plural(seconds / 3600, "hour") }
        if seconds % 60 == 0 { return plural(seconds / 60, "minute") }
        return plural(seconds, "second")
    }
}
