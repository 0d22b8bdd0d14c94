import LMKernelsCore

/// Q6_K weights (6.5625 bits/weight, 210 bytes per 256: 128 bytes `ql` of low nibbles, 64 bytes
/// `qh` of 2-bit high parts, 16 Int8 sub-scales (one per 16 weights), f16 `d`; value
/// `d * sc * (q - 32)`) against Q8_K activations, as ggml's `ggml_vec_dot_q6_K_q8_K`.
///
/// In each half `n` of 128 weights, weight `32k + l` (`k` 0..<4, `l` 0..<32) takes its low four
/// bits from `ql[64n + 32(k & 1) + l]` (low nibble for `k < 2`, high otherwise) and its high two
/// from bits `2k...2k+1` of `qh[32n + l]`; its scale is `sc[8n + 2k + l / 16]`.
enum Q6_KFormat: BlockFormat {
    /// The block's 16 Int8 sub-scales.
    typealias Header = UnsafeRawPointer
    typealias Lanes = SIMD8<Float>
    static var activationFormat: ActivationFormat { .q8_K }
    static var blockBytes: Int { Q6_K.layoutBytes }
    static var groups: Int { 8 }

    @inline(__always)
    static func header(_ block: UnsafeRawPointer) -> UnsafeRawPointer { block + Q6_K.scalesOffset }

    @inline(__always)
    static func group(_ block: UnsafeRawPointer, _ header: UnsafeRawPointer, _ g: Int) -> (SIMD16<Int16>, SIMD16<Int16>) {
        let n = g >> 2, k = g & 3
        let low = nibblePlanes32(block + Q6_K.qlOffset + 64 * n + 32 * (k & 1), high: k >= 2)
        let high = bitPlanes32(block + Q6_K.qhOffset + 32 * n, shift: 2 * k, mask: 3)
        let thirtyTwo = SIMD16<Int16>(repeating: 32)
        return ((low.0 | unsafeBitCast(high.0 &<< 4, to: SIMD16<Int16>.self)) &- thirtyTwo,
                (low.1 | unsafeBitCast(high.1 &<< 4, to: SIMD16<Int16>.self)) &- thirtyTwo)
    }

    /// Weights 0..<16 and 16..<32 of a group have their own sub-scales; in even/odd lanes they are
    /// lanes 0..<8 and 8..<16 of both planes, so after pairing, Int32 lanes 0..<4 and 4..<8.
    @inline(__always)
    static func groupDot(_ w: (SIMD16<Int16>, SIMD16<Int16>), _ header: UnsafeRawPointer, _ g: Int,
                         _ a: UnsafePointer<Int16>) -> SIMD8<Float> {
        let sc = header + 2 * g
        let s0 = Float(sc.load(as: Int8.self)), s1 = Float(sc.load(fromByteOffset: 1, as: Int8.self))
        return toFloat(pairedDot(w, a)) * SIMD8(lowHalf: SIMD4(repeating: s0), highHalf: SIMD4(repeating: s1))
    }

    @inline(__always)
    static func scale(_ block: UnsafeRawPointer) -> Float { loadF16(block, Q6_K.dOffset) }
}
