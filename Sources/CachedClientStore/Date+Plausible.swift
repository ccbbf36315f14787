import Foundation

extension Date {
    /// Whether a date read back from a store can be handed out: finite and within ±3,000 years
    /// of 1970. A damaged or hostile record's NaN, infinity or year 10^290 would otherwise reach
    /// an app as a value's date, and trap wherever it is turned into whole seconds.
    package var isPlausible: Bool {
        let seconds = timeIntervalSince1970
        return seconds.isFinite && abs(seconds) < 1e11
    }
}
