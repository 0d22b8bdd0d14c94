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

extension HalfVectorTests {
    /// Every kernel set's row conversion to halves (F16C's `vcvtps2ph` on AVX2) against the scalar
    /// ``floatToHalf(_:)-(Float)``: ties, overflow, subnormals, and the non-finite flag.
    @Test("each kernel set's half rows equal the scalar conversion")
    func halfRowsEqualScalar() {
        var rng = SystemRandomNumberGenerator()
        var values: [Float] = [0, -0, 1, -1, 65504, 65519.99, 65520, -65520, 1e-8, -3e-8, 5.96e-8, 2.98e-8, 6.1e-5,
                               1 + 1.0 / 2048, 1 + 3.0 / 2048, .infinity, -.infinity, 0.1, 1e10]
        values += (0..<2045).map { _ in Float(bitPattern: UInt32.random(in: 0x2000_0000...0x4800_0000, using: &rng)) * (Bool.random() ? 1 : -1) }
        let expected = values.map(floatToHalf)
        for set in KernelSet.supported {
            for count in [values.count, 13, 7] {
                let finitePrefix = values.prefix(count).allSatisfy { $0.isFinite && abs($0) < 65520 }
                var out = [UInt16](repeating: 0xFFFF, count: values.count)
                let flagged = values.withUnsafeBufferPointer { src in
                    out.withUnsafeMutableBufferPointer { set.vectorKernels.halves(src.baseAddress!, $0.baseAddress!, count) }
                }
                #expect(Array(out.prefix(count)) == Array(expected.prefix(count)), "\(set), \(count) values")
                #expect(out[count...].allSatisfy { $0 == 0xFFFF }, "\(set) wrote past \(count)")
                #expect(flagged == !finitePrefix, "\(set), \(count) values: non-finite flag")
            }
        }
    }
}
