/// Q6_K weights (6.5625 bits/weight, 210 bytes per 256: 128 bytes `ql` of low nibbles, 64 bytes
/// `qh` of 2-bit high parts, 16 Int8 sub-scales (one per 16 weights), f16 `d`; value
/// `d * sc * (q - 32)`) against Q8_K activations, as ggml's `ggml_vec_dot_q6_K_q8_K`.
///
/// In each half `n` of 128 weights, weight `32k + l` (`k` 0..<4, `l` 0..<32) takes its low four
/// bits from `ql[64n + 32(k & 1) + l]` (low nibble for `k < 2`, high otherwise) and its high two
/// from bits `2k...2k+1` of `qh[32n + l]`; its scale is `sc[8n + 2k + l / 16]`.
enum Q6_KFormat: BlockFormat {
    static var activationFormat: ActivationFormat { .q8_K }
    static var blockBytes: Int { 210 }
    static var groups: Int { 8 }

    @inline(__always)
    static func group(_ block: UnsafeRawPointer, _ g: Int) -> (SIMD16<Int16>, SIMD16<Int16>) {
        let n = g >> 2, k = g & 3
        let ql = block + 64 * n + 32 * (k & 1)
        let qh = block + 128 + 32 * n
        let scales = (block + 192 + 8 * n + 2 * k).assumingMemoryBound(to: Int8.self)
        let shift = UInt8(2 * k)
        let thirtyTwo = SIMD16<Int16>(repeating: 32)
        func half(_ l: Int) -> SIMD16<Int16> {
            let low = loadU8x16(ql + l), high = loadU8x16(qh + l)
            let nibble = k < 2 ? low & 0x0f : low &>> 4
            let q = nibble | (((high &>> shift) & 3) &<< 4)
            return (widen(q) &- thirtyTwo) &* SIMD16<Int16>(repeating: Int16(scales[l >> 4]))
        }
        return (half(0), half(16))
    }

    @inline(__always)
    static func scale(_ block: UnsafeRawPointer) -> Float { loadF16(block, 208) }
}
