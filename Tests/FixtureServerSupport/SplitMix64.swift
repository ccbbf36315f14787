/// SplitMix64, a small deterministic generator: the same seed gives the same numbers on every
/// run and platform, so a failing "random" input or plan can be made again. The one copy for
/// the tests and their child processes (`CachedClientTesting`, a product, keeps its own).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`: the next value modulo `bound` (not uniform, but the same plan in every run).
    public mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
