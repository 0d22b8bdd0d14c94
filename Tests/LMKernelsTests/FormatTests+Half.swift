import Testing
import LMKernels

/// Half and bfloat16 conversions, exhaustively against Swift's `Float16` and against numpy /
/// gguf-py fixtures.
struct HalfFormatTests {
    @Test func halfToFloatEqualsFloat16ForAll65536Patterns() {
        var mismatches: [UInt16] = []
        for bits in UInt16.min...UInt16.max {
            let expected = Float(Float16(bitPattern: bits))
            if halfToFloat(bits).bitPattern != expected.bitPattern { mismatches.append(bits) }
        }
        let mismatchCount = mismatches.count
        #expect(mismatchCount == 0, "first mismatches: \(mismatches.prefix(4))")
    }

    @Test("named half values", arguments: [
        (UInt16(0x3C00), Float(1)), (0xC000, -2), (0x7BFF, 65504), (0x0400, 0x1p-14), (0x03FF, 0x1.FF8p-15),
        (0x0001, 0x1p-24), (0x8001, -0x1p-24), (0x7C00, .infinity), (0xFC00, -.infinity), (0x3555, 0x1.554p-2),
    ])
    func namedHalf(bits: UInt16, value: Float) {
        #expect(halfToFloat(bits) == value)
        #expect(floatToHalf(value) == bits)
    }

    @Test func halfNaNsStayNaNWithPayloadAndBecomeQuiet() {
        #expect(halfToFloat(0x7C01).bitPattern == 0x7FC0_2000)   // signalling, payload 1
        #expect(halfToFloat(0xFE00).bitPattern == 0xFFC0_0000)   // negative quiet
        #expect(floatToHalf(Float(bitPattern: 0x7F80_0001)) & 0x7E00 == 0x7E00)
        #expect(floatToHalf(-.nan) == 0xFE00)
    }

    @Test func floatToHalfRoundTripsEveryFiniteAndInfiniteHalf() {
        var mismatches: [UInt16] = []
        for bits in UInt16.min...UInt16.max where !Float16(bitPattern: bits).isNaN {
            if floatToHalf(halfToFloat(bits)) != bits { mismatches.append(bits) }
        }
        let mismatchCount = mismatches.count
        #expect(mismatchCount == 0, "first mismatches: \(mismatches.prefix(4))")
    }

    /// Every exact midpoint between neighbouring halves (where ties-to-even decides) and the
    /// floats one ulp either side, compared with Swift's own `Float16(Float)` conversion.
    @Test func floatToHalfRoundsMidpointsToEvenLikeFloat16() {
        var mismatches: [Float] = []
        for bits in UInt16(0)..<0x7C00 {
            for sign in [1.0, -1.0] {
                let low = Double(Float16(bitPattern: bits)), high = Double(Float16(bitPattern: bits + 1))
                let mid = Float(sign * (low + high) / 2)
                for x in [mid, mid.nextDown, mid.nextUp] where floatToHalf(x) != Float16(x).bitPattern {
                    mismatches.append(x)
                }
            }
        }
        let mismatchCount = mismatches.count
        #expect(mismatchCount == 0, "first mismatches: \(mismatches.prefix(4))")
    }

    @Test func floatToHalfMatchesNumpy() throws {
        let input = try Fixture.floats("quantize/F16.input.bin")
        let expected = try Fixture.data("quantize/F16.output.bin")
        let ours = input.map { floatToHalf($0) }
        let reference = expected.withUnsafeBytes { raw in
            (0..<input.count).map { UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * $0, as: UInt16.self)) }
        }
        let mismatches = ours.indices.filter { ours[$0] != reference[$0] }
        let mismatchCount = mismatches.count
        #expect(mismatchCount == 0, "first at \(mismatches.first.map { (input[$0], ours[$0], reference[$0]) }.debugDescription)")
        #expect(input.count == 4096)
    }

    @Test func bf16RoundTripsEveryNonNaNPattern() {
        var mismatches: [UInt16] = []
        for bits in UInt16.min...UInt16.max {
            let value = bf16ToFloat(bits)
            #expect(value.bitPattern == UInt32(bits) << 16)
            if !value.isNaN && floatToBF16(value) != bits { mismatches.append(bits) }
        }
        let mismatchCount = mismatches.count
        #expect(mismatchCount == 0)
    }

    @Test("named bfloat16 values", arguments: [
        (Float(1), UInt16(0x3F80)), (Float(-2), UInt16(0xC000)), (Float.infinity, UInt16(0x7F80)), (Float(0x1p-133), UInt16(0x0001)),
        (Float(bitPattern: 0x3F80_8000), UInt16(0x3F80)),   // tie, even stays
        (Float(bitPattern: 0x3F81_8000), UInt16(0x3F82)),   // tie, odd rounds up
        (Float(bitPattern: 0x3F80_8001), UInt16(0x3F81)),   // above the tie
        (Float(bitPattern: 0x7F7F_FFFF), UInt16(0x7F80)),   // greatest float rounds to infinity
    ])
    func namedBF16(value: Float, bits: UInt16) {
        #expect(floatToBF16(value) == bits)
    }

    @Test func floatToBF16MatchesGGUFPy() throws {
        let input = try Fixture.floats("quantize/BF16.input.bin")
        let expected = try Fixture.data("quantize/BF16.output.bin")
        let ours = input.map { floatToBF16($0) }
        let reference = expected.withUnsafeBytes { raw in
            (0..<input.count).map { UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * $0, as: UInt16.self)) }
        }
        let mismatches = ours.indices.filter { ours[$0] != reference[$0] }
        let mismatchCount = mismatches.count
        #expect(mismatchCount == 0, "first at \(mismatches.first.map { (input[$0].bitPattern, ours[$0], reference[$0]) }.debugDescription)")
        #expect(input.contains { $0.isNaN })
    }
}
