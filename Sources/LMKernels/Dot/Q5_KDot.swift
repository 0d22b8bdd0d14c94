/// Q5_K weights (5.5 bits/weight, 176 bytes per 256: f16 `d`, f16 `dmin`, 12 bytes of scales and
/// mins as Q4_K, 32 bytes `qh` whose bit `g` of byte `l` is the fifth bit of weight `l` of group
/// `g`, 128 bytes of nibbles as Q4_K; value `d * sc * q - dmin * m`) against Q8_K activations, as
/// ggml's `ggml_vec_dot_q5_K_q8_K`.
enum Q5_KFormat: BlockFormat {
    static var activationFormat: ActivationFormat { .q8_K }
    static var blockBytes: Int { 176 }
    static var groups: Int { 8 }
    static var hasOffset: Bool { true }

    @inline(__always)
    static func group(_ block: UnsafeRawPointer, _ g: Int) -> (SIMD16<Int16>, SIMD16<Int16>) {
        let sc = SIMD16<Int16>(repeating: Int16(kScaleMin(block + 4, g).scale))
        let qs = block + 48 + 32 * (g >> 1)
        let lo = loadU8x16(qs), hi = loadU8x16(qs + 16)
        let bit = UInt8(1) << UInt8(g)
        let h0 = highBit(loadU8x16(block + 16), bit), h1 = highBit(loadU8x16(block + 32), bit)
        if g & 1 == 0 {
            return (widen((lo & 0x0f) | h0) &* sc, widen((hi & 0x0f) | h1) &* sc)
        }
        return (widen((lo &>> 4) | h0) &* sc, widen((hi &>> 4) | h1) &* sc)
    }

    @inline(__always)
    static func scale(_ block: UnsafeRawPointer) -> Float { loadF16(block) }

    @inline(__always)
    static func offset(_ block: UnsafeRawPointer, _ x: ActivationRow, _ b: Int) -> Float {
        -loadF16(block, 2) * x.scales[b] * Float(kMinSum(block + 4, x.bsums + 16 * b))
    }
}

/// Lane `i` is 16 when `v[i] & bit` is set, else 0.
@inline(__always)
private func highBit(_ v: SIMD16<UInt8>, _ bit: UInt8) -> SIMD16<UInt8> {
    var r = SIMD16<UInt8>()
    for i in 0..<16 { r[i] = (v[i] & bit) != 0 ? 16 : 0 }
    return r
}
