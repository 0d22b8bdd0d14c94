#if arch(x86_64)
import LMKernelsCore

/// Q5_K (layout in ``Q5_K``) for the AVX2 super-block kernel, as ggml's AVX2
/// `ggml_vec_dot_q5_K_q8_K`: the nibbles of Q4_K with bit `g` of each `qh` byte as the weight's
/// fifth bit (values 0..<32), the same sub-scales, and the mins in the Float offset.
enum Q5_KAVX2: AVX2SuperBlockFormat {
    static var blockBytes: Int { Q5_K.layoutBytes }

    @inline(__always)
    static func header(_ block: UnsafeRawPointer) -> KScales { KScales(block + Q5_K.scalesOffset) }

    @inline(__always)
    static func weights(_ block: UnsafeRawPointer, _ g: Int) -> SIMD32<UInt8> {
        let v = block.loadUnaligned(fromByteOffset: Q5_K.qsOffset + 32 * (g >> 1), as: SIMD32<UInt8>.self)
        let low = g & 1 == 0 ? AVX2.and(v, AVX2.bytes(0x0f)) : AVX2.shiftRight(v, 4)
        let qh = block.loadUnaligned(fromByteOffset: Q5_K.qhOffset, as: SIMD32<UInt8>.self)
        return AVX2.or(low, AVX2.shiftLeft(AVX2.and(AVX2.shiftRight(qh, g), AVX2.bytes(1)), 4))
    }

    @inline(__always)
    static func groupScales(_ header: KScales, _ g: Int) -> SIMD16<Int16> { SIMD16(repeating: header.scale(g)) }

    @inline(__always)
    static func correction(_ header: KScales, _ x: ActivationRow, _ b: Int) -> SIMD8<Int32> { SIMD8() }

    @inline(__always)
    static func scale(_ block: UnsafeRawPointer) -> Float { AVX2.half(block, Q5_K.dOffset) }

    @inline(__always)
    static func offset(_ block: UnsafeRawPointer, _ header: KScales, _ x: ActivationRow, _ b: Int) -> Float {
        -AVX2.half(block, Q5_K.dminOffset) * x.scales[b] * Float(header.minDot(x.groupSums + 8 * b))
    }
}
#endif
