extension Int {
    /// `self + other`, held at `Int.max` (or `Int.min`) where the sum would overflow. For counts
    /// and sizes read back from a store, which a damaged or hostile record can set to anything:
    /// adding to them must never trap.
    package func addingClamped(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
