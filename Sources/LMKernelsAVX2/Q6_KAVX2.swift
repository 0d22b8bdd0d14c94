#if arch(x86_64)
import LMKernelsCore

/// Q6_K (layout in ``Q6_K``) for the AVX2 super-block kernel, as ggml's AVX2
/// `ggml_vec_dot_q6_K_q8_K`: weights are dotted as unsigned `q` (0..<64) and the `-32` offset
/// is one integer term per block, `-32·Σ sc·bsum` over the 16 sub-blocks of 16 (`vpmaddwd`),
/// rather than a second byte dot per group.
enum Q6_KAVX2: AVX2SuperBlockFormat {
    static var blockBytes: Int { Q6_K.layoutBytes }

    /// The block's 16 Int8 sub-scales, sign-extended.
    @inline(__always)
    static func header(_ block: UnsafeRawPointer) -> SIMD16<Int16> {
        let s = block.loadUnaligned(fromByteOffset: Q6_K.scalesOffset, as: SIMD16<Int8>.self)
        var r = SIMD16<Int16>()
        for i in 0..<16 { r[i] = Int16(s[i]) }
        return r
    }

    /// Group `g = 4n + k` (weights `128n + 32k ..< +32`): low four bits from the low (`k < 2`) or
    /// high nibbles of `ql[64n + 32(k & 1) ..< +32]`, high two from bits `2k` of `qh[32n ..< +32]`.
    @inline(__always)
    static func weights(_ block: UnsafeRawPointer, _ g: Int) -> SIMD32<UInt8> {
        let n = g >> 2, k = g & 3
        let ql = block.loadUnaligned(fromByteOffset: Q6_K.qlOffset + 64 * n + 32 * (k & 1), as: SIMD32<UInt8>.self)
        let qh = block.loadUnaligned(fromByteOffset: Q6_K.qhOffset + 32 * n, as: SIMD32<UInt8>.self)
        let low = k < 2 ? AVX2.and(ql, AVX2.bytes(0x0f)) : AVX2.shiftRight(ql, 4)
        return AVX2.or(low, AVX2.shiftLeft(AVX2.and(AVX2.shiftRight(qh, 2 * k), AVX2.bytes(3)), 4))
    }

    /// Pair sums 0..<8 are weights 0..<16 of the group (sub-scale `2g`), 8..<16 the rest (`2g + 1`).
    @inline(__always)
    static func groupScales(_ header: SIMD16<Int16>, _ g: Int) -> SIMD16<Int16> {
        SIMD16(lowHalf: SIMD8(repeating: header[2 * g]), highHalf: SIMD8(repeating: header[2 * g + 1]))
    }

    @inline(__always)
    static func correction(_ header: SIMD16<Int16>, _ x: ActivationRow, _ b: Int) -> SIMD8<Int32> {
        let bsums = UnsafeRawPointer(x.bsums + 16 * b).loadUnaligned(as: SIMD16<Int16>.self)
        return SIMD8() &- (AVX2.madd(header, bsums) &<< 5)
    }

    @inline(__always)
    static func scale(_ block: UnsafeRawPointer) -> Float { AVX2.half(block, Q6_K.dOffset) }

    @inline(__always)
    static func offset(_ block: UnsafeRawPointer, _ header: SIMD16<Int16>, _ x: ActivationRow, _ b: Int) -> Float { 0 }
}
#endif
