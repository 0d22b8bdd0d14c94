/// A seeded pseudo-random generator (SplitMix64, Steele et al. 2014): the same seed gives the same
/// sequence on every platform and run.
public struct RandomSource: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform Float in `[0, 1)` from the top 24 bits.
    public mutating func nextUnitFloat() -> Float {
        Float(next() >> 40) * 0x1p-24
    }
}
