import LMKernelsCore

/// Q5_0 weights (5.5 bits/weight, 22 bytes per 32: f16 `d`, 32 high bits `qh` (little-endian),
/// 16 bytes of low nibbles as Q4_0; weight `j` gets bit `j` of `qh` as its fifth bit; value
/// `(q - 16) * d`) against Q8_0 activations, as ggml's `ggml_vec_dot_q5_0_q8_0`.
enum Q5_0Format: BlockFormat {
    typealias Header = Void
    typealias Lanes = SIMD4<Float>
    static var activationFormat: ActivationFormat { .q8_0 }
    static var blockBytes: Int { Q5_0.layoutBytes }
    static var groups: Int { 1 }

    @inline(__always)
    static func group(_ block: UnsafeRawPointer, _ header: Void, _ g: Int) -> (SIMD16<Int16>, SIMD16<Int16>) {
        let high = fifthBits(block.loadUnaligned(fromByteOffset: Q5_0.qhOffset, as: UInt32.self))
        let low = nibblePairPlanes(block + Q5_0.qsOffset)
        let sixteen = SIMD16<Int16>(repeating: 16)
        return ((low.0 | high.0) &- sixteen, (low.1 | high.1) &- sixteen)
    }

    @inline(__always)
    static func groupDot(_ w: (SIMD16<Int16>, SIMD16<Int16>), _ header: Void, _ g: Int,
                         _ a: UnsafePointer<Int16>) -> SIMD4<Float> {
        foldedDot(w, a)
    }

    @inline(__always)
    static func scale(_ block: UnsafeRawPointer) -> Float { loadF16(block) }
}

/// The fifth bit (16 or 0) of each weight of a 32-group from its 32 high bits `bits` (bit `i`
/// for weight `i`), as even/odd lanes. A multiply moves bit `i` of its lane to bit 15 and a shift
/// brings it to bit 4, with no per-lane variable shifts or selects (SSE2 has neither).
@inline(__always)
func fifthBits(_ bits: UInt32) -> (SIMD16<Int16>, SIMD16<Int16>) {
    let lo = UInt16(truncatingIfNeeded: bits), hi = UInt16(truncatingIfNeeded: bits >> 16)
    // Lanes 0..<8 hold weights below 16 (bits of `lo`), lanes 8..<16 the rest (bits of `hi`).
    let source = SIMD16<UInt16>(lowHalf: SIMD8(repeating: lo), highHalf: SIMD8(repeating: hi))
    let evenMask = SIMD16<UInt16>(1, 4, 16, 64, 256, 1024, 4096, 16384, 1, 4, 16, 64, 256, 1024, 4096, 16384)
    let evenToTop = SIMD16<UInt16>(32768, 8192, 2048, 512, 128, 32, 8, 2, 32768, 8192, 2048, 512, 128, 32, 8, 2)
    let oddMask = evenMask &* 2
    let oddToTop = evenToTop / 2
    return (unsafeBitCast(((source & evenMask) &* evenToTop) &>> 11, to: SIMD16<Int16>.self),
            unsafeBitCast(((source & oddMask) &* oddToTop) &>> 11, to: SIMD16<Int16>.self))
}
