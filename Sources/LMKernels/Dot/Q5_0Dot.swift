/// Q5_0 weights (5.5 bits/weight, 22 bytes per 32: f16 `d`, 32 high bits `qh` (little-endian),
/// 16 bytes of low nibbles as Q4_0; weight `j` gets bit `j` of `qh` as its fifth bit; value
/// `(q - 16) * d`) against Q8_0 activations, as ggml's `ggml_vec_dot_q5_0_q8_0`.
enum Q5_0Format: BlockFormat {
    static var activationFormat: ActivationFormat { .q8_0 }
    static var blockBytes: Int { 22 }
    static var groups: Int { 1 }

    @inline(__always)
    static func group(_ block: UnsafeRawPointer, _ g: Int) -> (SIMD16<Int16>, SIMD16<Int16>) {
        let qh = block.loadUnaligned(fromByteOffset: 2, as: UInt32.self)
        let qs = loadU8x16(block + 6)
        let sixteen = SIMD16<Int16>(repeating: 16)
        return (widen((qs & 0x0f) | fifthBits(UInt16(truncatingIfNeeded: qh))) &- sixteen,
                widen((qs &>> 4) | fifthBits(UInt16(truncatingIfNeeded: qh >> 16))) &- sixteen)
    }

    @inline(__always)
    static func scale(_ block: UnsafeRawPointer) -> Float { loadF16(block) }
}

/// Lane `i` is 16 when bit `i` of `bits` is set, else 0 (the fifth bit of 16 weights).
@inline(__always)
func fifthBits(_ bits: UInt16) -> SIMD16<UInt8> {
    let lo = UInt8(truncatingIfNeeded: bits), hi = UInt8(truncatingIfNeeded: bits >> 8)
    let spread = SIMD16<UInt8>(lo, lo, lo, lo, lo, lo, lo, lo, hi, hi, hi, hi, hi, hi, hi, hi)
    let mask = SIMD16<UInt8>(1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128)
    var r = SIMD16<UInt8>()
    for i in 0..<16 { r[i] = (spread[i] & mask[i]) != 0 ? 16 : 0 }
    return r
}
