/// Q5_0 weights (5.5 bits/weight, 22 bytes per 32: f16 `d`, 32 high bits `qh` (little-endian),
/// 16 bytes of low nibbles as Q4_0; weight `j` gets bit `j` of `qh` as its fifth bit; value
/// `(q - 16) * d`) against Q8_0 activations, as ggml's `ggml_vec_dot_q5_0_q8_0`.
enum Q5_0Format: BlockFormat {
    typealias Header = Void
    static var activationFormat: ActivationFormat { .q8_0 }
    static var blockBytes: Int { 22 }
    static var groups: Int { 1 }

    @inline(__always)
    static func group(_ block: UnsafeRawPointer, _ header: Void, _ g: Int) -> (SIMD16<Int16>, SIMD16<Int16>) {
        let high = fifthBits(block.loadUnaligned(fromByteOffset: 2, as: UInt32.self))
        let qs = loadU8x16(block + 6)
        let sixteen = SIMD16<Int16>(repeating: 16)
        return ((widen(qs & 0x0f) | high.0) &- sixteen, (widen(qs &>> 4) | high.1) &- sixteen)
    }

    @inline(__always)
    static func scale(_ block: UnsafeRawPointer) -> Float { loadF16(block) }
}

/// Lane `i` (0..<32) of the pair is 16 when bit `i` of `bits` is set, else 0: the fifth bit of
/// each weight. A multiply moves bit `i` of lane `i` to bit 15 and a shift brings it to bit 4,
/// with no per-lane variable shifts or selects (SSE2 has neither).
@inline(__always)
func fifthBits(_ bits: UInt32) -> (SIMD16<Int16>, SIMD16<Int16>) {
    let mask = SIMD16<UInt16>(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768)
    let toTop = SIMD16<UInt16>(32768, 16384, 8192, 4096, 2048, 1024, 512, 256, 128, 64, 32, 16, 8, 4, 2, 1)
    let lo = SIMD16<UInt16>(repeating: UInt16(truncatingIfNeeded: bits))
    let hi = SIMD16<UInt16>(repeating: UInt16(truncatingIfNeeded: bits >> 16))
    return (unsafeBitCast(((lo & mask) &* toTop) &>> 11, to: SIMD16<Int16>.self),
            unsafeBitCast(((hi & mask) &* toTop) &>> 11, to: SIMD16<Int16>.self))
}
