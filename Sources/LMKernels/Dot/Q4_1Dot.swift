import LMKernelsCore

/// Q4_1 weights (5 bits/weight, 20 bytes per 32: f16 `d`, f16 `m`, 16 bytes of nibbles laid out
/// as Q4_0; value `q * d + m`) against Q8_1 activations, as ggml's `ggml_vec_dot_q4_1_q8_1`:
/// `Σ (q*d + m) * a = d * d_a * Σ q*q_a + m * s_a` with the activation block's `s = d_a * Σq_a`.
enum Q4_1Format: BlockFormat {
    typealias Header = Void
    typealias Lanes = SIMD4<Float>
    static var activationFormat: ActivationFormat { .q8_1 }
    static var blockBytes: Int { Q4_1.layoutBytes }
    static var groups: Int { 1 }
    static var hasOffset: Bool { true }

    @inline(__always)
    static func group(_ block: UnsafeRawPointer, _ header: Void, _ g: Int) -> (SIMD16<Int16>, SIMD16<Int16>) {
        nibblePairPlanes(block + Q4_1.qsOffset)
    }

    @inline(__always)
    static func groupDot(_ w: (SIMD16<Int16>, SIMD16<Int16>), _ header: Void, _ g: Int,
                         _ a: UnsafePointer<Int16>) -> SIMD4<Float> {
        foldedDot(w, a)
    }

    @inline(__always)
    static func scale(_ block: UnsafeRawPointer) -> Float { loadF16(block) }

    @inline(__always)
    static func offset(_ block: UnsafeRawPointer, _ header: Void, _ x: ActivationRow, _ b: Int) -> Float {
        loadF16(block, Q4_1.mOffset) * x.sums[b]
    }
}
