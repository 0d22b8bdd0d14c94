import LMKernelsCore

/// Q4_K weights (4.5 bits/weight, 144 bytes per 256: f16 `d`, f16 `dmin`, 12 bytes of packed
/// 6-bit sub-scales and sub-mins for 8 groups of 32, 128 bytes of nibbles: bytes `32p..<32p+32`
/// hold group `2p` in their low and group `2p+1` in their high nibbles; value
/// `d * sc * q - dmin * m`) against Q8_K activations, as ggml's `ggml_vec_dot_q4_K_q8_K`: the min
/// term uses the activation's per-group sums.
enum Q4_KFormat: BlockFormat {
    typealias Lanes = SIMD4<Float>
    static var activationFormat: ActivationFormat { .q8_K }
    static var blockBytes: Int { Q4_K.layoutBytes }
    static var groups: Int { 8 }
    static var hasOffset: Bool { true }

    @inline(__always)
    static func header(_ block: UnsafeRawPointer) -> KScales { KScales(block + Q4_K.scalesOffset) }

    @inline(__always)
    static func group(_ block: UnsafeRawPointer, _ header: KScales, _ g: Int) -> (SIMD16<Int16>, SIMD16<Int16>) {
        nibblePlanes32(block + Q4_K.qsOffset + 32 * (g >> 1), high: g & 1 == 1)
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
        -loadF16(block, Q4_K.dminOffset) * x.scales[b] * Float(header.minDot(x.groupSums + 8 * b))
    }
}
