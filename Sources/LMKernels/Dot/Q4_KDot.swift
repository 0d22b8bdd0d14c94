/// Q4_K weights (4.5 bits/weight, 144 bytes per 256: f16 `d`, f16 `dmin`, 12 bytes of packed
/// 6-bit sub-scales and sub-mins for 8 groups of 32, 128 bytes of nibbles: bytes `32p..<32p+32`
/// hold group `2p` in their low and group `2p+1` in their high nibbles; value
/// `d * sc * q - dmin * m`) against Q8_K activations, as ggml's `ggml_vec_dot_q4_K_q8_K`: the min
/// term uses the activation's 16-value sums.
enum Q4_KFormat: BlockFormat {
    static var activationFormat: ActivationFormat { .q8_K }
    static var blockBytes: Int { 144 }
    static var groups: Int { 8 }
    static var hasOffset: Bool { true }

    @inline(__always)
    static func group(_ block: UnsafeRawPointer, _ g: Int) -> (SIMD16<Int16>, SIMD16<Int16>) {
        let sc = SIMD16<Int16>(repeating: Int16(kScaleMin(block + 4, g).scale))
        let qs = block + 16 + 32 * (g >> 1)
        let lo = loadU8x16(qs), hi = loadU8x16(qs + 16)
        if g & 1 == 0 {
            return (widen(lo & 0x0f) &* sc, widen(hi & 0x0f) &* sc)
        }
        return (widen(lo &>> 4) &* sc, widen(hi &>> 4) &* sc)
    }

    @inline(__always)
    static func scale(_ block: UnsafeRawPointer) -> Float { loadF16(block) }

    @inline(__always)
    static func offset(_ block: UnsafeRawPointer, _ x: ActivationRow, _ b: Int) -> Float {
        -loadF16(block, 2) * x.scales[b] * Float(kMinSum(block + 4, x.bsums + 16 * b))
    }
}

/// The 6-bit scale and min of group `j` (0..<8) from Q4_K/Q5_K's 12 packed bytes, as ggml's
/// `get_scale_min_k4`.
@inline(__always)
func kScaleMin(_ q: UnsafeRawPointer, _ j: Int) -> (scale: UInt8, min: UInt8) {
    let b = q.assumingMemoryBound(to: UInt8.self)
    if j < 4 {
        return (b[j] & 63, b[j + 4] & 63)
    }
    return ((b[j + 4] & 0x0f) | ((b[j - 4] >> 6) << 4), (b[j + 4] >> 4) | ((b[j] >> 6) << 4))
}

/// `Σ_j min_j * (bsums[2j] + bsums[2j+1])` over the 8 groups of a Q4_K/Q5_K block.
@inline(__always)
func kMinSum(_ scales: UnsafeRawPointer, _ bsums: UnsafePointer<Int16>) -> Int32 {
    var total: Int32 = 0
    for j in 0..<8 {
        let m = Int32(kScaleMin(scales, j).min)
        total &+= m &* (Int32(bsums[2 * j]) &+ Int32(bsums[2 * j + 1]))
    }
    return total
}
