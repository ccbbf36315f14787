/// SplitMix64: a small, fast, seedable generator giving the same numbers on every
/// platform and toolchain, so a failing random case can be replayed from its seed.
package struct SplitMix64: RandomNumberGenerator {
    /// The generator's state: the seed, then every number drawn so far.
    package var state: UInt64

    /// A generator seeded with `state`.
    package init(state: UInt64) {
        self.state = state
    }

    /// The next number.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<count`; a count below 1 counts as 1.
    package mutating func below(_ count: Int) -> Int {
        Int(next() % UInt64(max(count, 1)))
    }

    /// One of `items`, which must not be empty.
    package mutating func pick<T>(_ items: [T]) -> T {
        items[below(items.count)]
    }

    /// True `numerator` times in `denominator`.
    package mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        below(denominator) < numerator
    }
}
