#if arch(x86_64)
import LMKernelsCore

/// Q4_K (layout in ``Q4_K``) for the AVX2 super-block kernel, as ggml's AVX2
/// `ggml_vec_dot_q4_K_q8_K`: group `2c` is the low and `2c + 1` the high nibbles of the 32 bytes
/// of chunk `c`, each with one six-bit sub-scale; the mins meet the activations' group sums in
/// the Float offset `-dmin·d_a·Σ min·sum`.
enum Q4_KAVX2: AVX2SuperBlockFormat {
    static var blockBytes: Int { Q4_K.layoutBytes }

    @inline(__always)
    static func header(_ block: UnsafeRawPointer) -> KScales { KScales(block + Q4_K.scalesOffset) }

    @inline(__always)
    static func weights(_ block: UnsafeRawPointer, _ g: Int) -> SIMD32<UInt8> {
        let v = block.loadUnaligned(fromByteOffset: Q4_K.qsOffset + 32 * (g >> 1), as: SIMD32<UInt8>.self)
        return g & 1 == 0 ? AVX2.and(v, AVX2.bytes(0x0f)) : AVX2.shiftRight(v, 4)
    }

    @inline(__always)
    static func groupScales(_ header: KScales, _ g: Int) -> SIMD16<Int16> { SIMD16(repeating: header.scale(g)) }

    @inline(__always)
    static func correction(_ header: KScales, _ x: ActivationRow, _ b: Int) -> SIMD8<Int32> { SIMD8() }

    @inline(__always)
    static func scale(_ block: UnsafeRawPointer) -> Float { AVX2.half(block, Q4_K.dOffset) }

    @inline(__always)
    static func offset(_ block: UnsafeRawPointer, _ header: KScales, _ x: ActivationRow, _ b: Int) -> Float {
        -AVX2.half(block, Q4_K.dminOffset) * x.scales[b] * Float(header.minDot(x.groupSums + 8 * b))
    }
}
#endif
