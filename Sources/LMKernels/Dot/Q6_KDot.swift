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
    static var activationFormat: ActivationFormat { .q8_K }
    static var blockBytes: Int { 210 }
    static var groups: Int { 8 }

    @inline(__always)
    static func header(_ block: UnsafeRawPointer) -> UnsafeRawPointer { block + 192 }

    @inline(__always)
    static func group(_ block: UnsafeRawPointer, _ header: UnsafeRawPointer, _ g: Int) -> (SIMD16<Int16>, SIMD16<Int16>) {
        let n = g >> 2, k = g & 3
        let ql = block + 64 * n + 32 * (k & 1)
        let qh = block + 128 + 32 * n
        return (weights16(ql, qh, k), weights16(ql + 16, qh + 16, k))
    }

    /// Each half of a group has its own sub-scale (groups of 16), so the halves are scaled apart.
    @inline(__always)
    static func groupDot(_ w: (SIMD16<Int16>, SIMD16<Int16>), _ header: UnsafeRawPointer, _ g: Int,
                         _ a: UnsafePointer<Int16>) -> SIMD8<Float> {
        let sc = header + 2 * g
        let s0 = Float(sc.load(as: Int8.self)), s1 = Float(sc.load(fromByteOffset: 1, as: Int8.self))
        return toFloat(widenPairs(w.0 &* loadI16x16(a))) * s0 + toFloat(widenPairs(w.1 &* loadI16x16(a + 16))) * s1
    }

    @inline(__always)
    static func scale(_ block: UnsafeRawPointer) -> Float { loadF16(block, 208) }
}

/// 16 Q6_K weights `q - 32` from 16 bytes of `ql` (low nibble for `k < 2`, else high) and bits
/// `2k...2k+1` of 16 bytes of `qh`.
@inline(__always)
private func weights16(_ ql: UnsafeRawPointer, _ qh: UnsafeRawPointer, _ k: Int) -> SIMD16<Int16> {
    let low = widen(loadU8x16(ql)), high = widen(loadU8x16(qh))
    let nibble = k < 2 ? low & 0x0f : low &>> 4
    let q = nibble | (((high &>> Int16(2 * k)) & 3) &<< 4)
    return q &- SIMD16<Int16>(repeating: 32)
}
