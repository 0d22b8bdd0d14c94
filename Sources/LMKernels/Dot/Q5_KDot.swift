import LMKernelsCore

/// Q5_K weights (5.5 bits/weight, 176 bytes per 256: f16 `d`, f16 `dmin`, 12 bytes of scales and
/// mins as Q4_K, 32 bytes `qh` whose bit `g` of byte `l` is the fifth bit of weight `l` of group
/// `g`, 128 bytes of nibbles as Q4_K; value `d * sc * q - dmin * m`) against Q8_K activations, as
/// ggml's `ggml_vec_dot_q5_K_q8_K`.
enum Q5_KFormat: BlockFormat {
    typealias Lanes = SIMD4<Float>
    static var activationFormat: ActivationFormat { .q8_K }
    static var blockBytes: Int { Q5_K.layoutBytes }
    static var groups: Int { 8 }
    static var hasOffset: Bool { true }

    @inline(__always)
    static func header(_ block: UnsafeRawPointer) -> KScales { KScales(block + Q5_K.scalesOffset) }

    @inline(__always)
    static func group(_ block: UnsafeRawPointer, _ header: KScales, _ g: Int) -> (SIMD16<Int16>, SIMD16<Int16>) {
        let low = nibblePlanes32(block + Q5_K.qsOffset + 32 * (g >> 1), high: g & 1 == 1)
        // Bit g of each qh byte is the fifth bit.
        let high = bitPlanes32(block + Q5_K.qhOffset, shift: g, mask: 1)
        return (low.0 | unsafeBitCast(high.0 &<< 4, to: SIMD16<Int16>.self),
                low.1 | unsafeBitCast(high.1 &<< 4, to: SIMD16<Int16>.self))
    }

    @inline(__always)
    static func groupDot(_ w: (SIMD16<Int16>, SIMD16<Int16>), _ header: KScales, _ g: Int,
                         _ a: UnsafePointer<Int16>) -> SIMD4<Float> {
        foldedDot(w, a) * Float(header.scale(g))
    }

    @inline(__always)
    static func scale(_ block: UnsafeRawPointer) -> Float { loadF16(block) }

    @inline(__always)
    static func offset(_ block: UnsafeRawPointer, _ header: KScales, _ x: ActivationRow, _ b: Int) -> Float {
        -loadF16(block, Q5_K.dminOffset) * x.scales[b] * Float(header.minDot(x.groupSums + 8 * b))
    }
}
