import Testing
import LMKernels

/// The eight-lane half-to-float conversion the KV cache reads with, bit for bit against the
/// scalar ``halfToFloat(_:)`` (itself checked against `Float16` for every pattern).
struct HalfVectorTests {
    /// Each case covers 8192 consecutive bit patterns (with signs, subnormals, infinities, NaNs).
    @Test("eight-lane conversion equals the scalar one for every pattern", arguments: 0..<8)
    func vectorEqualsScalar(_ range: Int) {
        var mismatches: [UInt16] = []
        for start in stride(from: range * 8192, to: range * 8192 + 8192, by: 8) {
            // Lanes in a shuffled order, so a lane mix-up cannot pass.
            var lanes = SIMD8<UInt16>()
            for i in 0..<8 { lanes[i] = UInt16(start + (i * 5) % 8) }
            let converted = halfToFloat(lanes)
            for i in 0..<8 where converted[i].bitPattern != halfToFloat(lanes[i]).bitPattern {
                mismatches.append(lanes[i])
            }
        }
        #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(4))")
    }
}

extension HalfVectorTests {
    @Test("the finite-only conversion equals the scalar one for every finite pattern", arguments: 0..<8)
    func finiteVectorEqualsScalar(_ range: Int) {
        var mismatches: [UInt16] = []
        for start in stride(from: range * 8192, to: range * 8192 + 8192, by: 8) {
            var lanes = SIMD8<UInt16>()
            for i in 0..<8 { lanes[i] = UInt16(start + (i * 3) % 8) }
            let converted = halfToFloatFinite(lanes)
            for i in 0..<8 where lanes[i] & 0x7C00 != 0x7C00 && converted[i].bitPattern != halfToFloat(lanes[i]).bitPattern {
                mismatches.append(lanes[i])
            }
        }
        #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(4))")
    }
}
