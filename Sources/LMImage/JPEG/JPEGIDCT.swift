/// The inverse DCT of libjpeg's "islow" method (`jidctint.c`, libjpeg-turbo's default and what Pillow
/// decodes with): the Loeffler-Ligtenberg-Moschytz factorisation in 32-bit fixed point, 13 fraction bits for
/// the constants and 2 extra bits kept between the column and row passes, results rounded, shifted by 128
/// and clamped with libjpeg's range-limit table. Written from the algorithm's description; reproduces
/// libjpeg-turbo's output exactly on the conformance fixtures.
enum JPEGIDCT {
    static let constBits = 13
    static let pass1Bits = 2
    static let fix0_298631336 = 2446, fix0_390180644 = 3196, fix0_541196100 = 4433, fix0_765366865 = 6270
    static let fix0_899976223 = 7373, fix1_175875602 = 9633, fix1_501321110 = 12299, fix1_847759065 = 15137
    static let fix1_961570560 = 16069, fix2_053119869 = 16819, fix2_562915447 = 20995, fix3_072711026 = 25172

    /// libjpeg's range limit after masking with 1023: clamp(x + 128) for x in -512...511, wrapping beyond
    /// (as the C table does for corrupt, out-of-range coefficients).
    static let rangeLimit: [UInt8] = (0..<1024).map { i in
        let x = i < 512 ? i : i - 1024
        return UInt8(max(0, min(255, x + 128)))
    }

    @inline(__always)
    static func descale(_ x: Int, _ n: Int) -> Int { (x &+ (1 << (n - 1))) >> n }

    /// Transforms the block `coefficients[offset..<offset + 64]` (natural order) dequantised by `quant`
    /// (natural order) into 8x8 samples at `output[outOffset...]`, rows `stride` bytes apart.
    /// `workspace` holds 64 values between the passes (passed in so a block allocates nothing).
    static func transform(
        _ coefficients: [Int16], at offset: Int, quant: [Int], workspace ws: inout [Int],
        into output: inout [UInt8], at outOffset: Int, stride: Int
    ) {
        // Pass 1: columns, from the coefficients into the workspace, scaled up by 2^pass1Bits.
        for col in 0..<8 {
            func q(_ row: Int) -> Int { Int(coefficients[offset + row * 8 + col]) &* quant[row * 8 + col] }
            if coefficients[offset + 8 + col] == 0 && coefficients[offset + 16 + col] == 0 && coefficients[offset + 24 + col] == 0
                && coefficients[offset + 32 + col] == 0 && coefficients[offset + 40 + col] == 0 && coefficients[offset + 48 + col] == 0
                && coefficients[offset + 56 + col] == 0 {
                let dc = q(0) &<< pass1Bits
                for row in 0..<8 { ws[row * 8 + col] = dc }
                continue
            }
            let out = butterfly(q(0), q(1), q(2), q(3), q(4), q(5), q(6), q(7))
            let shift = constBits - pass1Bits
            for row in 0..<8 { ws[row * 8 + col] = descale(out[row], shift) }
        }
        // Pass 2: rows, from the workspace into samples, removing pass1Bits and the DCT's factor of 8.
        let shift = constBits + pass1Bits + 3
        for row in 0..<8 {
            let w = row * 8
            let o = outOffset + row * stride
            if ws[w + 1] == 0 && ws[w + 2] == 0 && ws[w + 3] == 0 && ws[w + 4] == 0 && ws[w + 5] == 0 && ws[w + 6] == 0 && ws[w + 7] == 0 {
                let value = rangeLimit[descale(ws[w], pass1Bits + 3) & 1023]
                for i in 0..<8 { output[o + i] = value }
                continue
            }
            let out = butterfly(ws[w], ws[w + 1], ws[w + 2], ws[w + 3], ws[w + 4], ws[w + 5], ws[w + 6], ws[w + 7])
            for i in 0..<8 { output[o + i] = rangeLimit[descale(out[i], shift) & 1023] }
        }
    }

    /// One 8-point inverse DCT on inputs d0...d7, outputs scaled by 2^constBits (not yet descaled).
    @inline(__always)
    static func butterfly(_ d0: Int, _ d1: Int, _ d2: Int, _ d3: Int, _ d4: Int, _ d5: Int, _ d6: Int, _ d7: Int) -> SIMD8<Int> {
        // Even part.
        var z1 = (d2 &+ d6) &* fix0_541196100
        var tmp2 = z1 &+ d6 &* -fix1_847759065
        var tmp3 = z1 &+ d2 &* fix0_765366865
        var tmp0 = (d0 &+ d4) &<< constBits
        var tmp1 = (d0 &- d4) &<< constBits
        let tmp10 = tmp0 &+ tmp3, tmp13 = tmp0 &- tmp3
        let tmp11 = tmp1 &+ tmp2, tmp12 = tmp1 &- tmp2
        // Odd part.
        tmp0 = d7
        tmp1 = d5
        tmp2 = d3
        tmp3 = d1
        z1 = tmp0 &+ tmp3
        var z2 = tmp1 &+ tmp2
        var z3 = tmp0 &+ tmp2
        var z4 = tmp1 &+ tmp3
        let z5 = (z3 &+ z4) &* fix1_175875602
        tmp0 = tmp0 &* fix0_298631336
        tmp1 = tmp1 &* fix2_053119869
        tmp2 = tmp2 &* fix3_072711026
        tmp3 = tmp3 &* fix1_501321110
        z1 = z1 &* -fix0_899976223
        z2 = z2 &* -fix2_562915447
        z3 = z3 &* -fix1_961570560 &+ z5
        z4 = z4 &* -fix0_390180644 &+ z5
        tmp0 = tmp0 &+ z1 &+ z3
        tmp1 = tmp1 &+ z2 &+ z4
        tmp2 = tmp2 &+ z2 &+ z3
        tmp3 = tmp3 &+ z1 &+ z4
        return SIMD8(tmp10 &+ tmp3, tmp11 &+ tmp2, tmp12 &+ tmp1, tmp13 &+ tmp0,
                     tmp13 &- tmp0, tmp12 &- tmp1, tmp11 &- tmp2, tmp10 &- tmp3)
    }
}
