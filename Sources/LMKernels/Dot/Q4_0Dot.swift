import LMKernelsCore

/// Q4_0 weights (4.5 bits/weight, 18 bytes per 32: f16 `d`, 16 bytes of nibbles; weight `j` is
/// the low nibble of byte `j`, weight `j + 16` the high nibble; value `(q - 8) * d`) against Q8_0
/// activations, as ggml's `ggml_vec_dot_q4_0_q8_0`.
enum Q4_0Format: BlockFormat {
    typealias Header = Void
    typealias Lanes = SIMD4<Float>
    static var activationFormat: ActivationFormat { .q8_0 }
    static var blockBytes: Int { Q4_0.layoutBytes }
    static var groups: Int { 1 }

    @inline(__always)
    static func group(_ block: UnsafeRawPointer, _ header: Void, _ g: Int) -> (SIMD16<Int16>, SIMD16<Int16>) {
        let (even, odd) = nibblePairPlanes(block + Q4_0.qsOffset)
        let eight = SIMD16<Int16>(repeating: 8)
        return (even &- eight, odd &- eight)
    }

    @inline(__always)
    static func groupDot(_ w: (SIMD16<Int16>, SIMD16<Int16>), _ header: Void, _ g: Int,
                         _ a: UnsafePointer<Int16>) -> SIMD4<Float> {
        foldedDot(w, a)
    }

    @inline(__always)
    static func scale(_ block: UnsafeRawPointer) -> Float { loadF16(block) }
}
