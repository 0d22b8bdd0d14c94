import LMKernelsCore

/// Q5_1 weights (6 bits/weight, 24 bytes per 32: f16 `d`, f16 `m`, 32 high bits, 16 bytes of
/// low nibbles as Q5_0; value `q * d + m`) against Q8_1 activations, as ggml's
/// `ggml_vec_dot_q5_1_q8_1`.
enum Q5_1Format: BlockFormat {
    typealias Header = Void
    typealias Lanes = SIMD4<Float>
    static var activationFormat: ActivationFormat { .q8_1 }
    static var blockBytes: Int { Q5_1.layoutBytes }
    static var groups: Int { 1 }
    static var hasOffset: Bool { true }

    @inline(__always)
    static func group(_ block: UnsafeRawPointer, _ header: Void, _ g: Int) -> (SIMD16<Int16>, SIMD16<Int16>) {
        let high = fifthBits(block.loadUnaligned(fromByteOffset: Q5_1.qhOffset, as: UInt32.self))
        let low = nibblePairPlanes(block + Q5_1.qsOffset)
        return (low.0 | high.0, low.1 | high.1)
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
        loadF16(block, Q5_1.mOffset) * x.sums[b]
    }
}
